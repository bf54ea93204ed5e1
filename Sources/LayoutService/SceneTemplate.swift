import Glibc
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
///
/// A template also keeps the body it was made from, where its members are, and the
/// container's canonical structure, so that another body of the same template is
/// recognised by comparing bytes in place (``rebased(onto:maximumDepth:)``) without
/// skimming, copying and hashing the whole body again.
struct SceneTemplate: Sendable {
    /// The template key (``CacheKey/template(members:)``: its hash is computed once).
    let key: FrontCacheKey
    /// `{"container": {...}, "sizes": [...]}` with the members the body has, in its order:
    /// what ``SceneDecoder/redecodeSizes(_:of:)`` and ``CacheKey/split(_:)`` read.
    let sizeMembers: JSONValue
    /// The body the template was made from.
    let body: [UInt8]
    /// Where `container`'s and `sizes`' values are in ``body``, in the body's order
    /// (`isContainer` false for `sizes`): what varies between bodies of one template.
    let varying: [(isContainer: Bool, value: Range<Int>)]
    /// The container's canonical structure (the key's tag-1 value), empty without a container.
    let containerStructure: [UInt8]

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
        var varying: [(isContainer: Bool, value: Range<Int>)] = []
        var containerStructure: [UInt8] = []
        func append(_ tag: UInt8, _ name: ArraySlice<UInt8>, _ value: some Collection<UInt8>) {
            key.append(tag)
            withUnsafeBytes(of: UInt32(truncatingIfNeeded: name.count).littleEndian) { key.append(contentsOf: $0) }
            withUnsafeBytes(of: UInt32(truncatingIfNeeded: value.count).littleEndian) { key.append(contentsOf: $0) }
            key.append(contentsOf: name)
            key.append(contentsOf: value)
        }
        for member in members {
            let name = body[member.name]
            if name.elementsEqual("container".utf8) {
                guard let (container, structure) = Self.container(body[member.value], parser: parser) else { return nil }
                append(1, name, structure)
                sizes.append(("container", .object(container)))
                varying.append((true, member.value))
                containerStructure = structure
            } else if name.elementsEqual("sizes".utf8) {
                guard let value = try? parser.parse(body[member.value]) else { return nil }
                append(2, name, EmptyCollection())
                sizes.append(("sizes", value))
                varying.append((false, member.value))
            } else {
                append(0, name, body[member.value])
            }
        }
        self.key = CacheKey.template(members: key)
        self.sizeMembers = .object(sizes)
        self.body = body
        self.varying = varying
        self.containerStructure = containerStructure
    }

    private init(key: FrontCacheKey, sizeMembers: JSONValue, body: [UInt8], varying: [(isContainer: Bool, value: Range<Int>)],
                 containerStructure: [UInt8]) {
        self.key = key
        self.sizeMembers = sizeMembers
        self.body = body
        self.varying = varying
        self.containerStructure = containerStructure
    }

    /// A container value parsed, with its canonical structure (every member but `width`
    /// and `height`, sorted: ``CacheKey/splitContainer(_:)``); `nil` unless it is an object.
    private static func container(_ value: ArraySlice<UInt8>, parser: JSONParser) -> ([(String, JSONValue)], [UInt8])? {
        let container: [(String, JSONValue)]
        if let numbers = parser.parseNumberObject(value) {
            container = numbers   // a container of only its size, as the parser reads it
        } else {
            guard case .some(.object(let parsed)) = try? parser.parse(value) else { return nil }
            container = parsed
        }
        // Only a size: the structure is the empty object's, written once.
        if container.allSatisfy({ utf8Equal($0.0, "width") || utf8Equal($0.0, "height") }) { return (container, emptyStructure) }
        var structure = JSONWriter(reservingCapacity: 64)
        structure.value(.object(CacheKey.splitContainer(container).structure), sortingKeys: true)
        return (container, structure.bytes)
    }

    /// The canonical structure of a container with no member but `width` and `height`
    /// (an empty object, as ``container(_:parser:)`` writes it otherwise).
    private static let emptyStructure: [UInt8] = {
        var writer = JSONWriter(reservingCapacity: 8)
        writer.value(.object([]), sortingKeys: true)
        return writer.bytes
    }()

    /// The template of `other` when it is this template, found in place: `other`'s bytes
    /// equal ``body``'s but for the values of `container` and `sizes`, each of which is
    /// one JSON value (skimmed, then parsed), and the container's canonical structure is
    /// the same. `other` then has exactly the members of ``body`` — the bytes between the
    /// two values are the same, so are the names, their order and every other value — and
    /// its template is ``init(body:maximumDepth:)``'s for it: the same key, and its own
    /// sizes. `nil` otherwise (the caller makes the template of `other` from scratch).
    /// - Complexity: O(body) bytes compared (`memcmp`); only the two values are read.
    func rebased(onto other: [UInt8], maximumDepth: Int) -> SceneTemplate? {
        let parser = JSONParser(maximumDepth: maximumDepth - 1)
        var sizes: [(String, JSONValue)] = []
        var moved: [(isContainer: Bool, value: Range<Int>)] = []
        var mine = 0, theirs = 0
        /// Whether `other[theirs..<theirs + count]` equals `body[mine..<mine + count]`.
        func same(_ count: Int) -> Bool {
            guard count >= 0, mine + count <= body.count, theirs + count <= other.count else { return false }
            guard count > 0 else { return true }
            return body.withUnsafeBytes { left in
                other.withUnsafeBytes { right in memcmp(left.baseAddress! + mine, right.baseAddress! + theirs, count) == 0 }
            }
        }
        // Every byte outside the two values first, then the values parsed: a body of
        // another structure (most often different after the container) is told apart by
        // `memcmp` alone.
        moved.reserveCapacity(varying.count)
        for (isContainer, value) in varying {
            guard same(value.lowerBound - mine) else { return nil }
            theirs += value.lowerBound - mine
            guard let end = JSONSkim.valueEnd(other, from: theirs) else { return nil }
            moved.append((isContainer, theirs..<end))
            mine = value.upperBound
            theirs = end
        }
        guard body.count - mine == other.count - theirs, same(body.count - mine) else { return nil }
        for (isContainer, value) in moved {
            if isContainer {
                guard let (container, structure) = Self.container(other[value], parser: parser),
                      structure == containerStructure else { return nil }
                sizes.append(("container", .object(container)))
            } else {
                guard let parsed = try? parser.parse(other[value]) else { return nil }
                sizes.append(("sizes", parsed))
            }
        }
        return SceneTemplate(key: key, sizeMembers: .object(sizes), body: other, varying: moved, containerStructure: containerStructure)
    }
}
