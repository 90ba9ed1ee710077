/// What copies a file to object storage and proves the copy is whole; rclone does it
/// for vidrec (`Rclone` in the command line), a test may stand in.
public protocol Uploading: Sendable {
    /// Copies `file` to `destination` (rclone's `REMOTE:PATH/NAME`), replacing what is there.
    ///
    /// - Throws: ``UploadError`` with the transfer's own reason.
    func copy(_ file: String, to destination: String) throws

    /// Compares the copy at `destination` with `file`: size and a checksum both sides have.
    ///
    /// - Returns: what matched, for the log (`md5 1ef4ea29…`).
    /// - Throws: ``UploadError`` when the copy is missing, differs, or cannot be read.
    func verify(_ file: String, against destination: String) throws -> String
}
