import Foundation
import Testing

extension EndToEndTests {
    /// A desktop whose sound server is PulseAudio, on the host: Debian's `pulseaudio` with
    /// a 440 Hz sine source and a sink (``PulseAudioSession``), ALSA's `default` routed
    /// through it. Over a real card, in the VM: ``KernelDriverTests/SoundServerEndToEndTests``.
    @Suite struct PulseAudioEndToEndTests {
        /// `devices` names PulseAudio and lists its sources from `pactl` (not the monitor
        /// of its sink), each with the `--mic` that records from it; ALSA's `default` and
        /// the listed source both record the tone through it; outside the session, ALSA's
        /// `default` no longer goes to PulseAudio, and the server is not listed as such.
        @Test func theDefaultMicrophoneAndTheListedSourceRecordThroughPulseAudio() throws {
            let session = try PulseAudioSession(.tone(440))
            let home = try Home()
            try PulseAudioSession.routeDefault(home: home.path)
            let listed = try VidrecProcess.run(["devices", "--json"], home: home.path, environment: session.environment)
            #expect(listed.code == 0, "\(listed.err)")
            let object = try JSONSerialization.jsonObject(with: Data(listed.out.utf8)) as? [String: Any]
            let server = try #require(object?["soundServer"] as? [String: Any], "\(listed.out)")
            #expect(server["name"] as? String == "PulseAudio" && server["mic"] as? String == "default", "\(server)")
            let sources = try #require(server["sources"] as? [[String: Any]], "\(server)")
            let mic = "pulse:DEVICE=\(PulseAudioSession.sourceName)"
            #expect(sources.map { $0["mic"] as? String } == [mic], "\(sources)")
            #expect(sources.first?["default"] as? Bool == true, "\(sources)")
            let text = try VidrecProcess.run(["devices"], home: home.path, environment: session.environment)
            #expect(text.out.contains("PulseAudio: --mic default records from its default source"), "\(text.out)")
            #expect(text.out.contains("(default): --mic \(mic)"), "\(text.out)")

            for choice in ["default", mic] {
                try Self.expectTheToneRecorded(through: choice, session: session, traced: choice == mic)
            }

            // Outside the session (no XDG_RUNTIME_DIR, as under cron): ALSA's `default`
            // and `pulse` cannot reach the server; nothing is listed, and the reason is.
            let outside = try VidrecProcess.run(["devices", "--json"], home: home.path)
            let outsideServer = (try JSONSerialization.jsonObject(with: Data(outside.out.utf8)) as? [String: Any])?["soundServer"] as? [String: Any]
            #expect(outsideServer?["sources"] is NSNull, "\(outside.out)")
            #expect((outsideServer?["problem"] as? String)?.hasPrefix("XDG_RUNTIME_DIR is not set") == true, "\(outside.out)")
        }

        /// Records 3 s through `choice` and finds the tone in the movie; with `traced`,
        /// every period read is traced (VIDREC_SOUND_TRACE=1) on standard error, with the
        /// delay the server gave.
        static func expectTheToneRecorded(through choice: String, session: PulseAudioSession, traced: Bool) throws {
            let recordingHome = try Home()
            try PulseAudioSession.routeDefault(home: recordingHome.path)
            let result = try VidrecProcess.run(["start", "--camera", "test", "--mic", choice, "--quality", "low", "--max", "3"],
                                               home: recordingHome.path,
                                               environment: session.environment.merging(traced ? ["VIDREC_SOUND_TRACE": "1"] : [:]) { $1 })
            #expect(result.code == 0, "\(choice): \(result.err)")
            let trace = result.err.split(separator: "\n").filter { $0.hasPrefix("vidrec: sound trace: ") }
            let periods = trace.compactMap { line in
                line.wholeMatch(of: /vidrec: sound trace: period (\d+): (\d+) frames read at (\d+) ns, snd_pcm_delay (\d+)/)
                    .map { (Int($0.1)!, Int($0.2)!, Int64($0.3)!, Int($0.4)!) }
            }
            if traced {
                // At least 2 s of frames (the sine source runs late: above), numbered in
                // order, read in time order, each with the delay the server gave. (The
                // sine source hands over 2 s at a time: the delay counts it down.)
                #expect(periods.count == trace.count && periods.count >= 100, "\(trace.prefix(5))")
                #expect(periods.map(\.0) == Array(1..<periods.count + 1))
                #expect(periods.map(\.1).reduce(0, +) >= 2 * 48000, "\(periods.map(\.1).reduce(0, +)) frames traced")
                #expect(zip(periods, periods.dropFirst()).allSatisfy { $0.2 <= $1.2 })
            } else {
                #expect(trace.isEmpty, "no trace unless asked for: \(trace.prefix(3))")
            }
            let file = try #require(recordingHome.files(in: recordingHome.pending, ending: ".mp4").first, "\(result.err)")
            try Probe.expectStreamsEndTogether(file, frameRate: 15)
            // The first second and a half: the sine source's sound reaches a client
            // late (the last second had not come when the camera stopped: silence
            // at the end, which the end line reports); a card's source, in the VM,
            // is placed within a frame.
            let samples = try Probe.decodedAudio(file)
            #expect(samples.count >= 144000, "\(choice): \(samples.count) samples")
            let heard = Probe.dominantFrequency(Array(samples[4800..<min(samples.count, 72000)]), rate: 48000)
            #expect(abs(heard.hertz - 440) < 5 && heard.share > 0.8, "the tone through \(choice): \(heard)")
        }
    }
}
