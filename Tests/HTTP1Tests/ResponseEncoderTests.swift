import Testing
@testable import HTTP1

struct ResponseEncoderTests {
    private func encode(_ response: HTTPResponse, keepAlive: Bool = true, version: HTTPVersion = .http1_1, isHead: Bool = false) -> String {
        var bytes: [UInt8] = []
        ResponseEncoder.encode(response, keepAlive: keepAlive, requestVersion: version, isHeadRequest: isHead,
                               date: "Sun, 06 Nov 1994 08:49:37 GMT", into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func framingFieldsAreTheServers() {
        let response = HTTPResponse(status: 201, headers: [
            ("Content-Length", "999"), ("Transfer-Encoding", "chunked"), ("Connection", "keep-alive"),
            ("ETag", "\"3\""), ("Date", "Mon, 07 Nov 1994 00:00:00 GMT"),
        ], body: Array("{}".utf8))
        #expect(encode(response, keepAlive: false) ==
            "HTTP/1.1 201 Created\r\nETag: \"3\"\r\nDate: Mon, 07 Nov 1994 00:00:00 GMT\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}")
    }

    @Test func fieldsCannotSplitTheResponse() {
        let response = HTTPResponse(status: 200, headers: ["X-Evil": "a\r\nSet-Cookie: b"])
        #expect(encode(response) ==
            "HTTP/1.1 200 OK\r\nX-Evil: a  Set-Cookie: b\r\nDate: Sun, 06 Nov 1994 08:49:37 GMT\r\nContent-Length: 0\r\n\r\n")
    }

    @Test func unregisteredAndInvalidStatuses() {
        #expect(encode(HTTPResponse(status: 299)).hasPrefix("HTTP/1.1 299 \r\n"))
        #expect(encode(HTTPResponse(status: 42)).hasPrefix("HTTP/1.1 500 Internal Server Error\r\n"))
        #expect(encode(HTTPResponse(status: 304, body: [1])) == "HTTP/1.1 304 Not Modified\r\nDate: Sun, 06 Nov 1994 08:49:37 GMT\r\n\r\n")
    }

    @Test("decimal digits", arguments: [0, 7, 10, 1_048_576, Int.max])
    func decimal(_ value: Int) {
        var bytes: [UInt8] = []
        ResponseEncoder.appendDecimal(value, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == String(value))
    }

    @Test("IMF-fixdate (RFC 9110 §5.6.7)", arguments: [
        (784_111_777, "Sun, 06 Nov 1994 08:49:37 GMT"),
        (0, "Thu, 01 Jan 1970 00:00:00 GMT"),
        (951_782_400, "Tue, 29 Feb 2000 00:00:00 GMT"),
    ])
    func httpDate(_ seconds: Int, _ expected: String) {
        #expect(HTTPDate.format(secondsSince1970: seconds) == expected)
    }
}
