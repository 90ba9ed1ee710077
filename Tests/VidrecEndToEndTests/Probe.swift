import Foundation
import Glibc
import Testing

/// What ffprobe and ffmpeg (FFmpeg's own tools, not vidrec's code) say about a file.
enum Probe {
    struct Stream {
        var codec: String
        var kind: String
        var width: Int?
        var height: Int?
        var frameRate: String?
        var sampleRate: Int?
        var channels: Int?
        var duration: Double?
        var startTime: Double?
    }

    static func tool(_ name: String, _ arguments: [String], environment: [String: String]? = nil) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: name.hasPrefix("/") ? name : "/usr/bin/" + name)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let out = Pipe()
        let errors = NSTemporaryDirectory() + "probe-\(UUID().uuidString).err"
        _ = FileManager.default.createFile(atPath: errors, contents: nil)
        defer { unlink(errors) }
        process.standardOutput = out
        process.standardError = FileHandle(forWritingAtPath: errors)
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let said = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        try #require(process.terminationStatus == 0, "\(name) \(arguments.joined(separator: " ")) failed: \(said.suffix(500))")
        return data
    }

    static func json(_ arguments: [String]) throws -> [String: Any] {
        let data = try tool("ffprobe", ["-v", "error", "-of", "json"] + arguments)
        return try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// The first video stream's codec profile (`High`, `Constrained Baseline`), or "".
    static func videoProfile(_ file: String) throws -> String {
        let info = try json(["-show_entries", "stream=profile", "-select_streams", "v:0", file])
        return ((info["streams"] as? [[String: Any]])?.first?["profile"] as? String) ?? ""
    }

    /// The indexes of the video packets flagged as keyframes, in file order.
    static func keyframePositions(_ file: String) throws -> [Int] {
        let info = try json(["-select_streams", "v:0", "-show_entries", "packet=flags", file])
        let packets = try #require(info["packets"] as? [[String: Any]])
        return packets.indices.filter { (packets[$0]["flags"] as? String)?.hasPrefix("K") == true }
    }

    /// Streams as the container's header declares them (no scan).
    static func streams(_ file: String) throws -> [Stream] {
        let info = try json(["-show_streams", file])
        let streams = try #require(info["streams"] as? [[String: Any]])
        return streams.map { s in
            Stream(codec: s["codec_name"] as? String ?? "", kind: s["codec_type"] as? String ?? "",
                   width: s["width"] as? Int, height: s["height"] as? Int, frameRate: s["r_frame_rate"] as? String,
                   sampleRate: (s["sample_rate"] as? String).flatMap(Int.init), channels: s["channels"] as? Int,
                   duration: (s["duration"] as? String).flatMap(Double.init),
                   startTime: (s["start_time"] as? String).flatMap(Double.init))
        }
    }

    /// The container's duration as its header states it.
    static func formatDuration(_ file: String) throws -> Double {
        let info = try json(["-show_format", file])
        let format = try #require(info["format"] as? [String: Any])
        let text = format["duration"] as? String ?? ""
        return try #require(Double(text), "format duration: \(text)")
    }

    /// Video frames, counted by decoding every one.
    static func decodedFrameCount(_ file: String) throws -> Int {
        let info = try json(["-count_frames", "-select_streams", "v:0", "-show_entries", "stream=nb_read_frames", file])
        let streams = try #require(info["streams"] as? [[String: Any]])
        let text = streams.first?["nb_read_frames"] as? String ?? ""
        return try #require(Int(text), "nb_read_frames: \(text)")
    }

    /// The audio, decoded to mono 16-bit samples at its own rate.
    static func decodedAudio(_ file: String) throws -> [Int16] {
        let data = try tool("ffmpeg", ["-v", "error", "-i", file, "-map", "0:a:0", "-ac", "1", "-f", "s16le", "-"])
        return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    /// How far the test microphone's 1 kHz tone (at 48 kHz) jumps across sample `cut` of
    /// `samples`, in samples: its phase measured just before and just after, clear of
    /// the AAC frames on either side (which an encoder cut there codes as a stream's end
    /// and start). A sample missing or doubled at the cut makes it about 1.
    static func toneJump(_ samples: [Int16], across cut: Int) -> Double {
        let omega = 2 * Double.pi * 1000 / 48000
        let phases = [(cut - 2880)..<(cut - 1920), (cut + 1024)..<(cut + 1984)].map { window in
            var (sine, cosine) = (0.0, 0.0)
            for i in window {
                sine += Double(samples[i]) * sin(omega * Double(i))
                cosine += Double(samples[i]) * cos(omega * Double(i))
            }
            return atan2(cosine, sine) / omega
        }
        return abs(phases[1] - phases[0])
    }

    /// Frame `index` decoded to 8-bit grey, row by row.
    static func greyFrame(_ file: String, index: Int) throws -> [UInt8] {
        let data = try tool("ffmpeg", ["-v", "error", "-i", file, "-map", "0:v:0", "-vf", "select=eq(n\\,\(index))",
                                       "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "gray", "-"])
        return Array(data)
    }

    /// The test camera's frame number in every frame of the movie, in order.
    /// With `everyPacket`, each decoded picture once (`-fps_mode passthrough`), not the
    /// constant-rate pictures ffmpeg makes of them by default.
    static func frameNumbers(_ file: String, width: Int, height: Int, everyPacket: Bool = false) throws -> [Int] {
        let grey = Array(try tool("ffmpeg", ["-v", "error", "-i", file, "-map", "0:v:0"] + (everyPacket ? ["-fps_mode", "passthrough"] : [])
                                            + ["-f", "rawvideo", "-pix_fmt", "gray", "-"]))
        let size = width * height
        return stride(from: 0, to: grey.count - size + 1, by: size).map {
            frameNumber(grey: Array(grey[$0..<($0 + size)]), width: width, height: height)
        }
    }

    /// Reads the test camera's 16-bit frame-number strip from a grey frame.
    static func frameNumber(grey: [UInt8], width: Int, height: Int) -> Int {
        let blockHeight = max(8, height / 16), blockWidth = width / 16
        let row = height - blockHeight / 2
        var number = 0
        for bit in 0..<16 {
            let value = grey[row * width + bit * blockWidth + blockWidth / 2]
            number = number << 1 | (value > 128 ? 1 : 0)
        }
        return number
    }

    /// The tone's frequency, from its zero crossings, and the share of the signal's
    /// power at that frequency (Goertzel), which is near 1 for a clean tone.
    static func dominantFrequency(_ samples: [Int16], rate: Int) -> (hertz: Double, share: Double) {
        let x = samples.map { Double($0) / 32768 }
        let total = x.reduce(0) { $0 + $1 * $1 }
        guard total > 0 else { return (0, 0) }
        // Count upward crossings with a little hysteresis against noise. Only after the
        // signal has been below: a window that opens on a rising half-wave has no
        // crossing at its first sample (counting one there put the estimate 0.3–0.4 Hz
        // high, and the Goertzel power at that frequency to 0.5–0.8 of a clean tone's).
        let threshold = (total / Double(x.count)).squareRoot() / 4
        var crossings: [Int] = []
        var below = false
        for (i, v) in x.enumerated() {
            if below, v > threshold { crossings.append(i); below = false } else if v < -threshold { below = true }
        }
        guard crossings.count > 2 else { return (0, 0) }
        let hertz = Double(crossings.count - 1) * Double(rate) / Double(crossings.last! - crossings.first!)
        let w = 2 * Double.pi * hertz / Double(rate), c = 2 * cos(w)
        var (s1, s2) = (0.0, 0.0)
        for v in x { (s1, s2) = (v + c * s1 - s2, s1) }
        let power = (s1 * s1 + s2 * s2 - c * s1 * s2) * 2 / Double(x.count)
        return (hertz, power / total)
    }

    /// The mean R, G, B of each of eight vertical bars across frame 0, below the text
    /// that vivid draws at the top.
    static func barColours(_ file: String, width: Int, height: Int) throws -> [[Int]] {
        let rgb = Array(try tool("ffmpeg", ["-v", "error", "-i", file, "-map", "0:v:0", "-frames:v", "1",
                                            "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]))
        try #require(rgb.count == width * height * 3)
        return (0..<8).map { bar in
            var sum = [0, 0, 0], count = 0
            for y in stride(from: height * 6 / 10, to: height * 9 / 10, by: 2) {
                for x in stride(from: bar * width / 8 + width / 32, to: (bar + 1) * width / 8 - width / 32, by: 2) {
                    for c in 0..<3 { sum[c] += Int(rgb[(y * width + x) * 3 + c]) }
                    count += 1
                }
            }
            return sum.map { $0 / max(count, 1) }
        }
    }

    /// Both streams end together: their durations differ by at most one video frame
    /// (plus the one AAC packet that audio durations are rounded up to).
    /// `context` (what the recording said, its sidecar) goes with a failure.
    static func expectStreamsEndTogether(_ file: String, frameRate: Double, context: @autoclosure () -> String = "",
                                         sourceLocation: SourceLocation = #_sourceLocation) throws {
        let streams = try Probe.streams(file)
        let video = try #require(streams.first { $0.kind == "video" }?.duration, sourceLocation: sourceLocation)
        let audio = try #require(streams.first { $0.kind == "audio" }?.duration, sourceLocation: sourceLocation)
        #expect(abs(video - audio) <= 1 / frameRate + 1024.0 / 48000, "video \(video) s, audio \(audio) s\(context())",
                sourceLocation: sourceLocation)
    }

    /// The amplitude and phase of `frequency` in each block of `block` samples, measured
    /// against one clock that runs through the whole file: in a clean tone the phase
    /// stays the same from block to block; a cut or an inserted piece shifts it.
    static func toneBlocks(_ samples: [Int16], frequency: Double, rate: Int, block: Int = 960) -> [(amplitude: Double, phase: Double)] {
        (0..<(samples.count / block)).map { b in
            var (s, c) = (0.0, 0.0)
            for i in (b * block)..<((b + 1) * block) {
                let w = 2 * Double.pi * frequency * Double(i) / Double(rate)
                s += Double(samples[i]) * sin(w)
                c += Double(samples[i]) * cos(w)
            }
            return (2 * (s * s + c * c).squareRoot() / Double(block), atan2(c, s))
        }
    }

    /// The index of the first sample louder than 2000 (of 32767): where the tone starts;
    /// `samples.count` when it never does.
    /// Where each burst of sound begins in `samples`, in samples: the first sample above
    /// a quarter of the loudest after at least a quarter of a second below it.
    static func burstOnsets(_ samples: [Int16]) -> [Int] {
        let loudest = samples.map { abs(Int($0)) }.max() ?? 0
        let threshold = loudest / 4
        var onsets: [Int] = []
        var quietSince = 0
        for (index, sample) in samples.enumerated() where abs(Int(sample)) > threshold {
            if index - quietSince >= 12000 { onsets.append(index) }
            quietSince = index
        }
        return onsets
    }

    /// How far each burst the player played (``TonePlayer/init(burstsInto:)``) lies in the
    /// movie from where it belongs, in seconds (positive: late): the movie's time 0 is
    /// the sidecar's `clockOrigin` on CLOCK_MONOTONIC, so a burst the player played at
    /// second k belongs at playOrigin + k − clockOrigin. Bursts in the first second
    /// (the source may still be starting) are left out.
    static func burstOffsets(_ file: String, sidecar: [String: Any], playOrigin: Double) throws -> [Double] {
        try bursts(file, sidecar: sidecar, playOrigin: playOrigin).map(\.offset)
    }

    /// Each burst's place in the movie (seconds) and how far it lies from where it
    /// belongs (``burstOffsets(_:sidecar:playOrigin:)``).
    static func bursts(_ file: String, sidecar: [String: Any], playOrigin: Double) throws -> [(position: Double, offset: Double)] {
        let origin = try #require(sidecar["clockOrigin"] as? Double, "no clockOrigin in \(sidecar)")
        return try burstOnsets(decodedAudio(file)).map { Double($0) / 48000 }.filter { $0 >= 1 }.map { position in
            let played = (origin + position - playOrigin).rounded()
            return (position, position - (playOrigin + played - origin))
        }
    }

    static func firstSound(_ samples: [Int16]) -> Int {
        samples.firstIndex { abs(Int($0)) > 2000 } ?? samples.count
    }

    /// The phase turn allowed from one 20-ms block of a `frequency` tone to the next:
    /// 0.3 rad for the codec's noise, and, when the sidecar says the drift correction
    /// stretched audio (`driftCorrection`, which a loaded machine's jittery timestamps
    /// can set off), what stretching by its most, 0.5 %, turns the phase by in a block
    /// (2π · 440 Hz · 20 ms · 0.005 = 0.28 rad). A cut or a doubled piece is a jump beyond it.
    static func phaseTolerance(frequency: Double, sidecar: [String: Any]) -> Double {
        let stretched = sidecar["driftCorrection"] as? Double ?? 0
        return 0.3 + (stretched != 0 ? 2 * Double.pi * frequency * 0.02 * 0.005 : 0)
    }

    /// The blocks two either side of each of `jumps` (amplitude@phase), for a failure's
    /// message: whether a jump is a step (cut or padded sound) or one odd block.
    static func describeBlocks(_ blocks: [(amplitude: Double, phase: Double)], around jumps: [Int]) -> String {
        jumps.prefix(4).map { jump in
            let shown = blocks[max(0, jump - 2)..<min(blocks.count, jump + 3)]
            return "\(jump): " + shown.map { String(format: "%.0f@%.2f", $0.amplitude, $0.phase) }.joined(separator: " ")
        }.joined(separator: "; ")
    }

    /// Indexes of blocks whose phase jumps against the previous block (by more than
    /// `tolerance` radians) while both hold the tone.
    static func phaseJumps(_ blocks: [(amplitude: Double, phase: Double)], minimumAmplitude: Double = 1000,
                           tolerance: Double = 0.3) -> [Int] {
        guard blocks.count > 1 else { return [] }
        return (1..<blocks.count).filter { b in
            guard blocks[b].amplitude >= minimumAmplitude, blocks[b - 1].amplitude >= minimumAmplitude else { return false }
            var d = blocks[b].phase - blocks[b - 1].phase
            while d > Double.pi { d -= 2 * Double.pi }
            while d < -Double.pi { d += 2 * Double.pi }
            return abs(d) > tolerance
        }
    }

    /// Frame 0 as 8-bit RGB, row by row.
    static func rgbFrame(_ file: String, width: Int, height: Int) throws -> [UInt8] {
        let rgb = Array(try tool("ffmpeg", ["-v", "error", "-i", file, "-map", "0:v:0", "-frames:v", "1",
                                            "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]))
        try #require(rgb.count == width * height * 3)
        return rgb
    }

    /// The mean R, G, B of the rectangle at (`x`, `y`) of size `w × h` in an RGB frame.
    static func meanColour(_ rgb: [UInt8], width: Int, x: Int, y: Int, w: Int, h: Int) -> [Int] {
        var sum = [0, 0, 0]
        for row in y..<(y + h) {
            for column in x..<(x + w) {
                for c in 0..<3 { sum[c] += Int(rgb[(row * width + column) * 3 + c]) }
            }
        }
        return sum.map { $0 / (w * h) }
    }

    /// Whether two colours are alike (each channel within `tolerance`).
    static func alike(_ a: [Int], _ b: [Int], tolerance: Int = 28) -> Bool {
        zip(a, b).allSatisfy { abs($0 - $1) <= tolerance }
    }

    /// The top-level boxes of an MP4 file, in order (`ftyp`, `moov`, `mdat`, …).
    static func topLevelBoxes(_ file: String) throws -> [String] {
        let handle = try #require(FileHandle(forReadingAtPath: file))
        defer { try? handle.close() }
        var boxes: [String] = []
        var offset: UInt64 = 0
        let size = try handle.seekToEnd()
        while offset + 8 <= size {
            try handle.seek(toOffset: offset)
            let header = try #require(try handle.read(upToCount: 16))
            var length = UInt64(header[0]) << 24 | UInt64(header[1]) << 16 | UInt64(header[2]) << 8 | UInt64(header[3])
            boxes.append(String(decoding: header[4..<8], as: UTF8.self))
            if length == 1 { length = header[8..<16].reduce(0) { $0 << 8 | UInt64($1) } }
            if length == 0 { break }
            offset += length
        }
        return boxes
    }
}

extension Probe {
    /// The presentation time of every video frame, in seconds, in order.
    static func videoFrameTimes(_ file: String) throws -> [Double] {
        let info = try json(["-select_streams", "v:0", "-show_entries", "frame=pts_time", file])
        let frames = try #require(info["frames"] as? [[String: Any]])
        return frames.compactMap { ($0["pts_time"] as? String).flatMap(Double.init) }
    }

    /// The video packets in file order, each as "pts/dts+duration" in frame slots at
    /// `frameRate`: for failure messages.
    static func describeVideoPackets(_ file: String, frameRate: Double) -> String {
        guard let info = try? json(["-select_streams", "v:0", "-show_entries", "packet=pts_time,dts_time,duration_time,flags", file]),
              let packets = info["packets"] as? [[String: Any]] else { return "(no packets read)" }
        func slot(_ key: String, _ packet: [String: Any]) -> String {
            (packet[key] as? String).flatMap(Double.init).map { String(Int(($0 * frameRate).rounded())) } ?? "?"
        }
        return packets.map { packet in
            let key = (packet["flags"] as? String)?.hasPrefix("K") == true ? "K" : ""
            return "\(key)\(slot("pts_time", packet))/\(slot("dts_time", packet))+\(slot("duration_time", packet))"
        }.joined(separator: " ")
    }

    /// The last frame of the movie as 8-bit RGB, row by row.
    static func lastRGBFrame(_ file: String, width: Int, height: Int) throws -> [UInt8] {
        let rgb = Array(try tool("ffmpeg", ["-v", "error", "-sseof", "-0.5", "-i", file, "-map", "0:v:0",
                                            "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]))
        try #require(rgb.count >= width * height * 3)
        return Array(rgb.suffix(width * height * 3))
    }
}
