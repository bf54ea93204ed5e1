import Testing
@testable import HTTP1

struct HTTPFieldsTests {
    @Test func orderedCaseInsensitiveLookup() {
        var fields: HTTPFields = [("Set-Cookie", "a=1"), ("Content-Type", "text/plain")]
        fields.append("SET-COOKIE", "b=2")
        #expect(fields["set-cookie"] == "a=1")
        #expect(fields.values("Set-Cookie") == ["a=1", "b=2"])
        #expect(fields["X-Missing"] == nil)
        #expect(fields.count == 3)
        #expect(fields.map(\.name) == ["Set-Cookie", "Content-Type", "SET-COOKIE"])
        fields.set("set-cookie", "c=3")
        #expect(fields.map(\.value) == ["text/plain", "c=3"])
        fields.removeAll("CONTENT-TYPE")
        #expect(fields.map(\.name) == ["set-cookie"])
    }

    @Test("Connection tokens", arguments: [
        ("close", true), ("Keep-Alive, CLOSE", true), (" upgrade ,close ", true), ("closed", false), ("", false),
    ])
    func tokens(_ value: String, _ hasClose: Bool) {
        let fields: HTTPFields = ["Connection": value]
        #expect(fields.containsToken("close", in: "connection") == hasClose)
    }

    @Test func lowercasingIsASCIIOnly() {
        #expect(asciiLowercased("Content-TYPE") == "content-type")
        #expect(asciiLowercased("ÄB") == "Äb")
        #expect(asciiLowercased("already") == "already")
    }
}
