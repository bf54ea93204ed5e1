import LayoutCompiler

/// A scene body split for ``StructureCache``: everything but its container's size and
/// its `sizes` as the raw bytes it was sent in (the *template*), and those sizes parsed.
///
/// Two bodies with the same template have the same structure: every top-level member
/// but `container` and `sizes` is byte for byte the same, and the container's other
/// members (its margins) are the same in canonical form. A body whose template is known
/// (it belonged to a body that parsed and decoded) therefore needs only its sizes parsed
/// and decoded: ``JSONSkim`` finds them, ``JSONParser`` parses just those two values,
/// and the rest of the body is known to be valid JSON of a valid scene.
///
/// The template key is unambiguous: each member is a tag byte (0 raw, 1 the container's
/// canonical structure, 2 `sizes`), then its name and its value, each prefixed with its
/// length (4 bytes, little-endian). The canonical structure keeps every member of the
/// container's objects, a repeated name too (``JSONWriter/value(_:sortingKeys:)``), so a
/// body whose margins or safe area repeat a name never has the template of a body that
/// decoded: it is decoded whole and refused as on a cold server
/// (`NameBytesServiceTests.everyRejectionIsTheSameThroughAWarmTemplate`).
struct SceneTemplate {
    /// The template key (``CacheKey/template(members:)``: its hash is computed once).
    let key: FrontCacheKey
    /// `{"container": {...}, "sizes": [...]}` with the members the body has, in its order:
    /// what ``SceneDecoder/redecodeSizes(_:of:)`` and ``CacheKey/split(_:)`` read.
    let sizeMembers: JSONValue

    /// The template of `body`; `nil` when the body is not an object whose members can be
    /// found (``JSONSkim``), has more than 16 members, a repeated name or a name written
    /// with an escape (it could spell `container` or `sizes`), or its
    /// `container` or `sizes` value does not parse (the whole body is decoded then).
    /// `maximumDepth` is the body's nesting limit.
    /// - Complexity: O(body) bytes copied, no parsing but the two values.
    init?(body: [UInt8], maximumDepth: Int) {
        guard let members = JSONSkim.topLevelMembers(body), members.count <= 16 else { return nil }
        for (index, member) in members.enumerated() {
            // A name spelled with an escape (`"contain\u0065r"`) is the decoder's
            // `container` but not these raw bytes: no template, the whole body is read.
            if body[member.name].contains(UInt8(ascii: "\\")) { return nil }
            for earlier in members[..<index] where body[earlier.name].elementsEqual(body[member.name]) { return nil }
        }
        let parser = JSONParser(maximumDepth: maximumDepth - 1)   // one level below the body's object
        var key: [UInt8] = []
        key.reserveCapacity(body.count + 16 * members.count)
        var sizes: [(String, JSONValue)] = []
        func append(_ tag: UInt8, _ name: ArraySlice<UInt8>, _ value: some Collection<UInt8>) {
            key.append(tag)
            for part in [name.count, value.count] {
                withUnsafeBytes(of: UInt32(truncatingIfNeeded: part).littleEndian) { key.append(contentsOf: $0) }
            }
            key.append(contentsOf: name)
            key.append(contentsOf: value)
        }
        for member in members {
            let name = body[member.name]
            if name.elementsEqual("container".utf8) {
                guard case .some(.object(let container)) = try? parser.parse(body[member.value]) else { return nil }
                var structure = JSONWriter(reservingCapacity: 64)
                structure.value(.object(CacheKey.splitContainer(container).structure), sortingKeys: true)
                append(1, name, structure.bytes)
                sizes.append(("container", .object(container)))
            } else if name.elementsEqual("sizes".utf8) {
                guard let value = try? parser.parse(body[member.value]) else { return nil }
                append(2, name, EmptyCollection())
                sizes.append(("sizes", value))
            } else {
                append(0, name, body[member.value])
            }
        }
        self.key = CacheKey.template(members: key)
        self.sizeMembers = .object(sizes)
    }
}
