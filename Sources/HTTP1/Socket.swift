#if canImport(Glibc)
import Glibc
#endif

/// Why ``HTTPServer/start()`` failed.
public enum HTTPServerError: Error, Equatable, Sendable {
    /// `getaddrinfo` could not resolve the host (message from `gai_strerror`).
    case addressResolution(host: String, message: String)
    /// A socket call failed; `errno` and its `strerror` text.
    case socket(operation: String, errno: Int32, message: String)
    /// `start()` was called twice.
    case alreadyStarted
}

extension HTTPServerError: CustomStringConvertible {
    /// One line for a person: `Address already in use (bind, errno 98)`,
    /// `cannot resolve 'nohost': Name or service not known`.
    public var description: String {
        switch self {
        case .addressResolution(let host, let message): "cannot resolve '\(host)': \(message)"
        case .socket(let operation, let errno, let message): "\(message) (\(operation), errno \(errno))"
        case .alreadyStarted: "the server was already started"
        }
    }
}

/// Thin wrappers over the BSD socket calls the server needs.
enum Socket {
    /// Creates a non-blocking listening TCP socket on `address` with `SO_REUSEADDR`,
    /// and returns it with the port actually bound (useful for port 0, an ephemeral port).
    ///
    /// - Throws: ``HTTPServerError``.
    static func listen(_ address: BindAddress, backlog: Int32) throws(HTTPServerError) -> (fd: Int32, port: Int) {
        let fd = socket(address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw error("socket") }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = address.socketAddress.withUnsafeBytes { bytes in
            bind(fd, bytes.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(bytes.count))
        }
        guard bound == 0 else {
            let failure = error("bind")
            close(fd)
            throw failure
        }
        guard Glibc.listen(fd, backlog) == 0 else {
            let failure = error("listen")
            close(fd)
            throw failure
        }
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return (fd, describe(address).port)
    }

    /// Accepts one pending connection, made non-blocking, close-on-exec and
    /// `TCP_NODELAY` (responses are written whole, so Nagle only adds delay).
    /// Returns `nil` with `errno` set when none is pending or on error.
    static func accept(_ listener: Int32) -> (fd: Int32, remote: String)? {
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let fd = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.accept(listener, $0, &length) }
        }
        guard fd >= 0 else { return nil }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        let (host, port) = describe(address)
        return (fd, host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)")
    }

    /// The numeric host and port of an IPv4 or IPv6 address.
    static func describe(_ storage: sockaddr_storage) -> (host: String, port: Int) {
        var storage = storage
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                    var ip = address.pointee.sin_addr
                    inet_ntop(AF_INET, &ip, &text, socklen_t(text.count))
                    return (cText(text), Int(UInt16(bigEndian: address.pointee.sin_port)))
                }
            }
        case AF_INET6:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                    var ip = address.pointee.sin6_addr
                    inet_ntop(AF_INET6, &ip, &text, socklen_t(text.count))
                    return (cText(text), Int(UInt16(bigEndian: address.pointee.sin6_port)))
                }
            }
        default:
            return ("?", 0)
        }
    }

    /// A NUL-terminated C string in a buffer, as a `String`.
    private static func cText(_ buffer: [CChar]) -> String {
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func error(_ operation: String) -> HTTPServerError {
        let code = errno
        return .socket(operation: operation, errno: code, message: String(cString: strerror(code)))
    }
}

/// Seconds on the monotonic clock (never jumps with wall-clock changes).
func monotonicNow() -> Double {
    monotonicSeconds()
}

/// Seconds on `CLOCK_MONOTONIC` (an arbitrary origin; never goes back): the clock of
/// ``HTTPRequest/headReceivedAt`` and of the server's timeouts.
public func monotonicSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1_000_000_000
}
