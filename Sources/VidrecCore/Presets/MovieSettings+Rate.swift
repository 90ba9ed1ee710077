import VidrecMedia

extension MovieSettings {
    /// A generous guess of the bytes per second these settings produce, for the size
    /// limit's margin until the real rate has been seen: the bit-rate caps, or, for a
    /// quality-based (CRF) video encoding, ``crfBitsPerPixel`` of the picture per frame.
    public var nominalBytesPerSecond: Int64 {
        let guess = Double(video.width * video.height) * video.frameRate.doubleValue * MovieSettings.crfBitsPerPixel
        let videoBits = video.crf == nil ? Double(video.bitRate ?? 0) : min(guess, Double(video.bitRate ?? Int.max))
        return Int64((videoBits + Double(audio?.bitRate ?? 0)) / 8)
    }

    /// Bits per pixel per frame assumed for a CRF encoding before its real rate is seen.
    public static let crfBitsPerPixel = 0.05
}
