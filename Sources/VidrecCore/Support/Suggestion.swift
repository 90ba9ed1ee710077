/// "Did you mean …?": the closest candidate by edit distance, if it is close enough.
public enum Suggestion {
    /// The candidate within edit distance 2 (or a third of the word) of `word`, if any.
    public static func closest(to word: String, in candidates: [String]) -> String? {
        let limit = max(2, word.count / 3)
        let scored = candidates.map { ($0, distance(word.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= limit, best.1 > 0 || word != best.0 else { return nil }
        return best.0
    }

    /// Levenshtein distance.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1..<(b.count + 1) {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
