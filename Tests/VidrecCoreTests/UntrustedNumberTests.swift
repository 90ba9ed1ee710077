import Testing
import VidrecMedia

/// Numbers from users and files at the edges of 64 bits: parsed or refused, and the
/// arithmetic reports what does not fit instead of trapping.
@Suite struct UntrustedNumberTests {
    @Test(arguments: ["-9223372036854775808/1", "-9223372036854775808/3", "9223372036854775807/9223372036854775807",
                      "-9223372036854775808", "9223372036854775807", "0.000000001", "-0.5", "+7"])
    func extremesParseWithoutATrap(text: String) throws {
        let value = try #require(Rational(parsing: text))
        // The printed value reads back as the same number, exactly.
        #expect(Rational(parsing: value.description) == value, "\(text) → \(value)")
        _ = value.rounded
        _ = value.floor
    }

    @Test(arguments: ["9223372036854775807.9", "9223372036854775808", "99999999999.999999999", "1/0", "-1/-1"])
    func whatDoesNotFitIsRefused(text: String) {
        #expect(Rational(parsing: text) == nil)
    }

    @Test func productsAndSumsThatDoNotFitAreReportedNotTrapped() {
        let huge = Rational(Int64.max)
        #expect(huge.multiplied(by: Rational(2)) == nil)
        #expect(huge.adding(Rational(1)) == nil)
        #expect(Rational(Int64.min).multiplied(by: Rational(-1)) == nil)
        #expect(Rational(Int64.max, 3).multiplied(by: Rational(3)) == huge)
        // Cross-reduced in 128 bits: the result fits though the plain product does not.
        #expect(Rational(Int64.max, 2).multiplied(by: Rational(2, Int64.max)) == Rational(1))
        #expect(Rational(Int64.max, 2).description == "4611686018427387903.5")
        #expect(Rational(Int64.min).rounded == Int64.min && Rational(Int64.max).floor == Int64.max)
    }

    @Test func aTimestampDaysIntoARecordingAtAnOddRateIsPlacedWithoutOverflow() {
        // 40 days in nanoseconds at 2997/125 fps: exactly, the numerator needs 65 bits.
        let nanoseconds = Int128(40 * 86_400) * 1_000_000_000 + 1
        let position = Rational(approximating: nanoseconds * 2997, 1_000_000_000 * 125)
        #expect(position.rounded == 82_861_056)
        #expect(Rational(approximating: 6, 4) == Rational(3, 2), "exact when it fits")
    }
}
