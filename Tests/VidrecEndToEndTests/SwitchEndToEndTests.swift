import Foundation
import Testing

extension EndToEndTests {
    /// `vidrec switch`: the running recording goes on from another camera into the same
    /// file, with no gap and the audio untouched.
    @Suite struct SwitchEndToEndTests {
        @Test func switchingCamerasContinuesTheSameMovieWithNoGapAndTheAudioUntouched() throws {
            let home = try Home()
            let recording = try VidrecProcess(["start", "--camera", "test", "--mic", "test", "--quality", "low", "--max", "6"], home: home.path)
            #expect(recording.waitForError(containing: "vidrec: recording "))
            try recording.waitUntilRecorded(1)
            // A fresh test camera numbers its frames from 0 again: that shows where its
            // pictures begin.
            let switched = try VidrecProcess.run(["switch", "--camera", "test"], home: home.path)
            #expect(switched.code == 0, "\(switched.err)")
            let from = try #require(switched.out.components(separatedBy: " since ").last.flatMap { Double($0.dropLast(3)) }, "\(switched.out)")
            #expect(switched.out.hasPrefix("recording ") && switched.out.contains(" records from test pattern since "), "\(switched.out)")
            let ended = recording.wait()
            #expect(ended.code == 0, "\(ended.err)")
            #expect(ended.err.contains(String(format: "vidrec: switched to test pattern at %.3f s", from)), "\(ended.err)")
            #expect(ended.err.contains("6.000 s, 90 frames"), "\(ended.err)")

            let movie = try #require(home.files(in: home.pending, ending: ".mp4").first)
            let numbers = try Probe.frameNumbers(movie, width: 640, height: 360)
            #expect(numbers.count == 90)
            let slot = Int((from * 15).rounded())
            #expect(slot >= 15 && slot < 90, "switched at \(from) s")
            // Before the switch, the first camera's frames in order; from it on, the new
            // camera's from its first few, in order: every slot has a picture.
            #expect(Array(numbers[0..<slot]) == Array(0..<slot), "\(numbers)")
            let after = Array(numbers[slot...])
            #expect(after.first.map { $0 <= 1 } == true, "the new camera's first frames: \(after)")
            #expect(zip(after, after.dropFirst()).allSatisfy { $1 == $0 + 1 }, "\(after)")

            // The audio: one unbroken tone through the switch (960-sample blocks, half a
            // second either side), as long as the video.
            try Probe.expectStreamsEndTogether(movie, frameRate: 15)
            let blocks = Probe.toneBlocks(try Probe.decodedAudio(movie), frequency: 1000, rate: 48000)
            let switchBlock = Int(from * 50)
            #expect(blocks.count == 300)
            #expect(Probe.phaseJumps(blocks).filter { abs($0 - switchBlock) <= 25 }.isEmpty, "the tone runs on through the switch")
            #expect(blocks[(switchBlock - 25)...(switchBlock + 25)].allSatisfy { $0.amplitude > 1000 }, "no silence at the switch")

            let sidecar = try home.sidecar()
            let cameras = try #require(sidecar["cameras"] as? [[String: Any]])
            #expect(cameras.map { $0["camera"] as? String } == ["test pattern", "test pattern"])
            #expect(cameras.map { $0["from"] as? Double } == [0, Double(slot) / 15])
        }

        @Test func switchNeedsARunningRecordingAndACameraItDoesNotRecordFrom() throws {
            let home = try Home()
            let none = try VidrecProcess.run(["switch", "--camera", "test"], home: home.path)
            #expect(none.code == 66 && none.err == "Error: no recording in progress; start one with 'vidrec start'\n", "\(none.err)")
            let recording = try VidrecProcess(["start", "--camera", "test", "--mic", "test", "--quality", "low", "--max", "30"], home: home.path)
            #expect(recording.waitForError(containing: "vidrec: recording "))
            let missing = try VidrecProcess.run(["switch", "--camera", "/dev/video77"], home: home.path)
            #expect(missing.code == 69, "\(missing.err)")
            #expect(missing.err.hasPrefix("Error: recording ") && missing.err.contains(" records on from test pattern: camera /dev/video77 not found"),
                    "\(missing.err)")
            let unknown = try VidrecProcess.run(["switch", "nosuch", "--camera", "test"], home: home.path)
            #expect(unknown.code == 66 && unknown.err.hasPrefix("Error: no running recording 'nosuch'; running: "), "\(unknown.err)")
            recording.signal(SIGINT)
            let ended = recording.wait()
            #expect(ended.code == 0, "a refused switch costs the recording nothing: \(ended.err)")
            #expect(!ended.err.contains("switched"))
            let sidecar = try home.sidecar()
            #expect((sidecar["cameras"] as? [[String: Any]])?.count == 1)
        }
    }
}
