import Testing
import VidrecCore
import VidrecMedia

@Suite struct DurationLimitTests {
    @Test func thirtySecondsAtThirtyFpsIsNineHundredFrames() throws {
        let limit = try #require(DurationLimit(parsing: "30"))
        #expect(limit.videoFrames(at: Rational(30)) == 900)
        #expect(limit.audioFrames(at: 48000, videoFrameRate: Rational(30)) == 1_440_000)
    }

    @Test func decimalLimitsRoundToTheNearestFrame() throws {
        // 2.5 s at 29.97 fps is 74.925 frames: 75.
        let limit = try #require(DurationLimit(parsing: "2.5"))
        #expect(limit.videoFrames(at: Rational(30000, 1001)) == 75)
        // Audio follows the video's real duration: 75 × 1001/30000 s × 44100 Hz.
        #expect(limit.audioFrames(at: 44100, videoFrameRate: Rational(30000, 1001)) == 110_360)
        #expect(try #require(DurationLimit(parsing: "0.01")).videoFrames(at: Rational(30)) == 1)
    }

    /// Every time option takes the same durations: seconds, or a number with s, m, h or d.
    @Test(arguments: [("90s", Rational(90)), ("5m", Rational(300)), ("1.5h", Rational(5400)), ("1h", Rational(3600)),
                      ("24h", Rational(86_400)), ("1d", Rational(86_400)), ("0.5s", Rational(1, 2)), ("30", Rational(30))] as [(String, Rational)])
    func limitsTakeUnits(text: String, seconds: Rational) throws {
        #expect(try #require(DurationLimit(parsing: text)).seconds == seconds)
    }

    @Test(arguments: ["0", "-1", "abc", "1e12", "86400.5", "", "inf", "25h", "2d", "5x", "m", "1h30m", "-5m", "0s"])
    func outOfRangeOrMalformedLimitsAreRejected(text: String) {
        #expect(DurationLimit(parsing: text) == nil)
    }
}
