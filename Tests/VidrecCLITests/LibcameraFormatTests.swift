import Testing
import VidrecLibcamera
import VidrecMedia

/// libcamera names formats by their DRM fourcc, whose packed RGB words read the other
/// way round from V4L2's: what vidrec reads from a libcamera camera must be what it is.
@Suite struct LibcameraFormatTests {
    static func fourcc(_ text: String) -> UInt32 { text.utf8.reversed().reduce(0) { $0 << 8 | UInt32($1) } }

    @Test(arguments: [("YUYV", PixelFormat.yuyv), ("UYVY", .uyvy), ("NV12", .nv12), ("YU12", .yu12), ("YV12", .yv12),
                      ("RG24", .bgr24), ("BG24", .rgb24), ("MJPG", .mjpeg)])
    func eachReadableFormatMapsBothWays(drm: String, format: PixelFormat) {
        #expect(LibcameraFormat.pixelFormat(drm: Self.fourcc(drm)) == format)
        #expect(LibcameraFormat.drm(format) == Self.fourcc(drm))
        #expect(LibcameraFormat.text(Self.fourcc(drm)) == drm)
    }

    /// Raw Bayer (a sensor's own output), which libcamera's simple pipeline can pass on,
    /// is not read.
    @Test func rawBayerIsNotRead() {
        #expect(LibcameraFormat.pixelFormat(drm: Self.fourcc("RGGB")) == nil)
        #expect(LibcameraFormat.pixelFormat(drm: Self.fourcc("pRAA")) == nil)
        #expect(LibcameraFormat.drm(.h264) == nil)
    }
}
