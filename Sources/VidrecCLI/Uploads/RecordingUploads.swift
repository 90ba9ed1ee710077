import VidrecCore
import VidrecSystem

/// `--upload` on `vidrec start`: each file the recording saves is queued durably and
/// uploaded on the `vidrec.upload` thread while recording goes on; once the recording
/// has ended, what is queued gets a few more tries, and what is left stays queued for
/// `vidrec upload` or the next `vidrec start --upload` (exit 75, said even with
/// `--quiet`).
final class RecordingUploads: FollowUp {
    private let runner: UploadRunner
    private let options: UploadOptions
    private let failure: @Sendable (String) -> Void

    /// Checks the remote and starts uploading (jobs queued earlier go too, when due).
    ///
    /// - Parameters:
    ///   - log: where each upload's steps are told (quiet with `--quiet`).
    ///   - failure: where a failure is told (also with `--quiet`).
    /// - Throws: ``CLIError`` when rclone or the remote is missing, or the remote is
    ///   the album itself; nothing is recorded then.
    init(_ options: UploadOptions, context: CommandContext, album: String, log: @escaping @Sendable (String) -> Void,
         failure: @escaping @Sendable (String) -> Void) throws {
        let rclone = try options.check(environment: context.paths.environment, album: album)
        runner = UploadRunner(stateDirectory: context.paths.stateDirectory, rclone: rclone, manifest: context.manifest, log: log)
        self.options = options
        self.failure = failure
        runner.start()
    }

    func saved(_ file: SavedFile) {
        do {
            try runner.enqueue(file.path, album: file.album, options: options)
        } catch {
            failure("vidrec: \(file.path) is saved, but its upload could not be queued (\(error)); upload it by hand with rclone\n")
        }
    }

    var isFinishing: Bool { runner.isFinishing }

    func interrupt() -> String {
        runner.stop()
        return "stopping the uploads; what is not uploaded stays queued for 'vidrec upload'"
    }

    func finish() -> String? { UploadRunner.leftover(runner.finish()) }

    func abandon() {
        runner.stop()
        _ = runner.finish()
    }
}
