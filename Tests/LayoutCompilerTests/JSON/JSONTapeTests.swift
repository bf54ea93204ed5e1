@testable import LayoutCompiler
import Foundation
import Testing

/// The tape a scene is parsed into: it answers what the ``JSONValue`` tree answers, its
/// nodes are 16 bytes, and a parsed document never needs more nodes than
/// ``JSONTape/nodeBound(byteCount:)``, the capacity the parser gives it.
struct JSONTapeTests {
    /// The tree the tape's value spells, read through ``JSONNode`` only.
    func tree(_ node: JSONNode) -> JSONValue {
        switch node.shape {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .number(let number): return .number(number)
        case .string(let string): return .string(string)
        case .array(let elements): return .array(elements.map(tree))
        case .object(let members): return .object(members.map { ($0.0, tree($0.1)) })
        }
    }

    /// The documents every property below is checked on: the densest ones the bound allows,
    /// escapes, repeats, nesting, and every scene of the corpus.
    func documents() throws -> [String] {
        var documents = [
            "1", "[]", "{}", "[1]", "[1,2,3]", "[[[[1]]]]", "[[],[],[]]", "[{},{}]", #"{"a":1}"#, #"{"a":1,"a":2}"#,
            #"["",""]"#, #"{"":""}"#, #"[true,false,null]"#, #" [ 1 , [ 2 ] , { "b" : [ ] } ] "#,
            #"{"n\u0061me":"v\"al","x":[1e2,-0,0.5]}"#, #"["é😀", "\u00e9"]"#,
            "[" + Array(repeating: "1", count: 1000).joined(separator: ",") + "]",
            "[" + Array(repeating: "[]", count: 500).joined(separator: ",") + "]",
            String(repeating: "[", count: 60) + String(repeating: "]", count: 60),
        ]
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../../shared/corpus").standardized
        if let names = try? FileManager.default.contentsOfDirectory(atPath: corpus.path) {
            for name in names.sorted() where name.hasSuffix(".json") {
                documents.append(try String(contentsOf: corpus.appendingPathComponent(name), encoding: .utf8))
            }
        }
        return documents
    }

    @Test func aNodeIsSixteenBytes() {
        #expect(MemoryLayout<JSONTape.Node>.stride == 16)
    }

    @Test func theTapeAnswersAsTheTree() throws {
        let documents = try documents()
        #expect(documents.count > 40)   // the corpus was read too
        for document in documents {
            let bytes = Array(document.utf8)
            let expected = try JSONParser().parse(bytes)
            #expect(try JSONParser().parseTape(bytes).withRoot(tree) == expected, "\(document.prefix(80))")
            #expect(try JSONParser().parseCanonicalTape(bytes).tape.withRoot(tree) == expected, "\(document.prefix(80))")
            #expect(JSONTape(expected).withRoot(tree) == expected, "\(document.prefix(80))")
        }
    }

    /// The number of nodes of a value's subtree.
    func nodeCount(_ value: JSONValue) -> Int {
        switch value {
        case .array(let elements): return 1 + elements.map(nodeCount).reduce(0, +)
        case .object(let members): return 1 + members.map { 1 + nodeCount($0.1) }.reduce(0, +)
        default: return 1
        }
    }

    @Test func aDocumentFitsTheBoundItsTapeIsGiven() throws {
        for document in try documents() {
            let bytes = Array(document.utf8)
            let count = nodeCount(try JSONParser().parse(bytes))
            #expect(count <= JSONTape.nodeBound(byteCount: bytes.count), "\(count) nodes in \(bytes.count) bytes: \(document.prefix(80))")
        }
        // The densest documents are at the bound: n one-digit numbers in 2n + 1 bytes are n + 1 nodes.
        #expect(JSONTape.nodeBound(byteCount: 2001) == 1002)
        #expect(nodeCount(try JSONParser().parse(Array(("[" + Array(repeating: "1", count: 1000).joined(separator: ",") + "]").utf8))) == 1001)
    }

    @Test func aMebibyteOfNumbersTakesEightMebibytesOfNodes() throws {
        // 524,287 one-digit numbers: 1,048,575 bytes, within the default 1 MiB body.
        let body = Array(("[" + Array(repeating: "7", count: 524_287).joined(separator: ",") + "]").utf8)
        #expect(body.count == 1_048_575)
        let tape = try JSONParser().parseTape(body)
        #expect(tape.nodeBytes == 8_388_624)   // (1,048,575 + 1) / 2 + 1 = 524,289 nodes of 16 bytes
        #expect(tape.withRoot { $0.arrayValue?.count } == 524_287)
        let canonical = try JSONParser().parseCanonicalTape(body).tape
        #expect(canonical.nodeBytes == 8_388_624)
    }
}
