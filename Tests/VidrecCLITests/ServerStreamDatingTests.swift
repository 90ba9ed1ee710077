import Testing
import VidrecALSA

/// How the first periods from a sound server are dated: together, from the median of
/// their estimates of the stream's start, so that one wrong delay cannot move the sound.
@Suite struct ServerStreamDatingTests {
    /// 1024-frame periods at 48 kHz, read as they are captured, `delays` frames behind.
    /// Returns the dates the periods got (ns, with the first sample captured at 1 s).
    static func dates(delays: [Int?]) -> [Int64] {
        var dating = ServerStreamDating(sampleRate: 48000)
        var dates: [Int64] = []
        for (index, delay) in delays.enumerated() {
            // Period `index` ends at this many frames after the start, and is read then
            // plus the true delay of 480 frames (10 ms).
            let now = 1_000_000_000 + Int64((index + 1) * 1024 + 480) * 1_000_000_000 / 48000
            dates += dating.add(frames: 1024, now: now, delay: delay)
        }
        return dates + dating.release()
    }

    /// Where period `index` starts, in ns.
    static func truth(_ index: Int) -> Int64 { 1_000_000_000 + Int64(index * 1024) * 1_000_000_000 / 48000 }

    @Test func periodsAreHeldForAQuarterSecondThenDatedInOneRow() {
        var dating = ServerStreamDating(sampleRate: 48000)
        var released: [Int] = []
        for index in 0..<20 {
            guard !dating.isSettled else { break }
            released.append(dating.add(frames: 1024, now: 2_000_000_000 + Int64(index) * 21_333_333, delay: 480).count)
        }
        // 12 periods of 1024 frames are the first to reach 12000 frames (0.25 s).
        #expect(released == Array(repeating: 0, count: 11) + [12])
        #expect(dating.isSettled)
    }

    @Test func oneDelayOffByTheServersWholeBufferMovesNothing() {
        // PulseAudio's first reports counting its four 25-ms fragments (4800 frames more).
        let delays: [Int?] = [5280, 5280, 5280] + Array(repeating: 480, count: 9)
        let dates = Self.dates(delays: delays)
        #expect(dates.count == 12)
        for (index, date) in dates.enumerated() {
            #expect(abs(date - Self.truth(index)) <= 1, "period \(index): \(date) against \(Self.truth(index))")
        }
        // Dated one by one, the first period would have been 100 ms early.
        let alone = 1_000_000_000 + Int64(1024 + 480) * 1_000_000_000 / 48000 - Int64(5280 + 1024) * 1_000_000_000 / 48000
        #expect(Self.truth(0) - alone == 100_000_000)
    }

    @Test func aStreamEndingOrBreakingBeforeItSettlesIsDatedFromWhatItHas() {
        let dates = Self.dates(delays: [480, nil, 480])
        #expect(dates.count == 3)
        #expect(zip(dates, (0..<3).map(Self.truth)).allSatisfy { abs($0 - $1) <= 1 })
        // With no delay known at all, the newest frame is taken as captured when read.
        var dating = ServerStreamDating(sampleRate: 48000)
        #expect(dating.add(frames: 480, now: 5_000_000_000, delay: nil).isEmpty)
        #expect(dating.add(frames: 480, now: 5_010_000_000, delay: nil).isEmpty)
        #expect(dating.release() == [4_990_000_000, 5_000_000_000])
        #expect(dating.isSettled && dating.release().isEmpty)
    }
}
