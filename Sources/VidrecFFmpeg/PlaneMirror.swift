/// Flips one plane of a picture left to right, in place: for planar formats with one
/// byte a sample, where reversing each row is the whole flip.
enum PlaneMirror {
    /// Reverses the first `width` bytes of each of `rows` rows, `stride` bytes apart,
    /// from `start`.
    static func flip(_ start: UnsafeMutablePointer<UInt8>, stride: Int, width: Int, rows: Int) {
        for row in 0..<rows {
            var flipped = UnsafeMutableBufferPointer(start: start + row * stride, count: width)
            flipped.reverse()
        }
    }
}
