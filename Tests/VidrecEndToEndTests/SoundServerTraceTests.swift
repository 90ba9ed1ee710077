import Testing

/// The VM's PulseAudio test reads vidrec's sound trace to tell a server's misreported
/// start from vidrec's own error: the reading, on traces made up for it.
@Suite struct SoundServerTraceTests {
    /// 10 s of 512-frame periods at 48 kHz, the first captured at 1 s, each read 30 ms
    /// after its last frame was captured and reported 30 ms old, plus `extra(k)` ms.
    static func trace(extra: (Int) -> Int) -> String {
        (0..<938).map { k in
            let captured = 1_000_000_000 + Int64(k + 1) * 512 * 1_000_000_000 / 48000
            let delay = (30 + extra(k)) * 48
            return "vidrec: sound trace: period \(k + 1): 512 frames read at \(captured + 30_000_000) ns, snd_pcm_delay \(delay)\n"
        }.joined() + "vidrec: recording 10.0 s\n"
    }

    @Test func aStartReportedRightIsNotAMisreport() {
        let trace = SoundServerTrace(Self.trace { k in k % 3 == 2 ? 15 : 0 })
        #expect(trace.periods.count == 938)
        #expect(trace.starts(rate: 48000).allSatisfy { abs($0.start - 1_000_000_000) <= 16_000_000 })
        #expect(trace.misreportedStart(rate: 48000) == nil)
    }

    /// Delays 100 ms too long for the first 3.8 s (about 356 periods): off by 0.1 s,
    /// until the last of them was read.
    @Test func aStartReportedTooOldIsFoundWithWhenItEnded() throws {
        let trace = SoundServerTrace(Self.trace { k in k < 356 ? 100 : 0 })
        let misreport = try #require(trace.misreportedStart(rate: 48000))
        #expect(abs(misreport.seconds - 0.1) < 0.001)
        #expect(misreport.until == trace.periods[355].read)
    }

    @Test func periodsWithoutADelayAreLeftOutOfTheEstimates() {
        let trace = SoundServerTrace("vidrec: sound trace: period 1: 512 frames read at 5 ns, snd_pcm_delay unknown\n")
        #expect(trace.periods.count == 1 && trace.periods[0].delay == nil)
        #expect(trace.starts(rate: 48000).isEmpty && trace.misreportedStart(rate: 48000) == nil)
    }
}
