/// What the upload queue reports as it works, for the log.
public enum UploadEvent: Sendable {
    /// An attempt began.
    case uploading(UploadJob)
    /// The copy was made and verified (`proof`: the checksum that matched); with
    /// `--upload-move` the local file is gone.
    case uploaded(UploadJob, proof: String)
    /// An attempt failed; the job stays queued. `retryIn`: seconds until this process
    /// tries again, `nil` when it will not (the next `vidrec upload` will).
    case failed(UploadJob, reason: String, retryIn: Double?)
    /// The file to upload is gone (removed by hand); the job was dropped.
    case dropped(UploadJob)
}
