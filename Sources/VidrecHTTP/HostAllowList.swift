import Foundation
import Glibc

/// The names a request's `Host` header may carry, against DNS rebinding: a page of
/// another site whose name was made to point at this machine sends its own name, and is
/// refused before any route sees it.
///
/// Allowed are this machine's loopback names (`127.0.0.1` and the rest of 127/8,
/// `localhost`, `[::1]`), the address listened on, and the names given. A server that
/// listens on every address (`0.0.0.0`, `::`) also allows every numeric address: such a
/// request reached one of this machine's own addresses by number, which no other site's
/// name can make a browser send. The port is not compared (a proxy may forward from
/// another).
public struct HostAllowList: Sendable, Equatable {
    /// The names allowed beside the loopback ones, lower case, without brackets.
    public let names: Set<String>
    /// Whether every numeric address is allowed (the server listens on every address).
    public let allowsEveryAddress: Bool

    /// The list for a server listening on `listenAddress`, with `extraNames` (host names
    /// or addresses, as `--allow-host` gives them).
    public init(listenAddress: String, extraNames: [String] = []) {
        let listen = HostAllowList.normalized(listenAddress)
        allowsEveryAddress = listen == "0.0.0.0" || listen == "::"
        names = Set(["localhost", "::1", listen] + extraNames.map(HostAllowList.normalized))
    }

    /// Whether a request with this `Host` header (nil: none) may be answered.
    public func permits(_ header: String?) -> Bool {
        guard let header, let host = HostAllowList.host(ofHeader: header) else { return false }
        if names.contains(host) || host.hasSuffix(".localhost") { return true }
        if HostAllowList.isNumeric(host, family: AF_INET) {
            return host.hasPrefix("127.") || allowsEveryAddress
        }
        return allowsEveryAddress && HostAllowList.isNumeric(host, family: AF_INET6)
    }

    /// Whether `name` is a host name or address a `--allow-host` may give: letters,
    /// digits, `-`, `.` and, for an IPv6 address, `:` (brackets allowed).
    public static func isValidName(_ name: String) -> Bool {
        let bare = normalized(name)
        guard !bare.isEmpty, bare.utf8.count <= 253 else { return false }
        if isNumeric(bare, family: AF_INET6) { return true }
        return bare.utf8.allSatisfy { byte in
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
    }

    /// The host of a `Host` header (`name`, `name:port`, `[v6]`, `[v6]:port`),
    /// normalized; nil for one that is malformed.
    static func host(ofHeader header: String) -> String? {
        let text = header.trimmingCharacters(in: .whitespaces)
        var host: Substring, port: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.isEmpty || rest.hasPrefix(":") else { return nil }
            port = rest.isEmpty ? nil : rest.dropFirst()
            guard isNumeric(String(host), family: AF_INET6) else { return nil }
        } else {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2 else { return nil }
            host = parts[0]
            port = parts.count == 2 ? parts[1] : nil
        }
        if let port, port.isEmpty || port.count > 5 || !port.allSatisfy({ $0.isASCII && $0.isNumber }) { return nil }
        let name = normalized(String(host))
        return name.isEmpty ? nil : name
    }

    /// Lower case, without IPv6 brackets or a trailing dot.
    static func normalized(_ name: String) -> String {
        var text = name.lowercased()
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// Whether `text` is a numeric address of `family` (`AF_INET`, `AF_INET6`). The
    /// corresponding C function is `inet_pton`.
    static func isNumeric(_ text: String, family: Int32) -> Bool {
        var buffer = in6_addr()
        return inet_pton(family, text, &buffer) == 1
    }
}
