import Foundation
import VidrecCore
import VidrecMedia
import VidrecSystem

/// `--upload REMOTE:PATH` and `--upload-move`, shared by `vidrec start` and `vidrec save`.
struct UploadOptions {
    /// The arguments, each declared once and read back through its key.
    enum Key {
        static let upload = ArgumentKey.option("upload", value: "remote:path", help: "Also copy each saved file to object storage with rclone: a remote from 'rclone config' (s3:bucket/videos), an on-the-fly one (:s3,provider=AWS,env_auth=true:bucket/videos) or a folder. Queued durably, retried with back-off, verified by checksum.")
        static let uploadMove = ArgumentKey.flag("upload-move", help: "With --upload: remove the local copy once the uploaded one is verified.")
    }

    /// The options' help.
    static let arguments: [ArgumentSpec] = [
        Key.upload.spec,
        Key.uploadMove.spec,
    ]

    /// Where the files go, in rclone's syntax.
    var remote: String
    /// `--upload-move`.
    var move: Bool

    /// Parses the options; `nil` without `--upload`.
    static func parse(_ arguments: ParsedArguments) throws(ParserError) -> UploadOptions? {
        let move = arguments[Key.uploadMove]
        guard let remote = arguments[Key.upload] else {
            if move { throw .conflicting("--upload-move", "no --upload; add --upload REMOTE:PATH") }
            return nil
        }
        guard !TextSafety.hasControlCharacters(remote) else {
            throw .invalidValue(RcloneRemote.redact(remote), for: "--upload <remote:path>", reason: "it holds a control character (a newline, tab or escape); remove it")
        }
        do {
            _ = try RcloneRemote(checking: remote)
        } catch {
            throw .invalidValue(RcloneRemote.redact(remote), for: "--upload <remote:path>", reason: error.description)
        }
        return UploadOptions(remote: remote, move: move)
    }

    /// The configured remote's name (`s3` of `s3:bucket`), `nil` for a folder or an
    /// on-the-fly remote.
    var configuredRemote: String? { RcloneRemote(parsing: remote)?.name }

    /// Finds rclone and checks the remote before anything is recorded, so that a
    /// misspelt remote fails at once, not after an hour of recording; a folder that is
    /// `album` itself is refused (the copy would be the file, and `--upload-move` would
    /// remove the only one).
    ///
    /// - Throws: ``CLIError``: rclone is missing (69), has no such remote (64), or the
    ///   destination is the album (64).
    func check(environment: [String: String], album: String) throws -> Rclone {
        if let folder = RcloneRemote(parsing: remote)?.localFolder, FileSystem.sameFolder(folder, album) {
            throw CLIError("--upload \(RcloneRemote.redact(remote)) is the album itself, so the upload would copy each file onto itself\(move ? " and --upload-move would remove it" : ""); upload to another folder or a remote", .usage)
        }
        guard let rclone = Rclone(environment: environment) else {
            throw CLIError("rclone is not installed, and --upload needs it: install it with 'apt-get install rclone', or drop --upload", .unavailable)
        }
        if let name = configuredRemote {
            let remotes = try rclone.remotes()
            guard remotes.contains(name) else {
                let have = remotes.isEmpty ? "none" : remotes.joined(separator: ", ")
                throw CLIError("rclone has no remote named '\(name)' (it has: \(have)); set one up with 'rclone config', or name one on the fly, such as ':s3,provider=AWS,env_auth=true:bucket/path'", .usage)
            }
        }
        return rclone
    }
}
