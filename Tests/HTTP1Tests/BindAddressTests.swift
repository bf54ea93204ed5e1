#if canImport(Glibc)
import Glibc
#endif
@testable import HTTP1
import Testing

/// ``BindAddress``: the address `getaddrinfo` gives for each way of writing a host, and
/// whether it is loopback, which is what decides the bind's Host check.
struct BindAddressTests {
    @Test func everySpellingOfALoopbackAddressIsLoopback() throws {
        // inet_aton(3) forms: fewer parts, one 32-bit number, hexadecimal and octal parts.
        let spellings: [(String, String)] = [
            ("127.0.0.1", "127.0.0.1"), ("127.1", "127.0.0.1"), ("2130706433", "127.0.0.1"), ("0x7f.1", "127.0.0.1"),
            ("0x7f000001", "127.0.0.1"), ("017700000001", "127.0.0.1"), ("127.8.9.10", "127.8.9.10"), ("127.0.0", "127.0.0.0"),
            ("::1", "::1"), ("[::1]", "::1"), ("0:0:0:0:0:0:0:1", "::1"), ("::ffff:127.0.0.1", "::ffff:127.0.0.1"),
            ("[::ffff:127.1.2.3]", "::ffff:127.1.2.3"),
        ]
        for (text, numeric) in spellings {
            let address = try BindAddress.resolve(text, port: 0)
            #expect(address.numericHost == numeric, "\(text)")
            #expect(address.isLoopback, "\(text)")
            #expect(address.text == text)
        }
        #expect(try BindAddress.resolve("127.1", port: 0).family == AF_INET)
        #expect(try BindAddress.resolve("[::1]", port: 0).family == AF_INET6)
        #expect(try BindAddress.resolve("[::1]", port: 0).urlHost == "[::1]")
        #expect(try BindAddress.resolve("2130706433", port: 0).urlHost == "127.0.0.1")
    }

    @Test func localhostIsLoopbackAsTheResolverAnswers() throws {
        let address = try BindAddress.resolve("localhost", port: 0)
        #expect(address.isLoopback)
        #expect(["127.0.0.1", "::1"].contains(address.numericHost))
        #expect(try BindAddress.resolve("LOCALHOST", port: 0).isLoopback)
    }

    @Test func otherAddressesAreExposed() throws {
        let exposed: [(String, String)] = [
            ("0.0.0.0", "0.0.0.0"), ("0", "0.0.0.0"), ("::", "::"), ("[::]", "::"), ("10.0.0.1", "10.0.0.1"),
            ("128.0.0.1", "128.0.0.1"), ("126.255.255.255", "126.255.255.255"), ("192.168.1.2", "192.168.1.2"),
            ("0x80.1", "128.0.0.1"), ("::2", "::2"), ("::ffff:10.0.0.1", "::ffff:10.0.0.1"), ("::127.0.0.1", "::127.0.0.1"),
        ]
        for (text, numeric) in exposed {
            let address = try BindAddress.resolve(text, port: 0)
            #expect(address.numericHost == numeric, "\(text)")
            #expect(!address.isLoopback, "\(text)")
        }
    }

    @Test func anUnresolvableHostIsAnError() {
        #expect(throws: HTTPServerError.self) { try BindAddress.resolve("[::1", port: 0) }
        #expect(throws: HTTPServerError.self) { try BindAddress.resolve("", port: 0) }
        #expect(throws: HTTPServerError.self) { try BindAddress.resolve("[]", port: 0) }
    }

    /// A server given `[::1]` listens on IPv6 loopback and answers there.
    @Test func aServerBindsABracketedIPv6Address() throws {
        let server = HTTPServer(host: "[::1]", port: 0, workerCount: 1) { _ in HTTPResponse(status: 200, body: Array("ok".utf8)) }
        let port = try server.start()
        defer { server.shutdown() }
        let fd = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
        #expect(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_port = in_port_t(UInt16(port).bigEndian)
        address.sin6_addr = in6addr_loopback
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
        }
        #expect(connected == 0)
        let request = Array("GET / HTTP/1.1\r\nHost: [::1]\r\nConnection: close\r\n\r\n".utf8)
        #expect(write(fd, request, request.count) == request.count)
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count <= 0 { break }
            answer += buffer[0..<count]
        }
        let text = String(decoding: answer, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(text.hasSuffix("\r\n\r\nok"))
    }
}
