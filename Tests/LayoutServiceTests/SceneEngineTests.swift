import Foundation
import LayoutCompiler
@testable import LayoutService
import Testing

/// The cache key is a documented function of the request (`SceneEngine.cacheKey`): the
/// canonical scene (members sorted by name's bytes, no whitespace, numbers in layoutd's
/// form) split into its structure and its sizes; the structure's
/// digest, SHA-256 of `"layoutd VERSION structure\n"` and the canonical structure; the
/// structure key, SHA-256 of that 32-byte digest and `"\nNAME@VERSION"` per included
/// group; and the key, SHA-256 (hex) of `"layoutd VERSION\nROUTE\n"`, the 32-byte
/// structure key and the canonical sizes. Keys must not change between builds, or a
/// stored cache would silently stop hitting.
struct SceneEngineTests {
    /// Whitespace, member order, `1.50`/`2E1`/`375.0`/`-0` and a `\u` escape, all of which
    /// the canonical form normalises. `@GROUPS@` is replaced by a
    /// `groups` member or nothing.
    static let template = #"""
    { "views": {"b": {"intrinsicSize": {"width": 1.50, "height": 2E1}}, "a": {}},
      "container": {"width": 375.0, "height": -0, "margins": {"left": 4}},@GROUPS@
      "constraints": ["H:|-[a]-[b]-|", {"vfl": "V:|[a][b]|", "options": ["alignAllLeading"]}, "a.width == b.width @\u0037\u00350"],
      "metrics": {"m": 2}, "options": {"ambiguity": "ignore"} }
    """#

    static let structure = #"{"constraints":["H:|-[a]-[b]-|",{"options":["alignAllLeading"],"vfl":"V:|[a][b]|"},"a.width == b.width @750"],"container":{"margins":{"left":4}},"metrics":{"m":2},"options":{"ambiguity":"ignore"},"views":{"a":{},"b":{"intrinsicSize":{"height":20,"width":1.5}}}}"#
    static let sizes = #"{"container":{"height":0,"width":375}}"#

    /// The body prepared; with `groups`, it includes `"groups": ["g1", "other@7"]`,
    /// resolved at versions 2 and 7.
    func prepared(groups: Bool = false) throws -> SceneEngine.Prepared {
        let body = Self.template.replacingOccurrences(of: "@GROUPS@", with: groups ? #" "groups": ["g1", "other@7"],"# : "")
        let resolve: GroupResolver = { reference in
            ResolvedGroup(name: reference.name, version: reference.version ?? 2, constraints: [], metrics: [:])
        }
        guard case .success(let prepared) = SceneEngine().prepare(body: Array(body.utf8), resolveGroup: resolve) else {
            throw PrepareFailed()
        }
        return prepared
    }

    struct PrepareFailed: Error {}

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined() }

    @Test func canonicalFormIsSplitIntoStructureAndSizes() throws {
        var writer = JSONWriter()
        let json = try JSONParser().parse(Array(Self.template.replacingOccurrences(of: "@GROUPS@", with: "").utf8))
        let (structure, sizes) = CacheKey.split(json)
        writer.value(structure, sortingKeys: true)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == Self.structure)
        #expect(String(decoding: try prepared().sizeJSON, as: UTF8.self) == Self.sizes)
        var sizesWriter = JSONWriter()
        sizesWriter.value(sizes, sortingKeys: true)
        #expect(String(decoding: sizesWriter.bytes, as: UTF8.self) == Self.sizes)
    }

    /// Expected digests from Python's hashlib over the messages spelled out above.
    /// A new `layoutdVersion` changes every key on purpose: update the digests with it.
    @Test func keyIsSHA256OfTheDocumentedMessage() throws {
        let plain = try prepared()
        #expect(Self.hex(plain.structureDigest.bytes) == "744c4a4aec214f3eca577ad492fe91b8acce2f0d08e4adce373d46243e05e442")
        #expect(Self.hex(plain.structureKey.bytes) == "40d9d2f22142f7acfb7b761cfcc75441de130744503e78a74c4739c26c7cf353")
        #expect(CacheKey.result(plain, route: .solve) == "cfea96ac00eb89558e989e09eb6071c5d86383456abe089e966caa71fb192e4e")
        // The structure (with "groups":["g1","other@7"]), then "\ng1@2\nother@7".
        let grouped = try prepared(groups: true)
        #expect(Self.hex(grouped.structureDigest.bytes) == "1503fcaa64162fbc2215193579dbb2df08ca5889cc32371f180b82131e0a576b")
        #expect(Self.hex(grouped.structureKey.bytes) == "5e5d62b0e9c16b653c6519201382c116498f5088e3249b19d57d741e9e937b62")
        #expect(CacheKey.result(grouped, route: .solve) == "bf13195e81dd648ed50252b3d5b31f657660f0fed3aa6cb6e7a817b321549e6b")
        // The digest type renders the same hex as its bytes, and keeps them.
        #expect(grouped.structureKey.hex == Self.hex(grouped.structureKey.bytes))
        #expect(SHA256Digest(bytes: grouped.structureKey.bytes) == grouped.structureKey)
        #expect(SHA256Digest(bytes: grouped.structureKey.bytes) != plain.structureKey)
    }

    /// The structure cache's fitted dimensions keep the bits they had as a `UInt8`:
    /// bit 0 the width, bit 1 the height.
    @Test func fittedDimensionsAreTheTwoBits() {
        typealias Fitted = CacheKey.FittedDimensions
        #expect(Fitted(fitsWidth: false, fitsHeight: false).rawValue == 0)
        #expect(Fitted(fitsWidth: true, fitsHeight: false).rawValue == 1)
        #expect(Fitted(fitsWidth: false, fitsHeight: true).rawValue == 2)
        #expect(Fitted(fitsWidth: true, fitsHeight: true) == [.width, .height])
        #expect(Fitted.all.map(\.rawValue) == [0, 1, 2, 3])
    }
}
