/// Corrects a microphone's clock drift by resampling, as FFmpeg's `aresample=async`
/// does: each chunk comes out ``AudioChunk/stretch`` frames longer or shorter, the
/// change spread smoothly over the chunk, so the sound keeps its shape (no dropped or
/// repeated blocks, no clicks). `VidrecFFmpeg`'s `DriftResampler` is the real one
/// (libswresample's `swr_set_compensation`).
///
/// A resampler holds a few frames back (its filter's delay); what comes out follows
/// what went in, in order, and ``drain()`` returns what is still held.
public protocol AudioStretching: AnyObject {
    /// Resamples `chunk` by its stretch.
    ///
    /// - Returns: the audio that comes out now, in the chunk's format, not stretched
    ///   further (stretch 0).
    func stretch(_ chunk: AudioChunk) throws -> [AudioChunk]

    /// Returns what the resampler still holds, at the end of the recording.
    func drain() throws -> [AudioChunk]
}
