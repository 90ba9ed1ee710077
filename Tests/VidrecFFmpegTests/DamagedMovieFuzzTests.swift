import Foundation
import Testing
import VidrecFFmpeg
import VidrecMedia
import VidrecMP4
import VidrecSystem

/// The MP4 reader and indexer take damaged files (a crash, a bad disk, a hand-edited
/// file) as they come: thousands of seeded mutations of a real recording — truncated,
/// bits flipped, box sizes and sample counts set to huge values — each end in an index
/// or a clear ``MP4Error``/``SystemError``, never a trap or a hang. More cases with
/// `VIDREC_FUZZ_CASES`; a seed that ever failed is kept in ``regressions``.
@Suite(.timeLimit(.minutes(5))) struct DamagedMovieFuzzTests {
    /// Seeds that once failed, tried first every run: 1537 trapped writing an edit list
    /// whose media time (from a damaged `elst`) needs 64 bits.
    static let regressions: [UInt64] = [1537]

    static var cases: Int { Int(ProcessInfo.processInfo.environment["VIDREC_FUZZ_CASES"] ?? "") ?? 1500 }

    /// A recording as a crash leaves it: two seconds of x264 and AAC as fragments, not
    /// yet indexed.
    static func fragmentedRecording(in folder: String) throws -> [UInt8] {
        let path = folder + "/source.partial.mp4"
        let output = try MovieEncoder.recordingFile(path: path, settings: EncodeOnceMuxManyTests.settings(container: .mp4, audio: true))
        for index in 0..<30 {
            try output.appendVideo(EncodeOnceMuxManyTests.frame(index), frameIndex: Int64(index))
            try output.appendAudio(EncodeOnceMuxManyTests.tone(index))
        }
        try output.finish()
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Offsets of every box header, top level and nested, found by walking sizes (for
    /// mutations that hit a size or a count).
    static func boxOffsets(_ bytes: [UInt8]) -> [Int] {
        var found: [Int] = []
        func walk(_ start: Int, _ end: Int) {
            var at = start
            while at + 8 <= end {
                let size = Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
                guard size >= 8, at + size <= end else { return }
                found.append(at)
                let type = String(decoding: bytes[at + 4..<at + 8], as: UTF8.self)
                if ["moov", "trak", "mdia", "minf", "stbl", "mvex", "moof", "traf", "edts"].contains(type) { walk(at + 8, at + size) }
                at += size
            }
        }
        walk(0, bytes.count)
        return found
    }

    /// One damaged copy of `bytes`, chosen by `seed` (a fixed case on every machine).
    static func mutate(_ bytes: [UInt8], boxes: [Int], seed: UInt64) -> [UInt8] {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(max(bound, 1)))
        }
        func pick<T>(_ values: [T]) -> T { values[next(values.count)] }
        var copy = bytes
        for _ in 0...next(4) {
            switch next(6) {
            case 0:  // torn: cut anywhere
                copy = Array(copy.prefix(next(copy.count + 1)))
            case 1:  // flipped bits anywhere
                guard !copy.isEmpty else { continue }
                copy[next(copy.count)] ^= UInt8(1 << next(8))
            case 2, 3:  // a box's size, or a field after its type (a version, a count), set to a boundary value
                let field = pick(boxes) + pick([0, 8, 12, 16, 20])
                let value: UInt32 = pick([0, 1, 7, 8, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF, UInt32(next(1 << 20))])
                guard field + 4 <= copy.count else { continue }
                for i in 0..<4 { copy[field + i] = UInt8(truncatingIfNeeded: value >> (24 - 8 * i)) }
            case 4:  // a 64-bit size (size field 1) of a huge, negative or tiny value
                let box = pick(boxes)
                guard box + 16 <= copy.count else { continue }
                copy.replaceSubrange(box..<box + 4, with: [0, 0, 0, 1])
                let large: UInt64 = pick([UInt64.max, 1 << 63, UInt64(Int64.max), 1 << 40, 16])
                for i in 0..<8 { copy[box + 8 + i] = UInt8(truncatingIfNeeded: large >> (56 - 8 * i)) }
            default:  // a run of random bytes
                guard copy.count > 16 else { continue }
                let start = next(copy.count - 16)
                for i in start..<start + next(16) { copy[i] = UInt8(truncatingIfNeeded: next(256)) }
            }
        }
        return copy
    }

    @Test func damagedRecordingsIndexOrFailWithAClearErrorNeverATrap() throws {
        FFmpegLog.configure(level: nil)
        let folder = try EncodeOnceMuxManyTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let original = try Self.fragmentedRecording(in: folder)
        let boxes = Self.boxOffsets(original)
        try #require(boxes.count > 20, "the recording has its fragments")
        var indexed = 0, refused = 0
        let path = folder + "/damaged.partial.mp4"
        for seed in Self.regressions + (1...UInt64(Self.cases)).map({ $0 }) {
            let damaged = Self.mutate(original, boxes: boxes, seed: seed)
            try Data(damaged).write(to: URL(fileURLWithPath: path))
            do {
                let duration = try FragmentedMovieIndexer().index(path, trimToCommonEnd: seed % 2 == 0)
                #expect(duration.isFinite && duration >= 0, "seed \(seed): duration \(duration)")
                // Indexing again reads the finished index and agrees.
                #expect(try FragmentedMovieIndexer().index(path, trimToCommonEnd: false) == duration, "seed \(seed)")
                indexed += 1
            } catch let error as MP4Error {
                #expect(!error.description.isEmpty && !error.description.contains("\n"), "seed \(seed): \(error)")
                refused += 1
            } catch let error as SystemError {
                #expect(!error.description.contains("\n"), "seed \(seed): \(error)")
                refused += 1
            }
        }
        // Both outcomes occur: the mutations reach the reader and also leave files it can index.
        #expect(indexed > 0 && refused > 0, "\(indexed) indexed, \(refused) refused")
    }
}
