import VidrecMedia

/// Draws the test camera's YUYV frames: colour bars that scroll two pixels per frame,
/// a six-digit frame counter and a binary frame-number strip.
struct TestPatternPainter: Sendable {
    let width: Int
    let height: Int
    /// One row of bars, twice over, so a scrolled row is a single copy.
    private let barsTwice: [UInt8]
    private let digitScale: Int
    /// The frames' blocks, used again once the encoder has converted a frame.
    private let pool: FrameBufferPool

    /// BT.601 limited-range Y, U, V of white, yellow, cyan, green, magenta, red, blue, black.
    private static let bars: [(UInt8, UInt8, UInt8)] = [
        (235, 128, 128), (210, 16, 146), (170, 166, 16), (145, 54, 34),
        (106, 202, 222), (81, 90, 240), (41, 240, 110), (16, 128, 128),
    ]

    /// 5×7 digits, one row per byte, bit 4 is the leftmost column.
    private static let font: [[UInt8]] = [
        [0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E], [0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E],
        [0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F], [0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E],
        [0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02], [0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E],
        [0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E], [0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08],
        [0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E], [0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C],
    ]

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        digitScale = max(2, height / 60)
        var row = [UInt8](repeating: 0, count: width * 2)
        for pair in 0..<(width / 2) {
            let (y, u, v) = TestPatternPainter.bars[pair * 2 * 8 / width]
            row.replaceSubrange(pair * 4..<pair * 4 + 4, with: [y, u, y, v])
        }
        barsTwice = row + row
        pool = FrameBufferPool(blockSize: width * 2 * height, keep: 8)
    }

    /// Paints frame `frameNumber` into a buffer of `width × height × 2` bytes (every
    /// byte of it: the block may hold an earlier frame).
    func paint(frameNumber: UInt64) -> FrameBuffer {
        let stride = width * 2
        let buffer = pool.buffer(count: stride * height)
        let pixels = buffer.bytes.assumingMemoryBound(to: UInt8.self)
        let shift = Int(frameNumber % UInt64(width / 2)) * 4
        barsTwice.withUnsafeBufferPointer { bars in
            for y in 0..<height {
                (pixels + y * stride).update(from: bars.baseAddress! + shift, count: stride)
            }
        }
        drawCounter(frameNumber, into: pixels, stride: stride)
        drawStrip(frameNumber, into: pixels, stride: stride)
        return buffer
    }

    private func fill(_ pixels: UnsafeMutablePointer<UInt8>, stride: Int, x: Int, y: Int, w: Int, h: Int, luma: UInt8) {
        let x0 = max(0, x) & ~1, x1 = min(width, x + w), y1 = min(height, y + h)
        guard x0 < x1 else { return }
        for row in max(0, y)..<max(max(0, y), y1) {
            var p = pixels + row * stride + x0 * 2
            for _ in Swift.stride(from: x0, to: x1, by: 2) {
                p[0] = luma; p[1] = 128; p[2] = luma; p[3] = 128
                p += 4
            }
        }
    }

    private func drawCounter(_ number: UInt64, into pixels: UnsafeMutablePointer<UInt8>, stride: Int) {
        let s = digitScale
        let digits = Array(String(format: "%06llu", number % 1_000_000)).map { Int(String($0))! }
        fill(pixels, stride: stride, x: s * 2, y: s * 2, w: s * (6 * 6 + 2), h: s * 10, luma: 16)
        for (position, digit) in digits.enumerated() {
            for (row, bits) in TestPatternPainter.font[digit].enumerated() {
                for column in 0..<5 where bits & (0x10 >> column) != 0 {
                    fill(pixels, stride: stride, x: s * 3 + (position * 6 + column) * s,
                         y: s * 3 + row * s, w: s, h: s, luma: 235)
                }
            }
        }
    }

    private func drawStrip(_ number: UInt64, into pixels: UnsafeMutablePointer<UInt8>, stride: Int) {
        let blockHeight = max(8, height / 16)
        let blockWidth = width / 16
        for bit in 0..<16 {
            let on = (number >> UInt64(15 - bit)) & 1 == 1
            fill(pixels, stride: stride, x: bit * blockWidth, y: height - blockHeight, w: blockWidth,
                 h: blockHeight, luma: on ? 235 : 16)
        }
    }
}
