import Foundation
import Glibc
import VidrecSystem

/// The user name and password for the broker, and for TLS the certificate authority to
/// trust, read from a file only its owner can read (`--mqtt-credentials`), never from
/// the command line, where every user of the machine can read them:
///
///     username=camera
///     password=secret
///     ca=/etc/ssl/certs/home-ca.pem
///
/// Blank lines and lines starting with `#` are skipped; each value runs to the end of
/// its line.
public struct MQTTCredentials: Sendable, Equatable {
    public var username: String?
    public var password: String?
    /// A PEM file of the authorities to trust (`mqtts://`); the system's otherwise.
    public var certificateAuthority: String?

    public init(username: String? = nil, password: String? = nil, certificateAuthority: String? = nil) {
        self.username = username
        self.password = password
        self.certificateAuthority = certificateAuthority
    }

    /// Why a credentials file cannot be used, said to the user.
    public struct Problem: Error, Sendable, Equatable {
        public let reason: String
    }

    /// Reads `path`, which must be a regular file that neither its group nor others can
    /// read or write (0600 or 0400).
    ///
    /// - Throws: ``Problem`` naming the file, what is wrong and the fix.
    public static func load(_ path: String) throws(Problem) -> MQTTCredentials {
        var status = stat()
        do {
            try systemCall(.stat, path) { stat(path, &status) }
        } catch {
            throw Problem(reason: "cannot read \(path): \(error.reason); give the file with username= and password= lines")
        }
        guard status.st_mode & S_IFMT == S_IFREG else { throw Problem(reason: "\(path) is not a regular file") }
        guard status.st_mode & 0o077 == 0 else {
            throw Problem(reason: String(format: "%@ can be read by others (mode %03o); make it the owner's alone: chmod 600 %@",
                                         path, Int(status.st_mode & 0o777), path))
        }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw Problem(reason: "cannot read \(path) as UTF-8 text")
        }
        return try parse(text, file: path)
    }

    /// Reads the lines of a credentials file; `file` names it in errors.
    public static func parse(_ text: String, file: String) throws(Problem) -> MQTTCredentials {
        var credentials = MQTTCredentials()
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = line.hasSuffix("\r") ? line.dropLast() : line
            if line.allSatisfy(\.isWhitespace) || line.first == "#" { continue }
            guard let equals = line.firstIndex(of: "=") else {
                throw Problem(reason: "\(file) line \(number + 1): give key=value (username, password or ca)")
            }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            let value = String(line[line.index(after: equals)...])
            switch key {
            case "username": credentials.username = value
            case "password": credentials.password = value
            case "ca": credentials.certificateAuthority = value.trimmingCharacters(in: .whitespaces)
            default: throw Problem(reason: "\(file) line \(number + 1): unknown key '\(key)'; the keys are username, password and ca")
            }
        }
        if credentials.password != nil, credentials.username == nil {
            throw Problem(reason: "\(file) has a password but no username= line")
        }
        return credentials
    }
}

extension MQTTCredentials.Problem: ExitCoded {
    /// A file that cannot be used as it is.
    public var exitCode: ExitCode { .noInput }
}
