import Foundation
import Testing

extension KernelDriverTests {
    /// A USB microphone through snd-usb-audio (``USBCamera`` with `microphoneOnly`: the
    /// gadget is the microphone alone), unplugged while a camera records on.
    @Suite struct USBMicrophoneEndToEndTests {
        /// The microphone unplugged mid-recording and plugged back in: the recording goes
        /// on in the same movie with silence while it is gone, takes its sound again by
        /// its name once it is back, and counts the gap. Prints how soon its sound came
        /// back after the kernel had it again (`vm/usb-camera replug` returns once
        /// snd-usb-audio has bound it).
        @Test func aRecordingGoesOnWithSilenceWhenTheMicrophoneIsUnpluggedAndPluggedBackIn() throws {
            let microphone = try USBCamera(tone: 1000, microphoneOnly: true)
            defer { microphone.stop() }
            let home = try Home()
            let hooks = home.path + "/hooks.txt"
            let child = try VidrecProcess(["start", "--camera", "test", "--mic", USBCamera.microphone,
                                           "--quality", try USBCamera.lightPreset(in: home),
                                           "--reconnect", "2m",
                                           "--on-failure", "/bin/sh -c 'echo \"$VIDREC_EVENT $VIDREC_MICROPHONE\" >> \(hooks)'"],
                                          home: home.path)
            #expect(child.waitForError(containing: "vidrec: recording"))
            try child.waitUntilRecorded(3)
            try microphone.unplug()
            #expect(child.waitForError(containing: "vidrec: microphone \(USBCamera.microphone) is gone: "), "\(child.errorSoFar)")
            let gone = try Poll.until { () -> Double? in
                let status = try VidrecProcess.run(["status", "--json"], home: home.path)
                let rows = try JSONSerialization.jsonObject(with: Data(status.out.utf8)) as? [[String: Any]]
                return rows?.first?["microphoneGone"] as? Double
            }
            #expect(gone.map { $0 >= 0 } == true)
            try microphone.replug()
            let replugged = Date()
            #expect(child.waitForError(containing: "vidrec: microphone \(USBCamera.microphone) is back after "), "\(child.errorSoFar)")
            print(String(format: "USB microphone: its sound back %.2f s after the kernel had it again", Date().timeIntervalSince(replugged)))
            // Long enough for the gadget's tone player, which starts only once the host
            // captures again, to play into the movie.
            let back = try #require(try child.waitUntilRecorded(0))
            try child.waitUntilRecorded(back + 8)
            child.signal(SIGINT)
            let result = child.wait()
            #expect(result.code == 0, "\(result.err)")
            // The --on-failure hook heard of it (and of nothing else).
            let heard = try String(contentsOfFile: hooks, encoding: .utf8).split(separator: "\n")
            #expect(heard.first == "microphone-gone \(USBCamera.microphone)" && heard.allSatisfy { $0.hasPrefix("microphone-gone ") },
                    "\(heard)")
            let gap = try Self.expectTheUnplugCounted(home: home, end: result.err)
            try Self.expectToneSilenceTone(home: home, gap: gap)
        }

        /// The unplug is the first gap, back, in the sidecar and the end line; a starved
        /// guest's gadget may stall after the replug, and any later gap must be such a
        /// stall. Returns the unplug's length in seconds.
        static func expectTheUnplugCounted(home: Home, end: String) throws -> Double {
            let sidecar = try home.sidecar()
            let gaps = try #require(sidecar["microphoneGaps"] as? [[String: Any]], "\(sidecar)")
            #expect(gaps.first?["reason"] as? String == "disappeared (it was unplugged or its driver stopped)", "\(gaps)")
            #expect(gaps.dropFirst().allSatisfy { $0["reason"] as? String == "it sent nothing for 5 s" }, "\(gaps)")
            #expect(gaps.allSatisfy { $0["back"] as? Bool == true }, "\(gaps)")
            #expect(sidecar["cameraGaps"] == nil, "the camera recorded on: \(sidecar)")
            let times = gaps.count == 1 ? "once" : "\(gaps.count) times"
            #expect(end.range(of: #"microphone gone (\d\d:\d\d:\d\d-\d\d:\d\d:\d\d(, )?)+ \(\d+\.\d s of silence; back "# + times + #"\)"#,
                               options: .regularExpression) != nil, "\(end)")
            return try #require(gaps.first?["seconds"] as? Double)
        }

        /// The movie's sound: the tone before the unplug, silence at least as long as the
        /// microphone was gone (the gadget's player starts again some time after it is
        /// back), then the tone again; both streams end together.
        static func expectToneSilenceTone(home: Home, gap: Double) throws {
            let file = try #require(home.files(in: home.pending, ending: ".mp4").first)
            try Probe.expectStreamsEndTogether(file, frameRate: Double(USBCamera.lightFrameRate), context: "\nsidecar: \((try? home.sidecar()).map { "\($0)" } ?? "none")")
            let samples = try Probe.decodedAudio(file)
            let block = 480
            let loud = stride(from: 0, to: samples.count - block, by: block).map { start in
                samples[start..<(start + block)].reduce(0) { max($0, abs(Int($1))) } > 1000
            }
            // The longest quiet run, after the first loud block.
            let first = try #require(loud.firstIndex(of: true), "no tone at all")
            var (runStart, runLength, start) = (0, 0, first)
            for (index, isLoud) in loud.enumerated().dropFirst(first) {
                if isLoud { start = index + 1 } else if index - start + 1 > runLength { (runStart, runLength) = (start, index - start + 1) }
            }
            let quiet = Double(runLength * block) / 48000
            #expect(quiet >= gap - 0.3, "\(quiet) s of silence for a gap of \(gap) s")
            let before = Array(samples[(first * block)..<(runStart * block)])
            let after = Array(samples[((runStart + runLength) * block)...])
            #expect(before.count >= 48000 && after.count >= 48000, "tone \(before.count) samples before, \(after.count) after")
            // A second of each, clear of where the tone stopped and began again: its
            // tenths' median pitch (the gadget's player, in a starved guest, can
            // underrun and leave a few milliseconds out of one of them). A starved guest
            // delivers the USB sound late and unevenly, and the drift correction may
            // then stretch it by up to 0.5 % (996 Hz, found beside busy loops), which
            // the sidecar says.
            let stretched = try home.sidecar()["driftCorrection"] as? Double ?? 0
            let tolerance = stretched != 0 ? 1000 * 0.005 + 1 : 3
            for (name, part) in [("before", before.dropLast(9600).suffix(48000)), ("after", after.suffix(48000))] {
                let tenths = stride(from: part.startIndex, to: part.endIndex - 4799, by: 4800).map {
                    Probe.dominantFrequency(Array(part[$0..<($0 + 4800)]), rate: 48000).hertz
                }
                let median = tenths.sorted().dropFirst(tenths.count / 2).first ?? 0
                let blocks = Probe.toneBlocks(Array(part), frequency: 1000, rate: 48000)
                let jumps = Probe.phaseJumps(blocks)
                #expect(tenths.count == 10 && abs(median - 1000) < tolerance, """
                    the 1 kHz tone \(name) the gap (\(stretched) s stretched): tenths at \(tenths.map { String(format: "%.1f", $0) }) Hz; \
                    phase jumps at blocks \(jumps) of \(blocks.count): \(Probe.describeBlocks(blocks, around: jumps)); \
                    the gadget's player: \(USBCamera.toneLog.suffix(300))
                    """)
            }
        }
    }
}
