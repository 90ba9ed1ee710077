import Foundation
import Glibc
import Testing
import VidrecFFmpeg
import VidrecMedia
import VidrecMP4
import VidrecSystem

/// Finishing a recording writes an index into the file itself: every packet stays where
/// it was and plays as before, the movie opens at once (its index before its data when
/// it fits in the room kept for it), nothing is copied, and a crash at any step of the
/// indexing leaves a file that indexing again finishes into the very same movie.
@Suite(.timeLimit(.minutes(3))) struct InPlaceIndexTests {
    static let rate = 15

    static func settings(_ container: Container, clockTrack: Bool = false) -> MovieSettings {
        var settings = MovieSettings(
            container: container,
            video: VideoEncoding(codec: "libx264", width: 160, height: 120, frameRate: Rational(Int64(rate)),
                                 pixelFormat: "yuv420p", speed: "veryfast", crf: 28, bitRate: nil, keyframeInterval: 15),
            audio: AudioEncoding(codec: "aac", sampleRate: 48000, channels: 1, bitRate: 64_000))
        settings.hasClockTrack = clockTrack
        return settings
    }

    /// Records `frames` frames (and the tone beside them) into `path`, as fragments.
    static func record(_ path: String, container: Container = .mp4, frames: Int = 45,
                       indexSeconds: Double = MovieFileOutput.defaultIndexSeconds, clockTrack: Bool = false) throws {
        FFmpegLog.configure(level: nil)
        let output = try MovieEncoder.recordingFile(path: path, settings: settings(container, clockTrack: clockTrack), indexSeconds: indexSeconds)
        for index in 0..<frames {
            try output.appendVideo(TestFrames.ramp(index, width: 160, height: 120), frameIndex: Int64(index))
            try output.appendAudio(EncodeOnceMuxManyTests.tone(index))
        }
        try output.finish()
    }

    static func folder() throws -> String {
        let folder = NSTemporaryDirectory() + "vidrec-index-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// What `tool` printed, standard output then errors.
    static func run(_ tool: String, _ arguments: [String]) throws -> String {
        let (output, errors) = try FFmpegTool.run(tool, arguments)
        return String(decoding: output, as: UTF8.self) + errors
    }

    /// Every packet as ffprobe reads it: stream, presentation time, size, keyframe flag
    /// (not the discard flag, which only an indexed movie's edit list sets, on AAC's
    /// priming packet).
    static func packets(_ file: String) throws -> [String] {
        let text = try run("ffprobe", ["-v", "error", "-show_entries", "packet=stream_index,pts_time,size,flags",
                                                "-of", "csv=p=0", file])
        return text.split(separator: "\n").map { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            return (fields.prefix(3) + [fields.count > 3 ? fields[3].prefix(1) : ""]).joined(separator: ",")
        }
    }

    /// The file's top-level box types, in order.
    static func topLevelBoxes(_ file: String) throws -> [String] {
        try topLevelBoxRanges(file).map(\.type)
    }

    /// The file's top-level boxes: type, where each starts, and its size.
    static func topLevelBoxRanges(_ file: String) throws -> [(type: String, offset: Int, size: Int)] {
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        var boxes: [(type: String, offset: Int, size: Int)] = []
        var position = 0
        while position + 8 <= data.count {
            let size = data[position..<position + 4].reduce(0) { $0 << 8 | Int($1) }
            boxes.append((String(decoding: data[position + 4..<position + 8], as: UTF8.self), position, size))
            guard size >= 8 else { break }
            position += size
        }
        return boxes
    }

    /// The first packets that differ, for messages.
    static func difference(_ before: [String], _ after: [String]) -> String {
        let first = zip(before, after).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(before.count, after.count)
        return "\(before.count) packets before, \(after.count) after; from packet \(first): "
            + "\(before.dropFirst(first).prefix(3)) became \(after.dropFirst(first).prefix(3))"
    }

    static func inode(_ file: String) throws -> UInt64 {
        try #require(FileManager.default.attributesOfItem(atPath: file)[.systemFileNumber] as? UInt64)
    }

    static func fileSize(_ file: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
    }

    @Test(arguments: [Container.mp4, .mov])
    func theIndexIsWrittenInPlaceBeforeTheDataAndEveryPacketPlaysAsBefore(container: Container) throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/movie." + container.fileExtension
        try Self.record(file, container: container)
        let before = try Self.packets(file), inode = try Self.inode(file), size = try Self.fileSize(file)

        let duration = try MovieFinalizer().finalize(file, trimToCommonEnd: false)
        #expect(abs(duration - 3.0) < 0.001)
        let after = try Self.packets(file)
        #expect(after == before ? true : false, "\(Self.difference(before, after))")
        #expect(try Self.inode(file) == inode, "indexed in place")
        #expect(try Self.fileSize(file) <= size, "the index went into the room kept for it")
        let boxes = try Self.topLevelBoxes(file)
        #expect(Array(boxes.prefix(2)) == ["ftyp", "moov"], "\(boxes.prefix(6))")
        #expect(boxes.filter { $0 == "moov" }.count == 1 && !boxes.contains("moof") && !boxes.contains("mfra"))
        #expect(boxes.filter { $0 == "ftyp" }.count == 1)
        let probe = try Self.run("ffprobe", ["-v", "error", "-show_entries", "format=duration:stream=duration",
                                                      "-of", "csv=p=0", file])
        #expect(probe.split(separator: "\n").compactMap { Double($0) }.allSatisfy { abs($0 - 3.0) < 0.001 }, "\(probe)")
        #expect(try Self.run("ffmpeg", ["-v", "error", "-i", file, "-f", "null", "-"]).isEmpty, "decodes cleanly")
        // Indexing an indexed movie changes nothing.
        let indexed = try Data(contentsOf: URL(fileURLWithPath: file))
        #expect(abs(try MovieFinalizer().finalize(file, trimToCommonEnd: false) - duration) < 0.001)
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == indexed)
    }

    @Test func anIndexTooLargeForItsRoomGoesAfterTheData() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/movie.mp4"
        // Room for a tenth of a second's index, then twenty seconds recorded.
        try Self.record(file, frames: 300, indexSeconds: 0.1)
        let before = try Self.packets(file)
        try MovieFinalizer().finalize(file, trimToCommonEnd: false)
        let after = try Self.packets(file)
        #expect(after == before ? true : false, "\(Self.difference(before, after))")
        let boxes = try Self.topLevelBoxes(file)
        #expect(boxes.last == "moov" && boxes.filter { $0 == "moov" }.count == 1 && !boxes.contains("moof"), "\(boxes)")
        #expect(try Self.run("ffmpeg", ["-v", "error", "-i", file, "-f", "null", "-"]).isEmpty)
    }

    /// Every write and sync of the indexing, in turn, is the one that fails (a crash or a
    /// full disk there); indexing again then gives byte for byte the movie that an
    /// indexing without a fault gives.
    @Test(arguments: [(Syscall.write, EIO), (.fsync, EIO), (.ftruncate, EIO)])
    func anIndexingCutShortAtAnyStepIsFinishedByIndexingAgain(operation: Syscall, code: Int32) throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let original = folder + "/original.mp4", clean = folder + "/clean.mp4"
        try Self.record(original, frames: 60, indexSeconds: 2)
        // An mfra and a torn fragment after the last whole one, as a crash leaves them.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: original))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([0, 0, 0x10, 0, 0x6D, 0x6F, 0x6F, 0x66, 1, 2, 3]))
        try handle.close()
        try FileManager.default.copyItem(atPath: original, toPath: clean)
        try MovieFinalizer().finalize(clean, trimToCommonEnd: true)
        let expected = try Data(contentsOf: URL(fileURLWithPath: clean))

        var step = 0
        while true {
            let file = folder + "/step-\(step).mp4"
            try FileManager.default.copyItem(atPath: original, toPath: file)
            let fault = FaultSwitch()
            fault.turnOn(operation, after: step, errno: code)
            let failed: Bool
            do {
                _ = try SyscallFaults.injecting(through: fault) { try MovieFinalizer().finalize(file, trimToCommonEnd: true) }
                failed = false
            } catch let error as SystemError {
                #expect(error.errno == code && error.subject == file)
                failed = true
            }
            try MovieFinalizer().finalize(file, trimToCommonEnd: true)
            #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == expected, "\(operation) failing after \(step) calls")
            try FileManager.default.removeItem(atPath: file)
            if !failed { break }
            step += 1
        }
        #expect(step > 0, "the indexing made no \(operation) call")
    }

    @Test func aRecordingCutOffMidFragmentIsIndexedToItsLastWholeFragmentWithItsStreamsEndingTogether() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/movie.mp4"
        try Self.record(file, frames: 60)
        // Cut the file in the middle of its last fragment's data, as a power cut does.
        let last = try #require(try Self.topLevelBoxRanges(file).last { $0.type == "mdat" })
        #expect(truncate(file, off_t(last.offset + last.size / 2)) == 0)
        let duration = try MovieFinalizer().finalize(file, trimToCommonEnd: true)
        #expect(duration > 2.5 && duration < 4.0, "\(duration) s")
        let probe = try Self.run("ffprobe", ["-v", "error", "-show_entries", "stream=duration",
                                                      "-of", "csv=p=0", file])
        let durations = probe.split(separator: "\n").compactMap { Double($0) }
        #expect(durations.count == 2)
        #expect((durations.max()! - durations.min()!) <= 1.0 / Double(Self.rate) + 0.001, "streams end apart: \(durations)")
        #expect(try Self.run("ffmpeg", ["-v", "error", "-i", file, "-f", "null", "-"]).isEmpty)
    }

    /// A recording with a clock track cut off mid-fragment: the picture and sound end
    /// together, and the clock track's last cue kept ends with the picture.
    @Test func aClockTrackIsCutWithThePictureAndSound() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/movie.mp4"
        try Self.record(file, frames: 60, clockTrack: true)
        let last = try #require(try Self.topLevelBoxRanges(file).last { $0.type == "mdat" })
        #expect(truncate(file, off_t(last.offset + last.size / 2)) == 0)
        let duration = try MovieFinalizer().finalize(file, trimToCommonEnd: true)
        let probe = try Self.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_type,duration", "-of", "csv=p=0", file])
        let durations = Dictionary(probe.split(separator: "\n").compactMap { line -> (String, Double)? in
            let fields = line.split(separator: ",")
            return fields.count == 2 ? (String(fields[0]), Double(fields[1]) ?? 0) : nil
        }, uniquingKeysWith: max)
        let (video, audio, text) = (durations["video"] ?? 0, durations["audio"] ?? 0, durations["subtitle"] ?? 0)
        #expect(text > 3 && text <= video + 0.001 && video > 3.5 && abs(video - audio) <= 1.0 / Double(Self.rate) + 0.001,
                "the clock track ends at \(text) s, the picture at \(video) s, the sound at \(audio) s")
        #expect(abs(duration - video) < 0.03)
    }
}
