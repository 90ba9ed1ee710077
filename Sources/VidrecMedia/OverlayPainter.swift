import Glibc
import VidrecSystem

/// Burns a ``TextOverlay`` into pictures: white ``BitmapFont`` glyphs on a black box at
/// the overlay's corner, scaled with the picture (a pixel of the font is a square of
/// ``scale`` pixels: 1 up to 719 rows, 2 at 720p, 3 at 1080p), in a planar 8-bit YUV
/// picture (or greyscale).
///
/// The text changes at most once a second (`strftime` has no finer field), so the box
/// is drawn once for each second and copied into each picture: a few rows of bytes,
/// next to nothing beside the encoding.
public final class OverlayPainter {
    /// How many pixels of the picture a pixel of the font covers.
    public let scale: Int
    private let overlay: TextOverlay
    private let width: Int
    private let height: Int
    private let chromaShift: (x: Int, y: Int)
    private let levels: (black: UInt8, white: UInt8)
    /// The box's luma, row by row, for ``second``.
    private var box: [UInt8] = []
    /// Where ``box`` goes, and its size.
    private var drawnFrame = (x: 0, y: 0, width: 0, height: 0)
    private var second = Int64.min

    /// Creates a painter for `width`x`height` pictures.
    ///
    /// - Parameters:
    ///   - chromaShift: how many bits the chroma planes' width and height are shifted
    ///     (1 and 1 for 4:2:0); ignored for greyscale.
    ///   - fullRange: whether luma runs 0–255 (JPEG) rather than 16–235.
    public init(_ overlay: TextOverlay, width: Int, height: Int, chromaShift: (x: Int, y: Int), fullRange: Bool) {
        self.overlay = overlay
        self.width = width
        self.height = height
        self.chromaShift = chromaShift
        levels = fullRange ? (0, 255) : (16, 235)
        scale = OverlayPainter.scale(forHeight: height)
    }

    /// The font's scale for pictures `height` rows high.
    public static func scale(forHeight height: Int) -> Int { max(1, height / 360) }

    /// The empty space around the text inside the box, and between the box and the
    /// picture's edges, in font pixels.
    public static let padding = 2
    public static let margin = 4

    /// The text for `seconds` since 1970: the template in local time, or the template
    /// itself when `strftime` makes nothing of it.
    public func text(at seconds: Int64) -> String {
        WallClock.localText(overlay.template, seconds: seconds) ?? overlay.template
    }

    /// Where the box for a text of `characters` goes in the picture, and its size, in
    /// pixels (even, for chroma).
    public func boxFrame(characters: Int) -> (x: Int, y: Int, width: Int, height: Int) {
        let (pad, margin) = (Self.padding * scale, Self.margin * scale)
        let boxWidth = min(width - 2 * margin, characters * BitmapFont.width * scale + 2 * pad) & ~1
        let boxHeight = (BitmapFont.height * scale + 2 * pad + 1) & ~1
        let left = overlay.corner == .topLeft || overlay.corner == .bottomLeft
        let top = overlay.corner == .topLeft || overlay.corner == .topRight
        let x = left ? margin : width - margin - boxWidth
        let y = top ? margin : height - margin - boxHeight
        return (x & ~1, y & ~1, max(0, boxWidth), boxHeight)
    }

    /// Draws the box for `seconds` into ``box``: as many characters as fit the picture.
    private func render(_ seconds: Int64) {
        let characters = Array(text(at: seconds).unicodeScalars.filter { $0 != "\n" })
        let fitting = max(0, (width - 2 * Self.margin * scale - 2 * Self.padding * scale) / (BitmapFont.width * scale))
        let shown = characters.prefix(fitting)
        let frame = boxFrame(characters: shown.count)
        drawnFrame = frame
        box = [UInt8](repeating: levels.black, count: frame.width * frame.height)
        let pad = Self.padding * scale
        for (index, character) in shown.enumerated() {
            let rows = BitmapFont.rows(character)
            for (row, bits) in rows.enumerated() where bits != 0 {
                for column in 0..<BitmapFont.width where bits & (0x80 >> column) != 0 {
                    let x = pad + (index * BitmapFont.width + column) * scale, y = pad + row * scale
                    for dy in 0..<scale {
                        let start = (y + dy) * frame.width + x
                        box.replaceSubrange(start..<(start + scale), with: repeatElement(levels.white, count: scale))
                    }
                }
            }
        }
    }

    /// Burns the text for `wallTime` (nanoseconds since 1970) into the picture whose
    /// planes start at `planes` (luma, then the two chroma planes unless greyscale),
    /// `strides` bytes a row.
    public func paint(planes: [UnsafeMutablePointer<UInt8>?], strides: [Int], wallTime: Int64) {
        let seconds = wallTime / 1_000_000_000
        if seconds != second {
            second = seconds
            render(seconds)
        }
        let frame = drawnFrame
        guard frame.width > 0, let luma = planes.first ?? nil else { return }
        box.withUnsafeBufferPointer { rows in
            for row in 0..<frame.height {
                memcpy(luma + (frame.y + row) * strides[0] + frame.x, rows.baseAddress! + row * frame.width, frame.width)
            }
        }
        // Neutral chroma over the box: black and white, not tinted by the picture.
        for plane in 1..<max(1, min(3, planes.count)) {
            guard let chroma = planes[plane] else { continue }
            let left = frame.x >> chromaShift.x, right = (frame.x + frame.width - 1) >> chromaShift.x
            let top = frame.y >> chromaShift.y, bottom = (frame.y + frame.height - 1) >> chromaShift.y
            for row in top...bottom { memset(chroma + row * strides[plane] + left, 128, right - left + 1) }
        }
    }
}
