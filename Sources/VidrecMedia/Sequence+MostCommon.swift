extension Sequence where Element: BinaryInteger {
    /// The most common positive value, the smaller of two as common; `nil` with none:
    /// the frame period of a stream from its gaps between times, which camera drops
    /// lengthen only here and there.
    public func mostCommonPositive() -> Element? {
        var counts: [Element: Int] = [:]
        for value in self where value > 0 { counts[value, default: 0] += 1 }
        return counts.max { $0.value < $1.value || $0.value == $1.value && $0.key > $1.key }?.key
    }
}
