import Foundation
import Glibc
import VidrecCore
import VidrecSystem

/// The secret a browser shows to `vidrec serve`, as Jupyter's token: 32 random hex
/// digits, made once and kept in a file only its owner can read (0600), so that a
/// bookmarked address keeps working across restarts. Deleting the file makes a new one
/// at the next start (and so shuts out every browser that had the old one).
struct ServeToken: Sendable, Equatable {
    /// The token.
    let value: String
    /// The file it is kept in.
    let path: String

    /// The token kept at `path`, made (from the kernel's random source) when there is
    /// none or it is not a token, or when `renewing` (`--new-token`).
    ///
    /// - Throws: ``CLIError`` when the file cannot be read or made, or others may read it.
    static func load(from path: String, renewing: Bool = false) throws -> ServeToken {
        if !renewing, let text = try? String(contentsOfFile: path, encoding: .utf8) {
            let status: stat
            do throws(SystemError) {
                guard let found = try FileSystem.status(path) else { throw SystemError("stat", path, errno: ENOENT) }
                status = found
            } catch {
                throw CLIError("cannot read the serve token \(path): \(error.reason)", .ioError)
            }
            guard status.st_mode & 0o077 == 0 else {
                throw CLIError("the serve token \(path) can be read by others (mode \(String(status.st_mode & 0o777, radix: 8))); run 'chmod 600 \(path)', or delete it to have a new one made", .failure)
            }
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if isWellFormed(value) { return ServeToken(value: value, path: path) }
        }
        // The standard library's generator reads the kernel's (getrandom).
        var random = SystemRandomNumberGenerator()
        let bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &random) }
        let value = bytes.map { String(format: "%02x", $0) }.joined()
        do {
            try PrivateFolder.prepare((path as NSString).deletingLastPathComponent)
            try AtomicFile.write(Data((value + "\n").utf8), to: path, durable: true)
            try FileSystem.changeMode(path, to: 0o600)
        } catch {
            throw CLIError("cannot keep the serve token in \(path): \(error)", .cannotCreate)
        }
        return ServeToken(value: value, path: path)
    }

    /// Whether `text` is shaped as a token (32 lowercase hex digits).
    static func isWellFormed(_ text: String) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// Whether `given` is the token, compared in constant time (a wrong guess takes as
    /// long whatever it shares with the token).
    func matches(_ given: String?) -> Bool {
        given.map { ServeToken.equal($0, value) } ?? false
    }

    /// Whether two secrets are equal, compared in constant time for their length.
    static func equal(_ given: String, _ expected: String) -> Bool {
        let (a, b) = (Array(expected.utf8), Array(given.utf8))
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
