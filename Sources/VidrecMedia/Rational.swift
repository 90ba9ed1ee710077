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
    /// - Precondition: `denominator != 0`, and the reduced value fits in 64 bits (only
    ///   `Int64.min` over a negative denominator does not). Values from users and files
    ///   go through ``init(exactly:_:)`` or ``init(parsing:)``, which never trap.
    public init(_ numerator: Int64, _ denominator: Int64 = 1) {
        guard let value = Rational(exactly: Int128(numerator), Int128(denominator)) else {
            preconditionFailure("Rational \(numerator)/\(denominator) has a zero denominator or does not fit in 64 bits")
        }
        self = value
    }

    /// `numerator/denominator` reduced to lowest terms, or `nil` when the denominator is
    /// zero or the reduced value does not fit in 64 bits.
    public init?(exactly numerator: Int128, _ denominator: Int128) {
        guard denominator != 0 else { return nil }
        let divisor = Swift.max(Rational.gcd(numerator.magnitude, denominator.magnitude), 1)
        var n = numerator / Int128(divisor), d = denominator / Int128(divisor)
        if d < 0 { (n, d) = (-n, -d) }
        guard let small = Int64(exactly: n), let smallDenominator = Int64(exactly: d) else { return nil }
        self.numerator = small
        self.denominator = smallDenominator
    }

    /// `numerator/denominator` exactly when its reduced form fits in 64 bits, else the
    /// nearest multiple of a millionth (timestamps many days into a recording at a rate
    /// such as 2997/125, whose exact position needs more bits).
    ///
    /// - Precondition: `denominator > 0`, and the value's magnitude below 2⁶³ / 10⁶.
    public init(approximating numerator: Int128, _ denominator: Int128) {
        if let exact = Rational(exactly: numerator, denominator) {
            self = exact
            return
        }
        let millionths = (numerator * 1_000_000 + (numerator >= 0 ? denominator / 2 : -denominator / 2)) / denominator
        self.init(Int64(millionths), 1_000_000)
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
            self.init(exactly: Int128(n), Int128(d))
            return
        }
        if let whole = Int64(text) {
            self.init(whole)
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
        let (value, carry) = scaled.addingReportingOverflow(Int64(fraction.isEmpty ? "0" : fraction) ?? 0)
        guard !overflow, !carry else { return nil }
        self.init(negative ? -value : value, scale)
    }

    /// The value as a `Double`, for display only.
    public var doubleValue: Double { Double(numerator) / Double(denominator) }

    /// `1 / self`. - Precondition: `self != 0`.
    public var reciprocal: Rational { Rational(denominator, numerator) }

    /// `self × other`, exactly, or `nil` when the reduced result does not fit in 64 bits.
    public func multiplied(by other: Rational) -> Rational? {
        Rational(exactly: Int128(numerator) * Int128(other.numerator), Int128(denominator) * Int128(other.denominator))
    }

    /// `self + other`, exactly, or `nil` when the reduced result does not fit in 64 bits.
    public func adding(_ other: Rational) -> Rational? {
        Rational(exactly: Int128(numerator) * Int128(other.denominator) + Int128(other.numerator) * Int128(denominator),
                 Int128(denominator) * Int128(other.denominator))
    }

    /// `self × other`, exactly. For timestamps and rates vidrec has already checked;
    /// untrusted values use ``multiplied(by:)``.
    ///
    /// - Precondition: the reduced result fits in 64 bits.
    public static func * (lhs: Rational, rhs: Rational) -> Rational {
        guard let product = lhs.multiplied(by: rhs) else {
            preconditionFailure("Rational \(lhs) × \(rhs) does not fit in 64 bits")
        }
        return product
    }

    /// `self − other`, exactly.
    ///
    /// - Precondition: the reduced result fits in 64 bits.
    public func subtracting(_ other: Rational) -> Rational {
        guard let difference = adding(Rational(exactly: -Int128(other.numerator), Int128(other.denominator))!) else {
            preconditionFailure("Rational \(self) − \(other) does not fit in 64 bits")
        }
        return difference
    }

    /// Rounds to the nearest integer, halves away from zero (as `av_rescale` does).
    public var rounded: Int64 {
        let (n, d) = (Int128(numerator), Int128(denominator))
        // |n| / d rounded fits in 64 bits: d ≥ 1.
        return Int64(n >= 0 ? (n + d / 2) / d : -((-n + d / 2) / d))
    }

    /// The largest integer not greater than `self`.
    public var floor: Int64 {
        let (n, d) = (Int128(numerator), Int128(denominator))
        return Int64(n >= 0 ? n / d : -((-n + d - 1) / d))
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
            // A terminating decimal: print it exactly, in integers.
            var scale: Int128 = 1
            for _ in 0..<places { scale *= 10 }
            let scaled = Int128(numerator) * (scale / Int128(denominator))
            let magnitude = scaled.magnitude
            var fraction = String(magnitude % UInt128(scale))
            fraction = String(repeating: "0", count: places - fraction.count) + fraction
            while fraction.hasSuffix("0") { fraction.removeLast() }
            let whole = "\(scaled < 0 ? "-" : "")\(magnitude / UInt128(scale))"
            return fraction.isEmpty ? whole : whole + "." + fraction
        }
        return "\(numerator)/\(denominator)"
    }

    /// The greatest common divisor of `a` and `b` (Euclid's); `gcd(0, b)` is `b`.
    public static func gcd(_ a: UInt128, _ b: UInt128) -> UInt128 {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return a
    }
}
