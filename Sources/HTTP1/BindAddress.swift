#if canImport(Glibc)
import Glibc
#endif

/// The address a server listens on, resolved once from the text an operator gave
/// (`--host`) by `getaddrinfo` — the same call that decides what is bound — so that
/// whatever classifies the bind (loopback or exposed) sees the address the socket gets,
/// not the text: `127.1`, `2130706433` and `0x7f.1` are all 127.0.0.1 to `getaddrinfo`
/// (inet_aton(3) forms), and `localhost` is whatever the resolver says it is.
///
/// An IPv6 literal may be written in brackets, as in a URL (`[::1]`, RFC 3986 §3.2.2);
/// the brackets are removed before resolving. Held by `BindAddressTests`.
public struct BindAddress: Sendable, Equatable {
    /// The text given, as the operator wrote it.
    public let text: String
    /// The address family: `AF_INET` or `AF_INET6`.
    public let family: Int32
    /// The socket address (`sockaddr_in` or `sockaddr_in6`), as `getaddrinfo` returned it.
    let socketAddress: [UInt8]
    /// The numeric address (inet_ntop(3)): `127.0.0.1`, `::1`.
    public let numericHost: String

    /// Resolves `host` for listening on `port` (`AI_PASSIVE | AI_NUMERICSERV`, either
    /// family) and keeps the first address, the one a server binds.
    ///
    /// - Throws: ``HTTPServerError/addressResolution(host:message:)`` when `getaddrinfo`
    ///   fails (the message from `gai_strerror`), or when it answers a family other than
    ///   IPv4 or IPv6.
    public static func resolve(_ host: String, port: Int) throws(HTTPServerError) -> BindAddress {
        var name = host
        if name.hasPrefix("[") && name.hasSuffix("]") && name.count >= 2 { name = String(name.dropFirst().dropLast()) }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(name, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw .addressResolution(host: host, message: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }
        let info = first.pointee
        guard info.ai_family == AF_INET || info.ai_family == AF_INET6, let address = info.ai_addr else {
            throw .addressResolution(host: host, message: "not an IPv4 or IPv6 address")
        }
        let bytes = Array(UnsafeRawBufferPointer(start: address, count: Int(info.ai_addrlen)))
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: UnsafeRawBufferPointer(start: address, count: Int(info.ai_addrlen))) }
        return BindAddress(text: host, family: info.ai_family, socketAddress: bytes, numericHost: Socket.describe(storage).host)
    }

    /// Whether only this machine can reach the address: IPv4 127.0.0.0/8 (RFC 1122
    /// §3.2.1.3), IPv6 `::1`, or the IPv4-mapped form of a 127.0.0.0/8 address (RFC 4291
    /// §2.5.3, §2.5.5.2). `0.0.0.0`, `::` and every other address are reachable from others.
    public var isLoopback: Bool {
        Self.isLoopback(family: family, socketAddress: socketAddress)
    }

    /// The host as a URL writes it: the numeric address, an IPv6 one in brackets.
    public var urlHost: String {
        family == AF_INET6 ? "[\(numericHost)]" : numericHost
    }

    /// ``isLoopback`` of a `sockaddr_in` or `sockaddr_in6` in bytes.
    static func isLoopback(family: Int32, socketAddress bytes: [UInt8]) -> Bool {
        if family == AF_INET {
            // sockaddr_in: family (2), port (2), then sin_addr in network order.
            return bytes.count >= 8 && bytes[4] == 127
        }
        guard family == AF_INET6, bytes.count >= 24 else { return false }
        // sockaddr_in6: family (2), port (2), flow info (4), then 16 bytes of sin6_addr.
        let address = bytes[8..<24]
        let start = address.startIndex
        if address.prefix(15).allSatisfy({ $0 == 0 }) && address[start + 15] == 1 { return true }
        return address.prefix(10).allSatisfy({ $0 == 0 }) && address[start + 10] == 0xFF && address[start + 11] == 0xFF
            && address[start + 12] == 127
    }
}
