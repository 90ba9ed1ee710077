import VidrecMedia

/// Camera frames for the encoder tests: YUYV ramps that move from frame to frame, so
/// that the encoder has something to predict.
enum TestFrames {
    /// Frame `index` of a `width`x`height` YUYV ramp that moves by `step` a frame, stamped
    /// `frameDuration` nanoseconds apart.
    static func ramp(_ index: Int, width: Int, height: Int, divisor: Int = 2, step: Int = 7,
                     frameDuration: Int64 = 0) -> VideoFrame {
        let bytes = width * height * 2
        let buffer = FrameBuffer(count: bytes)
        let pixels = buffer.bytes.assumingMemoryBound(to: UInt8.self)
        for i in 0..<bytes { pixels[i] = UInt8(truncatingIfNeeded: i / divisor + index * step) }
        return VideoFrame(pixelFormat: .yuyv, width: width, height: height, buffer: buffer, byteCount: bytes,
                          strides: [width * 2], captureTime: Int64(index) * frameDuration, sequence: UInt64(index))
    }
}
