/// Makes a movie's poster frame: a small JPEG of one picture from it, for the album's
/// `.thumbnails` folder. ``VidrecFFmpeg``'s `PosterFrame` is the real one.
public protocol PosterFrameMaking: Sendable {
    /// A JPEG at most `width` pixels wide of the picture about a second into `movie`
    /// (the last one of a shorter movie); `nil` for a file without video (a sound
    /// recording), which has no picture to show.
    func posterFrame(of movie: String, width: Int) throws -> [UInt8]?
}
