import Foundation
import Testing

extension EndToEndTests {
    /// `--rotate` (the display matrix, as FFmpeg's own tools apply it) and `--mirror`
    /// (the pictures themselves), on the test camera's picture: colour bars, white
    /// at the left and black at the right, moving one step a frame.
    @Suite struct OrientationEndToEndTests {
        static let start = ["start", "--camera", "test", "--mic", "test", "--quality", "low", "--save"]
        static let white = [235, 235, 235], black = [16, 16, 16]

        @Test(arguments: [90, 180, 270])
        func rotationIsWrittenForPlayersAndThePosterFrameIsUpright(degrees: Int) throws {
            let home = try Home()
            let result = try VidrecProcess.run(Self.start + ["--max", "2", "--rotate", "\(degrees)", "--as", "turned"], home: home.path)
            #expect(result.code == 0, "\(result.err)")
            let movie = home.album + "/turned.mp4"
            // ffprobe states a clockwise turn as a negative rotation, as for a phone's video.
            let info = try Probe.json(["-select_streams", "v", "-show_entries", "stream_side_data=rotation", movie])
            let sideData = ((info["streams"] as? [[String: Any]])?.first?["side_data_list"] as? [[String: Any]])?.first
            let rotation = sideData?["rotation"] as? Int
            #expect(rotation.map { (($0 % 360) + 360) % 360 } == (360 - degrees) % 360, "\(String(describing: sideData))")
            // The pictures are stored as taken: no re-encode for the turn.
            let stored = try #require(try Probe.streams(movie).first)
            #expect(stored.width == 640 && stored.height == 360)

            // ffmpeg turns the picture as a player would: clockwise by the degrees asked.
            let sideways = degrees != 180
            let (width, height) = sideways ? (360, 640) : (640, 360)
            let asStored = try Self.picture(movie, at: 0, width: 640, height: 360, autorotate: false)
            let shown = try Self.picture(movie, at: 0, width: width, height: height, autorotate: true)
            #expect(Self.difference(shown, Self.turned(asStored, width: 640, height: 360, clockwise: degrees)) < 2)
            #expect(Self.difference(shown, Self.turned(asStored, width: 640, height: 360, clockwise: (degrees + 180) % 360)) > 20)

            // The poster frame is upright too: the movie's picture a second in, as shown.
            let (thumbWidth, thumbHeight) = sideways ? (180, 320) : (320, 180)
            let poster = try Self.picture(home.album + "/.thumbnails/turned.mp4.jpg", at: nil, width: thumbWidth, height: thumbHeight, autorotate: true)
            let second = try Self.picture(movie, at: 1, width: thumbWidth, height: thumbHeight, autorotate: true)
            let wrong = Self.turned(second, width: thumbWidth, height: thumbHeight, clockwise: 180)
            #expect(Self.difference(poster, second) < 12, "\(Self.difference(poster, second))")
            #expect(Self.difference(poster, wrong) > 20, "\(Self.difference(poster, wrong))")
        }

        /// One picture of `file` (at `seconds`, or the first) as RGB at `width`x`height`,
        /// decoded by ffmpeg, turned by the display matrix or not.
        static func picture(_ file: String, at seconds: Double?, width: Int, height: Int, autorotate: Bool) throws -> [UInt8] {
            var arguments = ["-nostdin", "-v", "error"] + (autorotate ? [] : ["-noautorotate"])
            if let seconds { arguments += ["-ss", "\(seconds)"] }
            arguments += ["-i", file, "-map", "0:v:0", "-frames:v", "1", "-vf", "scale=\(width):\(height)",
                          "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]
            let rgb = Array(try Probe.tool("ffmpeg", arguments))
            try #require(rgb.count == width * height * 3, "\(file): \(rgb.count) bytes")
            return rgb
        }

        /// `rgb` (`width`x`height`) turned clockwise by 0, 90, 180 or 270 degrees.
        static func turned(_ rgb: [UInt8], width: Int, height: Int, clockwise degrees: Int) -> [UInt8] {
            guard degrees != 0 else { return rgb }
            var out = [UInt8](repeating: 0, count: rgb.count)
            let outWidth = degrees == 180 ? width : height
            for y in 0..<height {
                for x in 0..<width {
                    let (row, column) = switch degrees {
                    case 90: (x, height - 1 - y)
                    case 180: (height - 1 - y, width - 1 - x)
                    default: (width - 1 - x, y)
                    }
                    for c in 0..<3 { out[(row * outWidth + column) * 3 + c] = rgb[(y * width + x) * 3 + c] }
                }
            }
            return out
        }

        /// The mean absolute difference of two RGB pictures of the same size, per channel.
        static func difference(_ a: [UInt8], _ b: [UInt8]) -> Double {
            guard a.count == b.count, !a.isEmpty else { return .infinity }
            return Double(zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(a.count)
        }

        @Test func mirrorFlipsThePictureLeftToRight() throws {
            let home = try Home()
            let result = try VidrecProcess.run(Self.start + ["--max", "1", "--mirror", "--as", "mirrored"], home: home.path)
            #expect(result.code == 0, "\(result.err)")
            let rgb = try Probe.rgbFrame(home.album + "/mirrored.mp4", width: 640, height: 360)
            #expect(Probe.alike(Probe.meanColour(rgb, width: 640, x: 20, y: 170, w: 20, h: 20), Self.black, tolerance: 40))
            #expect(Probe.alike(Probe.meanColour(rgb, width: 640, x: 600, y: 170, w: 20, h: 20), Self.white, tolerance: 40))
            #expect(try Probe.streams(home.album + "/mirrored.mp4").first.map { $0.width == 640 && $0.height == 360 } == true)
        }
    }
}
