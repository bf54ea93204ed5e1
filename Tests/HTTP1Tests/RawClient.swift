#if canImport(Glibc)
import Glibc
#endif
import Foundation
@testable import HTTP1

/// A blocking test client on a raw TCP socket: sends exact bytes, reads exact
/// responses. Reads give up after `timeout` seconds (a safety net so a broken
/// server fails a test instead of hanging it; no test asserts on timing).
final class RawClient {
    struct Response {
        var statusLine: String
        var headers: HTTPFields
        var body: [UInt8]
        var status: Int { Int(statusLine.split(separator: " ")[1]) ?? 0 }
        var bodyText: String { String(decoding: body, as: UTF8.self) }
    }

    enum Failure: Error { case connect(Int32), closedEarly, malformed(String) }

    let fd: Int32
    private var buffer: [UInt8] = []

    /// `receiveBuffer`, if given, is set as `SO_RCVBUF` (bytes) before connecting: a
    /// client that reads slowly, or not at all, leaves the server's output unsent.
    init(port: Int, timeout: Double = 5, receiveBuffer: Int32? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw Failure.connect(code)
        }
        var time = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - Double(Int(timeout))) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count <= 0 { return }
            offset += count
        }
    }

    func send(_ text: String) { send(crlf(text)) }

    /// Reads more bytes; false on EOF, reset or timeout.
    private func fill() -> Bool {
        let count = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 262_144) { chunk in
            let count = recv(fd, chunk.baseAddress, chunk.count, 0)
            if count > 0 { buffer.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[..<count])) }
            return count
        }
        guard count > 0 else { return false }
        return true
    }

    /// Reads one response; `isHead` means the response to a HEAD (no body despite Content-Length).
    func readResponse(isHead: Bool = false) throws -> Response {
        var headEnd: Int?
        while headEnd == nil {
            headEnd = buffer.indices.dropLast(3).first { buffer[$0] == 13 && buffer[$0 + 1] == 10 && buffer[$0 + 2] == 13 && buffer[$0 + 3] == 10 }
            if headEnd == nil && !fill() { throw Failure.closedEarly }
        }
        let head = String(decoding: buffer[..<headEnd!], as: UTF8.self)
        buffer.removeFirst(headEnd! + 4)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst()
        var headers = HTTPFields()
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { throw Failure.malformed(line) }
            headers.append(String(line[..<colon]), String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces))
        }
        let length = isHead ? 0 : Int(headers["Content-Length"] ?? "0") ?? 0
        while buffer.count < length {
            if !fill() { throw Failure.closedEarly }
        }
        let body = Array(buffer[..<length])
        buffer = Array(buffer[length...])
        return Response(statusLine: statusLine, headers: headers, body: body)
    }

    /// Whether the server closed the connection: EOF (or reset) with no more bytes.
    func isClosedByServer() -> Bool {
        guard buffer.isEmpty else { return false }
        var byte: UInt8 = 0
        let count = recv(fd, &byte, 1, 0)
        if count == 0 { return true }
        if count < 0 && errno == ECONNRESET { return true }
        if count > 0 { buffer.append(byte) }
        return false
    }
}

extension RawClient {
    /// Whether every byte this client sent has been read by the server's application: none
    /// is waiting in this socket's send queue (`ioctl(TIOCOUTQ)`, tcp(7)), nor in the receive
    /// queue of the server's end of the connection (its `rx_queue` in `/proc/net/tcp`, the
    /// bytes received and not yet read). A test that needs the server to have read a whole
    /// upload waits for this rather than for a count that grows ahead of the bytes.
    var isReadByServer: Bool { unreadBytes == (0, 0) }

    /// The bytes this client sent that the server's application has not read: those in this
    /// socket's send queue and those in the server's end's receive queue (`nil` when either
    /// cannot be read). See ``isReadByServer``.
    var unreadBytes: (sendQueue: Int?, serverReceiveQueue: Int?) {
        var queued: Int32 = 0
        let sendQueue = ioctl(fd, UInt(TIOCOUTQ), &queued) == 0 ? Int(queued) : nil
        var local = sockaddr_in(), remote = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        guard withUnsafeMutablePointer(to: &local, {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }) == 0 else { return (sendQueue, nil) }
        length = socklen_t(MemoryLayout<sockaddr_in>.size)
        guard withUnsafeMutablePointer(to: &remote, {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) }
        }) == 0 else { return (sendQueue, nil) }
        // The server's end: its local port is our peer's, its remote port is ours; state 01
        // (established: a TIME_WAIT entry of an earlier connection may share the ports).
        let serverEnd = String(format: "%04X", UInt16(bigEndian: remote.sin_port))
        let clientEnd = String(format: "%04X", UInt16(bigEndian: local.sin_port))
        // Read to the end: Foundation's file reads stop after the first page of a procfs
        // file, whose size is 0 (seen with 4,000 sockets open).
        let table = open("/proc/net/tcp", O_RDONLY | O_CLOEXEC)
        guard table >= 0 else { return (sendQueue, nil) }
        defer { close(table) }
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(table, &chunk, chunk.count)
            if count <= 0 { break }
            data += chunk[..<count]
        }
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n").dropFirst() {
            // sl local_address rem_address st tx_queue:rx_queue …
            let fields = line.split(separator: " ")
            guard fields.count > 4, fields[3] == "01", fields[1].hasSuffix(":" + serverEnd),
                  fields[2].hasSuffix(":" + clientEnd) else { continue }
            let queues = fields[4].split(separator: ":")
            guard queues.count == 2, let unread = Int(queues[1], radix: 16) else { return (sendQueue, nil) }
            return (sendQueue, unread)
        }
        return (sendQueue, nil)
    }
}
