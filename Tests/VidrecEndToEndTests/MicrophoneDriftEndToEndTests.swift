import Foundation
import Glibc
import Testing

extension KernelDriverTests {
    /// A microphone whose clock runs off CLOCK_MONOTONIC, as every real one does a
    /// little: snd-aloop's `PCM Rate Shift 100000` control runs the loopback card's clock
    /// 0.3 % fast (both the player's side and vidrec's), set with amixer.
    @Suite struct MicrophoneDriftEndToEndTests {
        /// Sets the rate shift of the loopback card's first playback and capture streams
        /// (100000 is the system clock's own rate); back to 100000 at deinit.
        final class DriftingCard {
            static let controls = ["iface=PCM,name=PCM Rate Shift 100000", "iface=PCM,name=PCM Rate Shift 100000,device=1"]
            init(shift: Int) throws {
                for control in Self.controls {
                    try #require(try DeviceFaultEndToEndTests.run("/usr/bin/amixer", ["-q", "-c", "Loopback", "cset", control, "\(shift)"]) == 0,
                                 "amixer cset \(control) \(shift)")
                }
            }
            deinit {
                for control in Self.controls {
                    _ = try? DeviceFaultEndToEndTests.run("/usr/bin/amixer", ["-q", "-c", "Loopback", "cset", control, "100000"])
                }
            }
        }

        @Test func aDriftingMicrophoneClockIsCorrectedByResamplingWithTheToneUnbroken() throws {
            let card = try DriftingCard(shift: 100_300)
            let home = try Home()
            let tone = try TonePlayer(frequency: 440)
            let result = try VidrecProcess.run(["start", "--camera", "0", "--mic", "hw:Loopback,1,0", "--quality", "low", "--max", "20"],
                                               home: home.path)
            withExtendedLifetime(tone) {}
            withExtendedLifetime(card) {}
            #expect(result.code == 0, "\(result.err)")
            let sidecar = try home.sidecar()
            let file = try #require(home.files(in: home.pending, ending: ".mp4").first)
            try Probe.expectStreamsEndTogether(file, frameRate: 15)
            try #require((sidecar["overruns"] as? Int ?? 0) == 0, "an overrun would put a real gap in the tone: \(result.err)")
            #expect(sidecar["insertedSilence"] as? Double == 0 && sidecar["droppedAudio"] as? Double == 0, "\(sidecar)")
            // 0.3 % of 20 s is 60 ms: past the 20 ms tolerance, so the correction ran; by
            // the card's clock the tone is 440 Hz, by the system's (the movie's, once
            // corrected) 440 Hz times the clock's rate. Samples were added for a slow
            // clock, removed for a fast one.
            let samples = try Probe.decodedAudio(file)
            let corrected = Probe.dominantFrequency(Array(samples[(samples.count - 480_000)...]), rate: 48000).hertz
            let correction = try #require(sidecar["driftCorrection"] as? Double, "\(sidecar)")
            #expect(abs(abs(corrected - 440) - 440 * 0.003) < 0.6, "the corrected tone: \(corrected) Hz")
            #expect(abs(correction) >= 0.02 && abs(correction) <= 0.08, "drift correction \(correction) s")
            #expect((correction > 0) == (corrected < 440), "correction \(correction) s, tone \(corrected) Hz")
            #expect(result.err.contains("the microphone's clock drift corrected by resampling"), "\(result.err)")
            // Loud throughout (nothing padded in), and measured against a clock between the
            // two rates, the tone's phase runs on from 20-ms block to block. Correcting
            // 60 ms by cutting or padding 30-ms blocks, as vidrec once did, jumps it at
            // each correction; resampling never does (DriftResamplerTests shows the audio
            // handed to the encoder has no step at all). A small disturbance that leaves
            // the phase where it was shows up in the decoded AAC about once in three 20-s
            // runs, with or without stretching: libavcodec's AAC encoder makes it (the
            // ffmpeg command line encodes the very same PCM with the very same blip), so
            // one is let through.
            let blocks = Probe.toneBlocks(Array(samples[4800...]), frequency: (440 + corrected) / 2, rate: 48000)
            #expect(blocks.count >= 900)
            let jumps = Probe.phaseJumps(blocks, tolerance: 0.6)
            #expect(jumps.count <= 1, "phase jumps at blocks \(jumps)")
            #expect(blocks.dropLast().filter { $0.amplitude < 1000 }.isEmpty, "no silent block")
        }
    }
}
