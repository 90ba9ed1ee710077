/// Turns a camera frame into a still photo's bytes (a JPEG), for `vidrec snap` and the
/// photo output beside a running recording. The FFmpeg layer gives the real one.
public protocol PhotoEncoding: AnyObject {
    /// Encodes `frame`, `width` pixels wide keeping the aspect ratio (`nil`: the frame's
    /// own size).
    func jpeg(of frame: VideoFrame, width: Int?) throws -> EncodedPhoto
}
