import Foundation
import Glibc
import Testing

extension KernelDriverTests {
    /// A microphone behind a desktop's sound server: Debian 12's PipeWire, WirePlumber
    /// and pipewire-alsa over the loopback card (``PipeWireSession``), as a desktop
    /// routes ALSA's `default`.
    @Suite struct SoundServerEndToEndTests {
        @Test func theDefaultMicrophoneRecordsThroughPipeWireOnlyInTheSessionAndPipeWireHoldsTheCard() throws {
            let session = try PipeWireSession()
            let home = try Home()
            let devices = try VidrecProcess.run(["devices"], home: home.path, environment: session.environment)
            #expect(devices.out.contains("PipeWire: --mic default records from its default source"), "\(devices.out)")
            // PipeWire's source reads the card's device 0: the tone goes into device 1.
            let tone = try TonePlayer(frequency: 440, device: 1)
            let recording = try VidrecProcess(["start", "--camera", "0", "--mic", "default", "--quality", "low", "--max", "20"],
                                              home: home.path, environment: session.environment)
            #expect(recording.waitForError(containing: "vidrec: recording "))
            #expect(try recording.waitUntilRecorded(1) != nil)
            // While it records, PipeWire holds the card's capture device: the one-line
            // error names who holds it and what to do.
            let busy = try VidrecProcess.run(["start", "--camera", "test", "--mic", "hw:Loopback,0,0", "--max", "1"], home: try Home().path)
            #expect(busy.code == 69, "\(busy.err)")
            #expect(busy.err.range(of: #"microphone 'hw:Loopback,0,0' is in use by (pipewire|wireplumber) \(pid [0-9]+\); the sound server holds the card"#,
                                   options: .regularExpression) != nil, "\(busy.err)")
            let result = recording.wait()
            withExtendedLifetime(tone) {}
            #expect(result.code == 0, "\(result.err)")
            let file = try #require(home.files(in: home.pending, ending: ".mp4").first, "\(result.err)")
            try Probe.expectStreamsEndTogether(file, frameRate: 15)
            let sidecar = try home.sidecar()
            #expect(sidecar["insertedSilence"] as? Double == 0 && sidecar["droppedAudio"] as? Double == 0, "\(sidecar)")
            #expect(tone.underruns == 0, "the player underran: the tone it sent has gaps of its own")
            // The tone, unbroken from 20-ms block to block and as loud throughout (at the
            // source's volume, WirePlumber's 40 % for a new one), from half a second on:
            // PipeWire delivers silence while its source starts.
            let samples = try Probe.decodedAudio(file)
            let blocks = Probe.toneBlocks(Array(samples[24000...]), frequency: 440, rate: 48000)
            #expect(blocks.count >= 900)
            let loudness = blocks.map(\.amplitude).sorted()[blocks.count / 2]
            #expect(loudness > 100, "the tone is there: \(loudness)")
            let jumps = Probe.phaseJumps(blocks, minimumAmplitude: loudness / 2, tolerance: 0.6)
            #expect(jumps.count <= 1, "phase jumps at blocks \(jumps)")
            #expect(blocks.dropLast().filter { $0.amplitude < loudness / 2 }.isEmpty, "no quiet block")

            // Outside the session (no XDG_RUNTIME_DIR, as under cron): a one-line error.
            let outside = try VidrecProcess.run(["start", "--camera", "test", "--mic", "default", "--max", "1"], home: home.path)
            #expect(outside.code == 69, "\(outside.err)")
            #expect(outside.err.contains("microphone 'default' goes through the PipeWire sound server, which this process cannot reach (XDG_RUNTIME_DIR is not set"),
                    "\(outside.err)")
            #expect(outside.err.contains("run vidrec as a user service"), "\(outside.err)")
        }
    }
}
