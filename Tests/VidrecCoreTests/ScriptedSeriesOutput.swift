import Foundation
import Synchronization
import VidrecCore
import VidrecMedia
import VidrecSystem

/// The movie output of a segmented or event recording in a test: each file the sink
/// opens gets one line per frame (`video SLOT`) and per audio chunk (`audio FRAMES`),
/// as ``FileRecordingOutput`` writes a single movie. Segments are cut as the plan says;
/// events keep the last `pre` frames and run until `post` frames after the last trigger.
final class ScriptedSeriesOutput: CaptureOutput, @unchecked Sendable {
    // @unchecked Sendable: only `triggers` is touched from another thread (a trigger),
    // and it is a Mutex; the rest is the output thread's.

    enum Cut {
        case plan(SegmentPlan)
        case events(pre: Int64, post: Int64)
    }

    let outputName = "scripted series"
    private(set) var bytesWritten: Int64 = 0
    private let cut: Cut
    private let sink: any SegmentSink
    private let frameRate: Rational
    private var open: (index: Int, path: String, handle: FileHandle)?
    private var events = 0
    private var kept: [Int64] = []
    private var eventEnd: Int64 = 0
    private let triggers = Mutex(0)

    init(cut: Cut, sink: any SegmentSink, frameRate: Rational) {
        self.cut = cut
        self.sink = sink
        self.frameRate = frameRate
    }

    /// A trigger: the next frame starts an event, or extends the open one.
    func trigger() { triggers.withLock { $0 += 1 } }

    private func write(_ line: String) throws {
        guard let open else { return }
        let data = Data((line + "\n").utf8)
        try open.handle.write(contentsOf: data)
        bytesWritten += Int64(data.count)
    }

    private func openFile(_ index: Int, at slot: Int64) throws {
        let (path, _) = try sink.openSegment(index, startingAt: (Rational(slot) * frameRate.reciprocal).doubleValue)
        guard FileManager.default.createFile(atPath: path, contents: nil) else { throw SystemError("open", path, errno: EEXIST) }
        open = (index, path, try FileHandle(forWritingTo: URL(fileURLWithPath: path)))
    }

    private func closeFile() throws {
        guard let file = open else { return }
        try file.handle.close()
        open = nil
        try sink.closeSegment(file.index, path: file.path, failure: nil)
    }

    func appendVideo(_ frame: VideoFrame, frameIndex: Int64) throws {
        switch cut {
        case .plan(let plan):
            let segment = plan.segment(ofFrame: frameIndex)
            if open?.index != segment {
                try closeFile()
                try openFile(segment, at: frameIndex)
            }
            try write("video \(frameIndex)")
        case let .events(pre, post):
            let triggered = triggers.withLock { count in
                defer { count = 0 }
                return count > 0
            }
            if triggered {
                if open == nil {
                    try openFile(events, at: kept.first ?? frameIndex)
                    events += 1
                    for slot in kept { try write("video \(slot)") }
                    kept = []
                }
                eventEnd = frameIndex + post
            }
            if open != nil {
                try write("video \(frameIndex)")
                if frameIndex + 1 >= eventEnd { try closeFile() }
            } else {
                kept = Array((kept + [frameIndex]).suffix(Int(pre)))
            }
        }
    }

    func appendAudio(_ chunk: AudioChunk) throws { try write("audio \(chunk.frameCount)") }

    func finish() throws { try closeFile() }
}
