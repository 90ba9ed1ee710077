import Foundation
import Testing
import VidrecMedia
import VidrecSystem

/// `--overlay`: a line of text burned into the picture, read back from the pictures by
/// comparing each cell of the box with every glyph of the built-in font (no OCR: the
/// font is the program's own).
@Suite struct OverlayEndToEndTests {
    /// The text in the overlay box at `corner`'s left side (top-left or bottom-left),
    /// `count` characters, read from a `width`x`height` grey picture (0 black, 255
    /// white): each cell's font pixels, sampled at their centres, matched with the glyph
    /// that differs from them in the fewest pixels.
    static func read(_ grey: [UInt8], width: Int, height: Int, top: Bool, count: Int) -> String {
        let scale = max(1, height / 360)
        let boxHeight = (BitmapFont.height * scale + 2 * OverlayPainter.padding * scale + 1) & ~1
        let boxY = (top ? OverlayPainter.margin * scale : height - OverlayPainter.margin * scale - boxHeight) & ~1
        let (left, upper) = ((OverlayPainter.margin + OverlayPainter.padding) * scale, boxY + OverlayPainter.padding * scale)
        var text = ""
        for cell in 0..<count {
            let seen = (0..<BitmapFont.height).map { row -> UInt8 in
                (0..<BitmapFont.width).reduce(UInt8(0)) { bits, column in
                    let x = left + (cell * BitmapFont.width + column) * scale + scale / 2, y = upper + row * scale + scale / 2
                    return grey[y * width + x] > 128 ? bits | (0x80 >> column) : bits
                }
            }
            let best = BitmapFont.characters.compactMap(Unicode.Scalar.init).min { a, b in
                distance(BitmapFont.rows(a), seen) < distance(BitmapFont.rows(b), seen)
            }
            text.unicodeScalars.append(best ?? "?")
        }
        return text
    }

    static func distance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        zip(a, b).reduce(0) { $0 + ($1.0 ^ $1.1).nonzeroBitCount }
    }

    /// A picture of `width`x`height`, luma 100 and chroma 50, with `template` painted on.
    static func painted(_ template: String, corner: TextOverlay.Corner = .topLeft, width: Int = 640, height: Int = 360,
                        at seconds: Int64 = 0) -> (luma: [UInt8], chroma: [UInt8]) {
        var luma = [UInt8](repeating: 100, count: width * height)
        var chroma = [UInt8](repeating: 50, count: width * height / 4)
        let painter = OverlayPainter(TextOverlay(template: template, corner: corner), width: width, height: height,
                                     chromaShift: (1, 1), fullRange: true)
        luma.withUnsafeMutableBufferPointer { y in
            chroma.withUnsafeMutableBufferPointer { c in
                painter.paint(planes: [y.baseAddress, c.baseAddress, nil], strides: [width, width / 2, 0], wallTime: seconds * 1_000_000_000)
            }
        }
        return (luma, chroma)
    }

    @Test func theTextIsEachGlyphWhiteOnABlackBoxWithNeutralChromaAndNothingElseChanges() {
        let text = "Az09 :-/%"
        let (luma, chroma) = Self.painted("Az09 :-/%%")
        #expect(Self.read(luma, width: 640, height: 360, top: true, count: text.count) == text)
        // The box: 4 pixels from the edges, 2 around the text, every pixel black or white.
        let (boxWidth, boxHeight) = (text.count * 8 + 4, 16 + 4)
        for y in 0..<360 {
            for x in 0..<640 {
                let inside = x >= 4 && x < 4 + boxWidth && y >= 4 && y < 4 + boxHeight
                let value = luma[y * 640 + x]
                if inside != (value != 100) || (inside && value != 0 && value != 255) {
                    Issue.record("pixel \(x),\(y) is \(value)")
                    return
                }
            }
        }
        // Its chroma, at half the size, 128; no other.
        var tinted: [Int] = []
        for index in chroma.indices where chroma[index] != 50 { tinted.append(index) }
        var box: [Int] = []
        for y in 2..<(2 + boxHeight / 2) { for x in 2..<(2 + boxWidth / 2) { box.append(y * 320 + x) } }
        #expect(tinted == box && tinted.allSatisfy { chroma[$0] == 128 }, "\(tinted.count) tinted")
    }

    @Test func eachCornerHoldsTheBoxAndALongTextIsCutWhereThePictureEnds() {
        for corner in TextOverlay.Corner.allCases {
            let (luma, _) = Self.painted("12:34", corner: corner, width: 1280, height: 720)
            let changed = luma.indices.filter { luma[$0] != 100 }
            let xs = changed.map { $0 % 1280 }, ys = changed.map { $0 / 1280 }
            let left = corner == .topLeft || corner == .bottomLeft, top = corner == .topLeft || corner == .topRight
            // At 720p a font pixel is 2x2: the box is 8 from the edges, 4 around the text
            // of 5 characters (88 pixels wide, 40 high).
            let x: Int = left ? 8 : 1280 - 8 - 88, y: Int = top ? 8 : 720 - 8 - 40
            #expect(xs.min() == x && xs.max() == x + 87 && ys.min() == y && ys.max() == y + 39, "\(corner)")
        }
        let long = String(repeating: "W", count: 200)
        let (luma, _) = Self.painted(long, width: 160, height: 120)
        let columns = Set(luma.indices.filter { luma[$0] != 100 }.map { $0 % 160 })
        #expect(columns == Set(4..<(4 + 18 * 8 + 4)), "18 characters fit 160 pixels: \(columns.min() ?? -1)–\(columns.max() ?? -1)")
        #expect(Self.read(luma, width: 160, height: 120, top: true, count: 18) == String(repeating: "W", count: 18))
    }

    @Test func theTimeIsTheWallClocksInLocalTimeAndChangesWithTheSecond() throws {
        let seconds: Int64 = 1_796_083_815
        let expected = DateFormatter()
        expected.dateFormat = "yyyy-MM-dd HH:mm:ss"
        expected.timeZone = TimeZone.current
        for second in [seconds, seconds + 1] {
            let (luma, _) = Self.painted("%F %T", at: second)
            #expect(Self.read(luma, width: 640, height: 360, top: true, count: 19)
                        == expected.string(from: Date(timeIntervalSince1970: TimeInterval(second))))
        }
    }

    /// Recorded from the test camera, as YUYV (scaled) and as Motion JPEG (passed on
    /// at the movie's size without the scaler), the first and last pictures carry their
    /// own capture times in the time zone of `TZ` (here UTC+3, written `XYZ-3`) and
    /// the camera's name; the first is the sidecar's start time, to the second.
    @Test(arguments: ["test", "test:mjpeg"])
    func everyPictureCarriesItsCaptureTimeInLocalTimeAndTheCamerasName(camera: String) throws {
        let home = try Home()
        let result = try VidrecProcess.run(["start", "--camera", camera, "--mic", "test", "--quality", "low", "--max", "2",
                                            "--overlay", "%F %T %z {camera}", "--overlay-corner", "bottom-left"],
                                           home: home.path, environment: ["TZ": "XYZ-3"])
        #expect(result.code == 0, "\(result.err)")
        let file = try #require(home.files(in: home.pending, ending: ".mp4").first, "\(result.err)")
        let name = camera == "test" ? "test pattern" : "test pattern (MJPEG)"
        let start = try #require(try home.sidecar()["startTime"] as? String)
        let parse = ISO8601DateFormatter()
        let started = try #require(parse.date(from: start), "\(start)").addingTimeInterval(3 * 3600)
        let local = DateFormatter()
        local.dateFormat = "yyyy-MM-dd HH:mm:ss"
        local.timeZone = TimeZone(identifier: "UTC")
        var seen: [Date] = []
        for index in [0, 29] {
            let text = Self.read(try Probe.greyFrame(file, index: index), width: 640, height: 360, top: false, count: 26 + name.count)
            #expect(text.hasSuffix(" +0300 " + name), "picture \(index): \(text)")
            seen.append(try #require(local.date(from: String(text.prefix(19))), "picture \(index): \(text)"))
        }
        #expect(abs(seen[0].timeIntervalSince(started)) <= 1, "the first picture at \(seen[0]), the recording started \(started)")
        let last = seen[1].timeIntervalSince(seen[0])
        #expect(last >= 1 && last <= 3, "the last picture \(last) s after the first")
    }
}
