import Testing
import VidrecMedia
import VidrecV4L2

/// How many driver buffers a camera asks for: half a second of frames, bounded.
@Suite struct DriverBufferCountTests {
    @Test(arguments: [
        // (width × height × 2 bytes of YUYV, rate, buffers)
        (640 * 480 * 2, Rational(25, 1), 13),       // vivid's 640x480: half a second
        (640 * 480 * 2, Rational(30, 1), 15),
        (1280 * 720 * 2, Rational(25, 2), 7),       // 12.5 fps, rounded up
        (320 * 240 * 2, Rational(60, 1), 30),
        (320 * 240 * 2, Rational(120, 1), 32),      // never more than ffmpeg's 32
        (640 * 480 * 2, Rational(5, 1), 6),         // never fewer than 6
        (1920 * 1080 * 2, Rational(30, 1), 8),      // 4 MB frames: within 32 MB
        (3840 * 2160 * 2, Rational(30, 1), 6),      // the floor wins over the byte bound
    ])
    func halfASecondOfFramesWithinTheBounds(frameBytes: Int, rate: Rational, expected: Int) {
        #expect(V4L2Camera.driverBufferCount(frameBytes: frameBytes, frameRate: rate) == expected)
    }

    @Test func aDriverThatReportsNoSizeGetsTheTimeBasedCount() {
        #expect(V4L2Camera.driverBufferCount(frameBytes: 0, frameRate: Rational(25, 1)) == 13)
    }
}
