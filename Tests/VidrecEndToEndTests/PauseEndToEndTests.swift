import Foundation
import Testing

extension EndToEndTests {
    /// `vidrec pause` and `vidrec resume`: nothing is recorded in between, and the movie
    /// goes on from where it paused, in both streams.
    @Suite struct PauseEndToEndTests {
        @Test func aPausedRecordingLeavesOutWhatCameInBetweenAndItsMovieHasNoGap() throws {
            let home = try Home()
            let recording = try VidrecProcess(["start", "--camera", "test", "--mic", "test", "--quality", "low", "--max", "4"], home: home.path)
            #expect(recording.waitForError(containing: "vidrec: recording "))
            let paused = try VidrecProcess.run(["pause"], home: home.path)
            #expect(paused.code == 0 && paused.out.hasPrefix("paused "), "\(paused.err)")
            #expect(recording.waitForError(containing: "vidrec: paused\n"))
            let again = try VidrecProcess.run(["pause"], home: home.path)
            #expect(again.code == 0 && again.out.hasSuffix(" is already paused\n"), "\(again.out)")
            // The recording says it is paused (within half a second), and its time stands.
            let status = try Poll.until {
                let shown = try VidrecProcess.run(["status", "--json"], home: home.path)
                let rows = try JSONSerialization.jsonObject(with: Data(shown.out.utf8)) as? [[String: Any]]
                return rows?.first.flatMap { $0["paused"] as? Bool == true ? $0 : nil }
            }
            let pausedAt = try #require(status?["duration"] as? Double)
            #expect(pausedAt < 4)
            #expect(try VidrecProcess.run(["status"], home: home.path).out.contains(": paused at "))
            let resumed = try VidrecProcess.run(["resume"], home: home.path)
            #expect(resumed.code == 0 && resumed.out.hasPrefix("resumed "), "\(resumed.err)")

            let ended = recording.wait()
            #expect(ended.code == 0, "\(ended.err)")
            #expect(ended.err.contains("vidrec: resumed\n") && ended.err.contains("4.000 s, 60 frames, "), "\(ended.err)")
            let leftOut = try #require(ended.err.firstMatch(of: /, (\d+) of the camera's frames left out while paused/).flatMap { Int($0.1) },
                                       "\(ended.err)")
            #expect(!ended.err.contains("dropped") && !ended.err.contains("silence"), "\(ended.err)")
            let movie = try #require(home.files(in: home.pending, ending: ".mp4").first)
            // Every slot of the 4 s; the test camera's own numbers jump once, by what it
            // sent while the recording was paused (at least the half second the status
            // took to say so).
            let numbers = try Probe.frameNumbers(movie, width: 640, height: 360)
            #expect(numbers.count == 60)
            let steps = zip(numbers.dropFirst(), numbers).map { $0 - $1 }
            #expect(steps.filter { $0 != 1 }.count == 1 && (steps.max() ?? 0) >= 4, "\(numbers)")
            // The jump is what the end line says was left out while paused.
            #expect(steps.max() == leftOut + 1, "\(leftOut) left out, \(steps.max() ?? 0) between")
            let sidecar = try home.sidecar()
            #expect(sidecar["pausedFrames"] as? Int == leftOut)
            try Probe.expectStreamsEndTogether(movie, frameRate: 15)
            // The tone goes on through the pause: no silent moment where it resumed (a
            // 1 kHz tone crosses zero every half millisecond; a gap is a run of quiet).
            let samples = try Probe.decodedAudio(movie)
            let peak = samples.dropFirst(4800).map { abs(Int($0)) }.max() ?? 0
            var quiet = 0, longest = 0
            for sample in samples.dropFirst(4800).dropLast(4800) {
                quiet = abs(Int(sample)) < peak / 20 ? quiet + 1 : 0
                longest = max(longest, quiet)
            }
            #expect(peak > 1000 && longest < 48, "\(longest) quiet samples in a row")
            #expect(try VidrecProcess.run(["resume"], home: home.path).code == 66, "nothing is recording now")
        }

        @Test func aRecordingStoppedWhilePausedIsFinishedWhereItPaused() throws {
            let home = try Home()
            let recording = try VidrecProcess(["start", "--camera", "test", "--mic", "test", "--quality", "low"], home: home.path)
            #expect(recording.waitForError(containing: "vidrec: recording "))
            #expect(try VidrecProcess.run(["pause"], home: home.path).code == 0)
            #expect(recording.waitForError(containing: "vidrec: paused\n"))
            // Paused, with its time standing where it paused.
            let pausedAt = try #require(try Poll.until {
                let shown = try VidrecProcess.run(["status", "--json"], home: home.path)
                let row = (try JSONSerialization.jsonObject(with: Data(shown.out.utf8)) as? [[String: Any]])?.first
                return row?["paused"] as? Bool == true ? row?["duration"] as? Double : nil
            })
            let stop = try VidrecProcess.run(["stop"], home: home.path)
            #expect(stop.code == 0, "\(stop.err)")
            let ended = recording.wait()
            #expect(ended.code == 0, "\(ended.err)")
            #expect(ended.err.contains("vidrec: stopped: ") && !ended.err.contains("dropped"), "\(ended.err)")
            let movie = try #require(home.files(in: home.pending, ending: ".mp4").first)
            let frames = try Probe.decodedFrameCount(movie)
            // What was recorded before the pause, and nothing after it: the movie ends where
            // its time stood while paused.
            #expect(abs(Double(frames) / 15 - pausedAt) < 0.01, "\(frames) frames, paused at \(pausedAt) s")
            let numbers = try Probe.frameNumbers(movie, width: 640, height: 360)
            #expect(numbers == Array(numbers[0]..<(numbers[0] + numbers.count)), "\(numbers)")
            try Probe.expectStreamsEndTogether(movie, frameRate: 15)
        }
    }
}
