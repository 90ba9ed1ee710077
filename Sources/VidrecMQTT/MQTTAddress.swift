import VidrecSystem

/// Where `--mqtt` points: `mqtt://host[:port]/prefix` (port 1883) or
/// `mqtts://host[:port]/prefix` (TLS, port 8883). The prefix is the first part of every
/// topic vidrec publishes and reads (`vidrec/garage` gives `vidrec/garage/state`).
/// Credentials never go in the address (it shows in `ps`): they come from a file
/// (``MQTTCredentials``).
public struct MQTTAddress: Sendable, Equatable, CustomStringConvertible {
    /// The broker's host name or numeric address (an IPv6 one without its brackets).
    public var host: String
    public var port: Int32
    /// Whether the connection is TLS (`mqtts://`).
    public var isSecure: Bool
    /// The topics' first levels, without a trailing `/`.
    public var prefix: String

    /// Why an address cannot be used, said to the user.
    public struct Problem: Error, Sendable, Equatable {
        public let reason: String
    }

    /// Reads `text`.
    ///
    /// - Throws: ``Problem`` naming what is wrong and what to give instead.
    public init(_ text: String) throws(Problem) {
        let scheme: Substring
        guard let separator = text.range(of: "://") else {
            throw Problem(reason: "give mqtt://host[:port]/prefix, or mqtts:// for TLS")
        }
        scheme = text[..<separator.lowerBound]
        switch scheme {
        case "mqtt": (isSecure, port) = (false, 1883)
        case "mqtts": (isSecure, port) = (true, 8883)
        default: throw Problem(reason: "the scheme is mqtt:// or mqtts:// (TLS), not \(scheme)://")
        }
        let rest = text[separator.upperBound...]
        let authority = rest.prefix { $0 != "/" }
        if authority.contains("@") {
            throw Problem(reason: "no user name or password in the address (anyone can read a command line); put them in a file for --mqtt-credentials")
        }
        host = String(authority)
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw Problem(reason: "an IPv6 address ends with ]") }
            host = String(authority[authority.index(after: authority.startIndex)..<close])
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty { port = try Self.port(after) }
        } else if let colon = authority.lastIndex(of: ":") {
            host = String(authority[..<colon])
            port = try Self.port(authority[colon...])
        }
        guard !host.isEmpty, host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-._:".contains($0)) }) else {
            throw Problem(reason: "name the broker's host: a host name or a numeric address")
        }
        var path = rest.dropFirst(authority.count).drop { $0 == "/" }
        while path.hasSuffix("/") { path = path.dropLast() }
        prefix = path.isEmpty ? "vidrec" : String(path)
        let levels = prefix.split(separator: "/", omittingEmptySubsequences: false)
        guard prefix.utf8.count <= 200, levels.allSatisfy({ !$0.isEmpty }),
              prefix.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7f && $0 != "+" && $0 != "#" }) else {
            throw Problem(reason: "the prefix is topic levels of printable ASCII without + or #, such as vidrec/garage")
        }
    }

    private static func port(_ text: Substring) throws(Problem) -> Int32 {
        guard text.hasPrefix(":"), let port = Int32(text.dropFirst()), (1...65535).contains(port) else {
            throw Problem(reason: "the port is a number from 1 to 65535")
        }
        return port
    }

    public var description: String {
        (isSecure ? "mqtts://" : "mqtt://") + (host.contains(":") ? "[\(host)]" : host) + ":\(port)/\(prefix)"
    }
}

extension MQTTAddress.Problem: ExitCoded {
    /// A wrong `--mqtt`: the command line's mistake.
    public var exitCode: ExitCode { .usage }
}
