#if canImport(Glibc)
import Glibc
#endif
import Foundation
import HTTP1

/// Which `Host` values layoutd answers, against DNS rebinding: a web page on
/// `evil.example` whose name is re-pointed at 127.0.0.1 makes the browser send
/// `Host: evil.example` to a service listening on loopback, which refuses it.
///
/// A request is allowed when its `Host` names a loopback host — `localhost` or a name
/// under `.localhost` (RFC 6761 §6.3), an IPv4 address in 127.0.0.0/8, or the IPv6
/// loopback address `[::1]` — with any port, or matches one of ``allowedHosts``. A request
/// without `Host` (HTTP/1.0; an HTTP/1.1 one never reaches the service: the server answers
/// 400 per RFC 9112 §3.2) is allowed: browsers always send one. Tested by `HostPolicyTests`.
public struct HostPolicy: Sendable, Equatable {
    /// Whether `Host` is checked at all. `serve` turns it on for a loopback bind, or for
    /// any bind given `--allowed-hosts`.
    public var isEnforced: Bool
    /// Extra allowed hosts, lowercased: `name` (any port), `name:port` (that port only;
    /// an IPv6 address in brackets, `[2001:db8::1]:8080`), or `*` (any host, which turns
    /// the check off).
    public var allowedHosts: [String]

    /// A policy; `allowedHosts` entries are trimmed and lowercased, empty ones dropped.
    public init(isEnforced: Bool, allowedHosts: [String] = []) {
        self.isEnforced = isEnforced
        self.allowedHosts = allowedHosts.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
    }

    /// The policy `serve` uses for the address it binds: enforced on a loopback bind
    /// (``BindAddress/isLoopback``: the address `getaddrinfo` resolved, whatever spelling
    /// gave it) or whenever `allowedHosts` is given.
    public static func forBind(_ address: BindAddress, allowedHosts: [String]) -> HostPolicy {
        HostPolicy(isEnforced: address.isLoopback || !allowedHosts.isEmpty, allowedHosts: allowedHosts)
    }

    /// The loopback `Host` values an enforced policy answers, in words, for the start-up
    /// line and the 421's detail; it says what ``allows(host:)`` accepts besides
    /// ``allowedHosts``.
    public static let loopbackHostsDescription = "localhost, *.localhost, 127.x.y.z (127.0.0.0/8 in dotted-decimal form), [::1], [::ffff:127.x.y.z], any port"

    /// Whether a request with this `Host` field value (nil: none) is answered.
    ///
    /// - Complexity: O(length of `host` + total length of ``allowedHosts``).
    public func allows(host: String?) -> Bool {
        guard isEnforced, let host else { return true }
        if Self.isPlainLoopback(host.utf8) { return true }
        if allowedHosts.contains("*") { return true }
        guard let (name, port) = Self.splitAuthority(host) else { return false }
        if Self.isLoopbackName(name) { return true }
        for entry in allowedHosts {
            guard let (allowedName, allowedPort) = Self.splitAuthority(entry) else { continue }
            if allowedName == name && (allowedPort == nil || allowedPort == port) { return true }
        }
        return false
    }

    /// The common loopback values without allocating: `127.0.0.1` or `localhost`, alone
    /// or followed by `:` and digits (a fast path of ``allows(host:)``; any other value
    /// takes the general path).
    static func isPlainLoopback(_ bytes: String.UTF8View) -> Bool {
        if let plain = bytes.withContiguousStorageIfAvailable({ isPlainLoopback(bytes: $0) }) { return plain }
        return Array(bytes).withUnsafeBufferPointer { isPlainLoopback(bytes: $0) }
    }

    private static func isPlainLoopback(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for name: StaticString in ["127.0.0.1", "localhost"] {
            let matched = name.withUTF8Buffer { utf8 -> Bool? in
                guard bytes.starts(with: utf8) else { return nil }
                let rest = bytes[utf8.count...]
                if rest.isEmpty { return true }
                return rest.first == UInt8(ascii: ":") && rest.dropFirst().allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
            }
            if let matched { return matched }
        }
        return false
    }

    /// Splits a `Host` value (`uri-host [ ":" port ]`, RFC 9110 §7.2, RFC 3986 §3.2.2)
    /// into its lowercased host, without brackets for an IP literal and without a trailing
    /// dot, and its port digits (nil when absent or empty). Nil when the value is not an
    /// authority: empty, user info, a bracket left open, a port that is not digits.
    public static func splitAuthority(_ value: String) -> (host: String, port: String?)? {
        let text = value.trimmingCharacters(in: .whitespaces).lowercased()
        guard !text.isEmpty, !text.contains("@"), !text.contains("/") else { return nil }
        var host: Substring
        var rest: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            host = text[text.index(after: text.startIndex)..<close]
            rest = text[text.index(after: close)...]
            guard host.contains(":") else { return nil }
        } else {
            if let colon = text.firstIndex(of: ":") {
                host = text[..<colon]
                rest = text[colon...]
            } else {
                host = text[...]
                rest = ""
            }
        }
        var port: String?
        if !rest.isEmpty {
            guard rest.first == ":" else { return nil }
            let digits = rest.dropFirst()
            guard digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            port = digits.isEmpty ? nil : String(digits)
        }
        if host.hasSuffix(".") { host = host.dropLast() }
        guard !host.isEmpty else { return nil }
        return (String(host), port)
    }

    /// Whether `name` (lowercased, no brackets, no port) is a loopback host: `localhost`
    /// or `*.localhost` (RFC 6761 §6.3), an IPv4 address in 127.0.0.0/8 (RFC 1122
    /// §3.2.1.3) in dotted-decimal form, or an IPv6 address equal to `::1` or the
    /// IPv4-mapped form of a 127.0.0.0/8 address (RFC 4291 §2.5.3, §2.5.5.2).
    public static func isLoopbackName(_ name: String) -> Bool {
        if name == "localhost" || name.hasSuffix(".localhost") { return true }
        var ipv4 = in_addr()
        if inet_pton(AF_INET, name, &ipv4) == 1 {
            return UInt32(bigEndian: ipv4.s_addr) >> 24 == 127
        }
        var ipv6 = in6_addr()
        if inet_pton(AF_INET6, name, &ipv6) == 1 {
            let bytes = withUnsafeBytes(of: &ipv6) { Array($0) }
            if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return true }
            return bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF && bytes[12] == 127
        }
        return false
    }
}
