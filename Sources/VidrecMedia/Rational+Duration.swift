extension Rational {
    /// Parses a duration as every time option takes it: a number of seconds (`30`, `2.5`)
    /// or a number with a unit, `s`, `m`, `h` or `d` (`90s`, `5m`, `1.5h`, `7d`); `nil`
    /// when it is neither (or overflows).
    public init?(duration text: String) {
        let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        if let last = text.last, let unit = units[last] {
            guard let value = Rational(parsing: String(text.dropLast()))?.multiplied(by: Rational(unit)) else { return nil }
            self = value
            return
        }
        guard let value = Rational(parsing: text) else { return nil }
        self = value
    }
}
