/// Turns a camera frame into a still photo's bytes (a JPEG), for `vidrec snap` and the
/// photo output beside a running recording. The FFmpeg layer gives the real one.
public protocol PhotoEncoding: AnyObject {
    /// Encodes `frame`, `width` pixels wide keeping the aspect ratio (`nil`: the frame's
    /// own size).
    func jpeg(of frame: VideoFrame, width: Int?) throws -> EncodedPhoto

    /// Sees every frame the photo output gets, in order, before any photo of it is
    /// asked for: an encoder that decodes H.264 keeps what it needs to decode the next
    /// picture. The default does nothing.
    func observe(_ frame: VideoFrame)
}

extension PhotoEncoding {
    public func observe(_ frame: VideoFrame) {}
}
