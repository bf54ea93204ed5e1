import LayoutCompiler
import Testing

/// `JSONSkim` finds the top-level members of an object without parsing values.
struct JSONSkimTests {
    static func members(_ text: String) -> [(String, String)]? {
        let bytes = Array(text.utf8)
        return JSONSkim.topLevelMembers(bytes)?.map {
            (String(decoding: bytes[$0.name], as: UTF8.self), String(decoding: bytes[$0.value], as: UTF8.self))
        }
    }

    @Test func findsMembersAndSkipsNestedValuesAndStrings() throws {
        let text = #" { "a" : 1.5e3 ,"b":{"x":[1,{"y":"}]"}]},"c\"d":"q\\\"}{" , "e":[ ] ,"f":true}  "#
        let found = try #require(Self.members(text))
        #expect(found.map(\.0) == ["a", "b", #"c\"d"#, "e", "f"])
        #expect(found.map(\.1) == ["1.5e3", #"{"x":[1,{"y":"}]"}]}"#, #""q\\\"}{""#, "[ ]", "true"])
        #expect(Self.members("{}")?.isEmpty == true)
        #expect(Self.members(" {\n}\t")?.isEmpty == true)
    }

    @Test("not one object", arguments: [
        "", "[]", "1", #"{"a":1"#, #"{"a":1} x"#, #"{"a":"unterminated}"#, #"{"a":{"b":1}"#, #"{"a" 1}"#,
        #"{a:1}"#, #"{"a":}"#, #"{"a":1,}"#, #"{"a":1}{"#,
    ])
    func rejects(_ text: String) {
        #expect(Self.members(text) == nil)
    }
}
