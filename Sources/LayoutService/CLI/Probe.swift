#if canImport(Glibc)
import Glibc
#endif
import Foundation

extension LayoutdCommand {
    static let probeOptions: [OptionSpec] = [
        OptionSpec(name: "host", valueName: "ADDRESS", help: "Address of the server; 0.0.0.0 and :: (what serve binds in a container) mean this machine's loopback.", defaultDescription: "127.0.0.1"),
        OptionSpec(name: "port", valueName: "PORT", help: "TCP port of the server.", defaultDescription: "8080"),
        OptionSpec(name: "timeout", valueName: "SECONDS", help: "Time for connecting, sending and reading the status line together.", defaultDescription: "2"),
    ]

    /// `layoutd probe`: `GET /healthz` on a running server, for a container's
    /// `HEALTHCHECK` without curl. Exit 0 when the status line says 200 within the
    /// timeout, 1 otherwise (nothing listens, the connection fails or stalls, another
    /// status; the reason goes to stderr), 2 for bad usage. Reads the same `LAYOUTD_HOST`
    /// and `LAYOUTD_PORT` as `serve`, so the image's health check needs no arguments.
    /// Held by the e2e check `hostile/exposure-probe`.
    static func probe(_ arguments: [String], environment: [String: String]) throws(UsageError) -> Int32 {
        if arguments.contains("--help") || arguments.contains("-h") {
            print(OptionParser.help(usage: "layoutd probe [options]",
                                    summary: "Asks a running layoutd for GET /healthz. Exit 0 on 200, 1 otherwise, 2 bad usage.",
                                    specs: probeOptions))
            return 0
        }
        let options = try OptionParser.parse(arguments, specs: probeOptions, environment: environment)
        guard options.positionals.isEmpty else { throw UsageError("probe takes no arguments, got '\(options.positionals[0])'") }
        var host = options.string("host") ?? "127.0.0.1"
        if host == "0.0.0.0" || host.isEmpty { host = "127.0.0.1" }
        if host == "::" || host == "[::]" { host = "::1" }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let port = try options.int("port", default: 8080)
        guard (1...65535).contains(port) else { throw UsageError("--port must be 1…65535") }
        let timeout = try options.seconds("timeout", default: 2)
        switch healthStatus(host: host, port: port, timeout: timeout) {
        case .success(200):
            return 0
        case .success(let status):
            FileHandle.standardError.write(Data("layoutd probe: GET /healthz answered \(status)\n".utf8))
            return 1
        case .failure(let reason):
            FileHandle.standardError.write(Data("layoutd probe: \(reason.message)\n".utf8))
            return 1
        }
    }

    struct ProbeFailure: Error { var message: String }

    /// The status code of `GET /healthz` at `host`:`port`, everything within `timeout`
    /// seconds: a non-blocking connect and reads bounded by `poll`, at most 4 KiB read.
    static func healthStatus(host: String, port: Int, timeout: Double) -> Result<Int, ProbeFailure> {
        let deadline = Date().addingTimeInterval(timeout)
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else {
            return .failure(ProbeFailure(message: "cannot resolve '\(host)'"))
        }
        defer { freeaddrinfo(list) }
        let fd = socket(first.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { return .failure(ProbeFailure(message: "cannot open a socket (errno \(errno))")) }
        defer { close(fd) }

        func wait(for events: Int16) -> Bool {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { return false }
            var entry = pollfd(fd: fd, events: events, revents: 0)
            return poll(&entry, 1, Int32(min(remaining * 1000, 60_000).rounded(.up))) == 1
        }

        if connect(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) != 0 {
            guard errno == EINPROGRESS else { return .failure(ProbeFailure(message: "cannot connect to \(host):\(port): \(String(cString: strerror(errno)))")) }
            guard wait(for: Int16(POLLOUT)) else { return .failure(ProbeFailure(message: "no connection to \(host):\(port) within \(timeout) s")) }
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
            guard error == 0 else { return .failure(ProbeFailure(message: "cannot connect to \(host):\(port): \(String(cString: strerror(error)))")) }
        }
        let authority = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        let request = Array("GET /healthz HTTP/1.1\r\nHost: \(authority)\r\nUser-Agent: layoutd-probe\r\nConnection: close\r\n\r\n".utf8)
        var sent = 0
        while sent < request.count {
            let count = request[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count > 0 { sent += count; continue }
            guard count < 0, errno == EAGAIN || errno == EINTR, wait(for: Int16(POLLOUT)) else {
                return .failure(ProbeFailure(message: "cannot send the request to \(host):\(port)"))
            }
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        while received.count < 4096 {
            if let lineEnd = received.firstIndex(of: 0x0A) {
                // "HTTP/1.1 200 OK": the status code is the second space-separated part.
                let parts = received[..<lineEnd].split(separator: 0x20)
                guard parts.count >= 2, parts[0].starts(with: Array("HTTP/".utf8)),
                      let status = Int(String(decoding: parts[1], as: UTF8.self)) else {
                    return .failure(ProbeFailure(message: "\(host):\(port) did not answer HTTP"))
                }
                return .success(status)
            }
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 { received += buffer[..<count]; continue }
            if count == 0 { break }
            guard errno == EAGAIN || errno == EINTR, wait(for: Int16(POLLIN)) else {
                return .failure(ProbeFailure(message: errno == EAGAIN ? "no answer from \(host):\(port) within \(timeout) s" : "cannot read from \(host):\(port)"))
            }
        }
        return .failure(ProbeFailure(message: "\(host):\(port) closed the connection without a status line"))
    }
}
