/// Whether the movie stores the camera's own compressed stream or encodes its pictures
/// (a preset's `video.handling`, `--video`).
public enum VideoHandling: String, Sendable, CaseIterable {
    /// Copies when the camera sends the preset's codec (H.264, or Motion JPEG for a
    /// preset whose codec is `mjpeg`) at the preset's size and rate, and nothing asks
    /// for the pictures to change (`--mirror`, a fit, segments); encodes otherwise.
    case auto
    /// Always stores the camera's compressed stream; an error when it cannot be.
    case copy
    /// Always decodes and encodes, as the preset says.
    case encode
}
