@testable import HTTP1
import Testing

/// ``HTTPStatus``: the constants' codes and RFC 9110 reason phrases, the problem slugs,
/// and the status line each writes.
struct HTTPStatusTests {
    @Test func constantsCarryTheirCodeAndReasonPhrase() {
        let expected: [(HTTPStatus, Int, String, String)] = [
            (.continue, 100, "Continue", "continue"), (.ok, 200, "OK", "ok"), (.created, 201, "Created", "created"),
            (.noContent, 204, "No Content", "no-content"), (.notModified, 304, "Not Modified", "not-modified"),
            (.badRequest, 400, "Bad Request", "bad-request"), (.unauthorized, 401, "Unauthorized", "unauthorized"),
            (.forbidden, 403, "Forbidden", "forbidden"), (.notFound, 404, "Not Found", "not-found"),
            (.methodNotAllowed, 405, "Method Not Allowed", "method-not-allowed"),
            (.requestTimeout, 408, "Request Timeout", "request-timeout"),
            (.preconditionFailed, 412, "Precondition Failed", "precondition-failed"),
            (.contentTooLarge, 413, "Content Too Large", "payload-too-large"), (.uriTooLong, 414, "URI Too Long", "uri-too-long"),
            (.unsupportedMediaType, 415, "Unsupported Media Type", "unsupported-media-type"),
            (.expectationFailed, 417, "Expectation Failed", "expectation-failed"),
            (.misdirectedRequest, 421, "Misdirected Request", "misdirected-request"),
            (.unprocessableContent, 422, "Unprocessable Content", "unprocessable-content"),
            (.requestHeaderFieldsTooLarge, 431, "Request Header Fields Too Large", "header-fields-too-large"),
            (.internalServerError, 500, "Internal Server Error", "internal-server-error"),
            (.notImplemented, 501, "Not Implemented", "not-implemented"),
            (.serviceUnavailable, 503, "Service Unavailable", "service-unavailable"),
            (.httpVersionNotSupported, 505, "HTTP Version Not Supported", "http-version-not-supported"),
            (.insufficientStorage, 507, "Insufficient Storage", "insufficient-storage"),
        ]
        for (status, code, phrase, slug) in expected {
            #expect(status.code == code)
            #expect(status.reasonPhrase == phrase, "\(code)")
            #expect(status.problemSlug == slug, "\(code)")
            #expect(status.description == String(code))
            #expect(HTTPStatus(code: code) == status)
        }
        #expect(HTTPStatus(code: 299).reasonPhrase == "")
        #expect(HTTPStatus(code: 299).problemSlug == "status-299")
    }

    @Test func classes() {
        #expect(HTTPStatus.serviceUnavailable.isServerError)
        #expect(!HTTPStatus.misdirectedRequest.isServerError)
        #expect(!HTTPStatus(code: 600).isServerError)
        #expect(HTTPStatus.noContent.isBodiless && HTTPStatus.notModified.isBodiless && HTTPStatus.continue.isBodiless)
        #expect(!HTTPStatus.ok.isBodiless)
    }

    /// The status line: the code and its reason phrase; an unregistered code has an empty
    /// phrase, a code outside 100–999 is written as 500.
    @Test func statusLines() {
        func line(_ status: HTTPStatus) -> String {
            var bytes: [UInt8] = []
            ResponseEncoder.encode(HTTPResponse(status: status), keepAlive: true, requestVersion: .http1_1, isHeadRequest: false,
                                   date: "d", into: &bytes)
            return String(decoding: bytes.prefix { $0 != 0x0D }, as: UTF8.self)
        }
        #expect(line(.misdirectedRequest) == "HTTP/1.1 421 Misdirected Request")
        #expect(line(299) == "HTTP/1.1 299 ")
        #expect(line(1000) == "HTTP/1.1 500 Internal Server Error")
        #expect(line(42) == "HTTP/1.1 500 Internal Server Error")
    }
}
