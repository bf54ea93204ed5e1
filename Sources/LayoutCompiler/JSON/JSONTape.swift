/// A parsed JSON document as one flat array of nodes in document order (a tape), for
/// the scene decoder: no array per object or array and no string per string, as a
/// ``JSONValue`` tree has.
///
/// An object's node is followed by its members, each a name (a string node) then its
/// value; an array's by its elements. Every node records where the nodes after its own
/// (its subtree's) start, so a container's children are walked without reading their
/// contents. A string without escapes is its bytes in the document (valid UTF-8: the
/// parser checked); one with escapes is decoded once, into ``strings``.
///
/// Read through ``JSONNode``, which answers what ``JSONValue`` does: member lookup by
/// bytes with the last repeat winning, elements, members in document order, scalars,
/// and ``JSONNode/typeDescription``.
public final class JSONTape: @unchecked Sendable {
    /// What a node is.
    enum Kind: UInt8 {
        case null, bool, number, string, escapedString, array, object
    }

    /// One value of the document, in 16 bytes: a 1 MiB body of 524,288 one-digit
    /// numbers is 8 MiB of nodes (`JSONTapeTests.aNodeIsSixteenBytes`).
    struct Node {
        /// A number's `Double` bits (a boolean's is 1.0 for `true`, 0.0 for `false`); a
        /// string's first byte (low 32 bits) and count (high 32 bits); a container's count
        /// (high 32 bits).
        var payload: UInt64
        /// The index of the first node after this one's subtree.
        var nextIndex: UInt32
        var kind: Kind

        @inline(__always)
        init(kind: Kind, payload: UInt64, next: Int) {
            self.payload = payload
            self.nextIndex = UInt32(truncatingIfNeeded: next)
            self.kind = kind
        }

        /// The index of the first node after this one's subtree.
        @inline(__always) var next: Int { Int(nextIndex) }
        /// A number's value; a boolean's is 1 for `true`, 0 for `false`.
        @inline(__always) var number: Double { Double(bitPattern: payload) }
        /// An array's elements, an object's members, a plain string's byte count, an
        /// escaped string's index in ``JSONTape/strings``.
        @inline(__always) var count: Int { Int(payload >> 32) }
        /// A plain string's first byte in ``JSONTape/bytes``.
        @inline(__always) var start: Int { Int(payload & 0xFFFF_FFFF) }
    }

    /// The most bytes a document read into a tape may have: node fields are 32 bits.
    static let maximumDocumentBytes = Int(UInt32.max) - 1

    /// The most nodes a document of `byteCount` bytes can have: each value takes at least
    /// two bytes (a container its brackets, a string its quotes, a scalar its first byte
    /// and the comma or bracket after it) but one, so n nodes need 2n − 1 bytes. A
    /// parser's builder made with this capacity never grows.
    static func nodeBound(byteCount: Int) -> Int { (byteCount + 1) / 2 + 1 }

    /// The nodes, the document's first value first (owned: freed with the tape). Never
    /// changed once made, and read in place (no array to retain per read).
    let nodes: UnsafeMutablePointer<Node>
    /// The number of nodes ``nodes`` has room for.
    let nodeCapacity: Int
    /// The decoded strings that had escapes.
    let strings: [String]
    /// A copy of the document's bytes, which plain strings point into (owned).
    let bytes: UnsafeMutablePointer<UInt8>

    /// Takes `builder`'s nodes and strings (it is left empty), with a copy of `bytes`.
    init(_ builder: TapeBuilder, bytes source: UnsafeBufferPointer<UInt8>) {
        (nodes, nodeCapacity, strings) = builder.take()
        bytes = .allocate(capacity: max(source.count, 1))
        if let base = source.baseAddress { bytes.initialize(from: base, count: source.count) }
    }

    deinit {
        nodes.deallocate()
        bytes.deallocate()
    }

    /// The tape of a value already parsed (its strings all kept in ``strings``).
    public convenience init(_ value: JSONValue) {
        let builder = TapeBuilder(capacity: 16)
        builder.append(value)
        self.init(builder, bytes: UnsafeBufferPointer(start: nil, count: 0))
    }

    /// The document's value, for code in this module that keeps the tape alive while it
    /// reads (a parameter, or ``withRoot(_:)``).
    var root: JSONNode { JSONNode(tape: self, index: 0) }

    /// Calls `body` with the document's value. Nodes hold their tape unretained: they are
    /// valid inside `body` (the tape is kept for the call) and must not escape it.
    ///
    /// - Throws: what `body` throws.
    public func withRoot<Result, Failure: Error>(_ body: (JSONNode) throws(Failure) -> Result) throws(Failure) -> Result {
        try body(root)
    }

    /// The bytes the nodes take (their capacity: a parsed document's is
    /// ``nodeBound(byteCount:)``, of which only the nodes written are ever touched).
    var nodeBytes: Int { nodeCapacity * MemoryLayout<Node>.stride }
}

/// The nodes and escaped strings of a tape being written (``JSONParser`` appends as it
/// reads; ``JSONTape/init(_:)`` from a tree). Nodes not taken by a tape are freed with it.
final class TapeBuilder {
    private var nodes: UnsafeMutablePointer<JSONTape.Node>
    private var capacity: Int
    /// The number of nodes written.
    private(set) var count = 0
    private var strings: [String] = []

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        nodes = .allocate(capacity: self.capacity)
    }

    deinit { nodes.deallocate() }

    /// The nodes, their capacity and the strings written, handed over (the caller frees the nodes); the
    /// builder is left with new, empty storage.
    func take() -> (nodes: UnsafeMutablePointer<JSONTape.Node>, capacity: Int, strings: [String]) {
        let taken = (nodes, capacity, strings)
        capacity = 1
        count = 0
        nodes = .allocate(capacity: 1)
        strings = []
        return taken
    }

    /// The kind of node `index` (written already).
    func kind(at index: Int) -> JSONTape.Kind { nodes[index].kind }

    /// The string of the string node `index`, whose plain bytes are in `bytes` (the document).
    func name(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> String {
        let node = nodes[index]
        if node.kind == .escapedString { return strings[node.count] }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[node.start..<(node.start + node.count)]), as: UTF8.self)
    }

    @inline(__always)
    private func push(_ node: JSONTape.Node) {
        if count == capacity { grow() }
        (nodes + count).initialize(to: node)
        count += 1
    }

    private func grow() {
        let larger = UnsafeMutablePointer<JSONTape.Node>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: nodes, count: count)
        nodes.deallocate()
        nodes = larger
        capacity *= 2
    }

    /// Appends a scalar (null, bool or number) node.
    @inline(__always)
    func scalar(_ kind: JSONTape.Kind, _ number: Double = 0) {
        push(JSONTape.Node(kind: kind, payload: number.bitPattern, next: count + 1))
    }

    /// Appends a string node for the bytes `start ..< start + count` of the document.
    @inline(__always)
    func plainString(start: Int, count length: Int) {
        push(JSONTape.Node(kind: .string, payload: UInt64(truncatingIfNeeded: length) << 32 | UInt64(truncatingIfNeeded: start), next: count + 1))
    }

    /// Appends a string node for a decoded string.
    func escapedString(_ string: String) {
        push(JSONTape.Node(kind: .escapedString, payload: UInt64(truncatingIfNeeded: strings.count) << 32, next: count + 1))
        strings.append(string)
    }

    /// Appends an array or object node whose count and end ``close(_:count:)`` sets; returns its index.
    @inline(__always)
    func open(_ kind: JSONTape.Kind) -> Int {
        push(JSONTape.Node(kind: kind, payload: 0, next: 0))
        return count - 1
    }

    /// Sets the count of the container at `index` and its end (the next node appended).
    @inline(__always)
    func close(_ index: Int, count members: Int) {
        nodes[index].payload = UInt64(truncatingIfNeeded: members) << 32
        nodes[index].nextIndex = UInt32(truncatingIfNeeded: count)
    }

    func append(_ value: JSONValue) {
        switch value {
        case .null: scalar(.null)
        case .bool(let flag): scalar(.bool, flag ? 1 : 0)
        case .number(let number): scalar(.number, number)
        case .string(let string): escapedString(string)
        case .array(let elements):
            let index = open(.array)
            for element in elements { append(element) }
            close(index, count: elements.count)
        case .object(let members):
            let index = open(.object)
            for (name, member) in members {
                escapedString(name)
                append(member)
            }
            close(index, count: members.count)
        }
    }
}

/// A value in a ``JSONTape``: what ``JSONValue`` answers, read from the tape.
///
/// Holds its tape unretained: valid while the tape is alive (the decoder's caller holds it).
public struct JSONNode {
    unowned(unsafe) let tape: JSONTape
    let index: Int

    init(tape: JSONTape, index: Int) {
        self.tape = tape
        self.index = index
    }

    @inline(__always)
    var node: JSONTape.Node { tape.nodes[index] }

    /// The value, as a ``JSONShape`` to match on (a string's `String` is made here).
    public var shape: JSONShape {
        let node = self.node
        switch node.kind {
        case .null: return .null
        case .bool: return .bool(node.number != 0)
        case .number: return .number(node.number)
        case .string, .escapedString: return .string(stringValue!)
        case .array: return .array(JSONElements(tape: tape, first: index + 1, count: node.count))
        case .object: return .object(JSONMembers(tape: tape, first: index + 1, count: node.count))
        }
    }

    /// The string, when this is one.
    public var stringValue: String? {
        let node = self.node
        switch node.kind {
        case .string:
            return String(decoding: UnsafeBufferPointer(start: tape.bytes + node.start, count: node.count), as: UTF8.self)
        case .escapedString: return tape.strings[node.count]
        default: return nil
        }
    }

    /// The elements, when this is an array.
    public var arrayValue: JSONElements? {
        let node = self.node
        return node.kind == .array ? JSONElements(tape: tape, first: index + 1, count: node.count) : nil
    }

    /// The members, when this is an object.
    public var objectValue: JSONMembers? {
        let node = self.node
        return node.kind == .object ? JSONMembers(tape: tape, first: index + 1, count: node.count) : nil
    }

    /// Whether this is a string whose UTF-8 is `utf8`'s bytes.
    @inline(__always)
    func hasBytes(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        let node = self.node
        switch node.kind {
        case .string:
            guard node.count == utf8.count else { return false }
            let bytes = tape.bytes + node.start
            for offset in 0..<node.count where bytes[offset] != utf8[offset] { return false }
            return true
        case .escapedString:
            var string = tape.strings[node.count]
            return string.withUTF8 { $0.elementsEqual(utf8) }
        default: return false
        }
    }

    /// Whether this is a string whose UTF-8 is `key`'s (``utf8Equal(_:_:)``).
    @inline(__always)
    func hasBytes(of key: String) -> Bool {
        var key = key
        return key.withUTF8 { hasBytes($0) }
    }

    /// The value of the last member whose name has `key`'s bytes (``utf8Equal(_:_:)``),
    /// or `nil` when this is not an object or has no such member: what
    /// ``JSONValue/subscript(_:)`` finds.
    ///
    /// - Complexity: O(n) in the number of members.
    public subscript(_ key: String) -> JSONNode? {
        guard let members = objectValue else { return nil }
        var key = key
        return key.withUTF8 { utf8 in
            var found: JSONNode? = nil
            var name = members.first
            for _ in 0..<members.count {
                let nameNode = JSONNode(tape: tape, index: name)
                if nameNode.hasBytes(utf8) { found = JSONNode(tape: tape, index: name + 1) }
                name = tape.nodes[name + 1].next
            }
            return found
        }
    }

    /// A short English name of the value's JSON type, for messages ("a string", "an
    /// object"): ``JSONValue/typeDescription``'s.
    public var typeDescription: String {
        switch node.kind {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string, .escapedString: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// A ``JSONNode``'s value to match on, as ``JSONValue``'s cases.
public enum JSONShape {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array(JSONElements)
    case object(JSONMembers)
}

/// An array's elements in a ``JSONTape``, in order.
public struct JSONElements: Sequence {
    unowned(unsafe) let tape: JSONTape
    /// The first element's node.
    let first: Int
    /// The number of elements.
    public let count: Int

    public var isEmpty: Bool { count == 0 }
    public var underestimatedCount: Int { count }

    public struct Iterator: IteratorProtocol {
        unowned(unsafe) let tape: JSONTape
        var index: Int
        var left: Int
        public mutating func next() -> JSONNode? {
            guard left > 0 else { return nil }
            left -= 1
            defer { index = tape.nodes[index].next }
            return JSONNode(tape: tape, index: index)
        }
    }

    public func makeIterator() -> Iterator { Iterator(tape: tape, index: first, left: count) }
}

/// An object's members in a ``JSONTape``, in document order (repeats included): each
/// its name and value.
public struct JSONMembers: Sequence {
    unowned(unsafe) let tape: JSONTape
    /// The first member's name node (its value is the next node).
    let first: Int
    /// The number of members.
    public let count: Int

    public var underestimatedCount: Int { count }

    public struct Iterator: IteratorProtocol {
        unowned(unsafe) let tape: JSONTape
        var index: Int
        var left: Int
        public mutating func next() -> (String, JSONNode)? {
            guard left > 0 else { return nil }
            left -= 1
            let name = JSONNode(tape: tape, index: index)
            defer { index = tape.nodes[index + 1].next }
            return (name.stringValue!, JSONNode(tape: tape, index: index + 1))
        }
    }

    public func makeIterator() -> Iterator { Iterator(tape: tape, index: first, left: count) }

    /// The name nodes of the members, in order (no `String` made).
    func forEachName(_ body: (_ offset: Int, _ name: JSONNode) -> Void) {
        var index = first
        for offset in 0..<count {
            body(offset, JSONNode(tape: tape, index: index))
            index = tape.nodes[index + 1].next
        }
    }
}
