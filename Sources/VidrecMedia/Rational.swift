/// An exact rational number, used for frame rates, time bases and durations.
///
/// Timestamps in vidrec are counted in a stream's time base (for example `1/30` for
/// video, `1/48000` for audio); decisions compare rationals exactly, as FFmpeg's
/// `av_compare_ts` does, instead of floating-point seconds.
public struct Rational: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The numerator; carries the sign.
    public let numerator: Int64
    /// The denominator; always positive.
    public let denominator: Int64

    /// Creates `numerator/denominator`, reduced to lowest terms.
    ///
    /// - Precondition: `denominator != 0`.
    public init(_ numerator: Int64, _ denominator: Int64 = 1) {
        precondition(denominator != 0, "Rational with a zero denominator")
        let sign: Int64 = denominator < 0 ? -1 : 1
        let divisor = Rational.gcd(Swift.abs(numerator), Swift.abs(denominator))
        self.numerator = sign * numerator / Swift.max(divisor, 1)
        self.denominator = sign * denominator / Swift.max(divisor, 1)
    }

    /// Parses a decimal (`30`, `2.5`, `29.97`) or a fraction (`30000/1001`) exactly.
    ///
    /// Returns `nil` for anything else, including exponents, `nan` and values whose
    /// digits do not fit in 64 bits.
    public init?(parsing text: String) {
        if let slash = text.firstIndex(of: "/") {
            guard let n = Int64(text[..<slash]), let d = Int64(text[text.index(after: slash)...]), d > 0 else {
                return nil
            }
            self.init(n, d)
            return
        }
        var digits = Substring(text)
        var negative = false
        if digits.first == "-" || digits.first == "+" {
            negative = digits.first == "-"
            digits = digits.dropFirst()
        }
        let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count),
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              !(parts[0].isEmpty && (parts.count == 1 || parts[1].isEmpty))
        else { return nil }
        let fraction = parts.count == 2 ? parts[1] : ""
        guard fraction.count <= 9, let whole = Int64(parts[0].isEmpty ? "0" : parts[0]) else { return nil }
        var scale: Int64 = 1
        for _ in 0..<fraction.count { scale *= 10 }
        let (scaled, overflow) = whole.multipliedReportingOverflow(by: scale)
        guard !overflow else { return nil }
        let value = scaled + (Int64(fraction.isEmpty ? "0" : fraction) ?? 0)
        self.init(negative ? -value : value, scale)
    }

    /// The value as a `Double`, for display only.
    public var doubleValue: Double { Double(numerator) / Double(denominator) }

    /// `1 / self`. - Precondition: `self != 0`.
    public var reciprocal: Rational { Rational(denominator, numerator) }

    /// `self × other`, exactly. Traps on overflow of the reduced result.
    public static func * (lhs: Rational, rhs: Rational) -> Rational {
        let a = gcd(Swift.abs(lhs.numerator), rhs.denominator)
        let b = gcd(Swift.abs(rhs.numerator), lhs.denominator)
        return Rational((lhs.numerator / Swift.max(a, 1)) * (rhs.numerator / Swift.max(b, 1)),
                        (lhs.denominator / Swift.max(b, 1)) * (rhs.denominator / Swift.max(a, 1)))
    }

    /// `self − other`, exactly.
    public func subtracting(_ other: Rational) -> Rational {
        let divisor = Rational.gcd(denominator, other.denominator)
        let scale = other.denominator / divisor
        return Rational(numerator * scale - other.numerator * (denominator / divisor), denominator * scale)
    }

    /// Rounds to the nearest integer, halves away from zero (as `av_rescale` does).
    public var rounded: Int64 {
        let half = denominator / 2
        if numerator >= 0 { return (numerator + half) / denominator }
        return -((-numerator + half) / denominator)
    }

    /// The largest integer not greater than `self`.
    public var floor: Int64 {
        numerator >= 0 ? numerator / denominator : -((-numerator + denominator - 1) / denominator)
    }

    /// Compares exactly by cross-multiplying in 128 bits, like `av_compare_ts`.
    public static func < (lhs: Rational, rhs: Rational) -> Bool {
        Int128(lhs.numerator) * Int128(rhs.denominator) < Int128(rhs.numerator) * Int128(lhs.denominator)
    }

    /// `30`, `2.5` or `30000/1001`: the shortest exact spelling.
    public var description: String {
        if denominator == 1 { return "\(numerator)" }
        var d = denominator
        var places = 0
        while d % 10 == 0 || d % 2 == 0 || d % 5 == 0 {
            if d % 10 == 0 { d /= 10 } else if d % 2 == 0 { d /= 2 } else { d /= 5 }
            places += 1
            if places > 9 { break }
        }
        if d == 1, places <= 9 {
            // A terminating decimal: print it exactly.
            var text = String(format: "%.\(places)f", doubleValue)
            while text.contains(".") && (text.hasSuffix("0") || text.hasSuffix(".")) { text.removeLast() }
            return text
        }
        return "\(numerator)/\(denominator)"
    }

    static func gcd(_ a: Int64, _ b: Int64) -> Int64 {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return a
    }
}
