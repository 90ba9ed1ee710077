import Testing
import VidrecMedia

@Suite struct RationalTests {
    @Test(arguments: [
        ("30", 30, 1), ("2.5", 5, 2), ("29.97", 2997, 100), ("30000/1001", 30000, 1001), ("0.1", 1, 10), (".5", 1, 2),
    ])
    func decimalsAndFractionsParseExactly(text: String, numerator: Int64, denominator: Int64) throws {
        let value = try #require(Rational(parsing: text))
        #expect(value == Rational(numerator, denominator))
    }

    @Test(arguments: ["abc", "", "1e3", "1.2.3", "nan", "--1", "1/0", "1/-2", ".", "0.1234567891"])
    func malformedNumbersAreRejected(text: String) {
        #expect(Rational(parsing: text) == nil)
    }

    @Test func roundingIsHalfAwayFromZero() {
        #expect(Rational(5, 2).rounded == 3)
        #expect(Rational(-5, 2).rounded == -3)
        #expect(Rational(7, 3).rounded == 2)
        #expect(Rational(-7, 3).floor == -3)
    }

    @Test func comparisonIsExactWhereDoublesAreNot() {
        // 1/3 vs 333333333/1000000000: close in floating point, ordered exactly here.
        #expect(Rational(333_333_333, 1_000_000_000) < Rational(1, 3))
        #expect(Rational(30000, 1001) < Rational(30))
    }

    @Test func descriptionIsTheShortestExactSpelling() {
        #expect(Rational(5, 2).description == "2.5")
        #expect(Rational(30).description == "30")
        #expect(Rational(30000, 1001).description == "30000/1001")
    }
}
