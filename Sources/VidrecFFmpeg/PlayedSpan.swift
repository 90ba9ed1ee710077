import VidrecMedia

/// How far one stream of a movie plays through without a hole, from its packets as read.
///
/// A recording cut short by a crash holds a prefix of each stream in decode order. With
/// B-frames that prefix can end with a reference frame whose B-frames, shown before it,
/// were not written yet: the latest packet's end then lies up to a few frames beyond the
/// last picture that plays in turn. A missing packet comes after the last one read in
/// decode order, and no packet is shown before it is decoded, so every missing picture
/// is shown after the last decode time: a hole in the presentation times after that
/// point is where the stream stops playing, while a hole before it is a frame the camera
/// dropped (the picture before it stays on screen). A stream read to its end has no hole
/// after its last decode time, and plays to its latest packet's end.
///
/// Times are in the stream's own time base.
struct PlayedSpan {
    private var packets: [(presentation: Int64, duration: Int64)] = []
    private var lastDecode = Int64.min

    /// Notes a packet read from the stream.
    ///
    /// - Parameters:
    ///   - presentation: Its presentation time (`pts`).
    ///   - decode: Its decode time (`dts`), or nil when the file does not say; taken as
    ///     the presentation time then.
    ///   - duration: How long it lasts (`duration`); 0 when the file does not say.
    mutating func add(presentation: Int64, decode: Int64?, duration: Int64) {
        packets.append((presentation, max(0, duration)))
        lastDecode = max(lastDecode, decode ?? presentation)
    }

    /// The end of the latest packet, or nil with no packet.
    var latestEnd: Int64? { packets.map { $0.presentation + $0.duration }.max() }

    /// The end of what plays through from the first picture, or nil with no packet.
    var end: Int64? {
        guard let latest = latestEnd else { return nil }
        let shown = packets.sorted { $0.presentation < $1.presentation }
        guard let period = Self.period(shown) else { return latest }
        for index in shown.indices.dropFirst() where shown[index].presentation > lastDecode {
            let previous = shown[index - 1]
            // More than one and a half frames apart: at least one picture between them is missing.
            if shown[index].presentation - previous.presentation > period + period / 2 {
                return previous.presentation + max(previous.duration, period)
            }
        }
        return latest
    }

    /// One frame (or one audio packet): the most common packet duration (the gap between
    /// decode times, which camera drops lengthen only here and there), else the most
    /// common gap between presentation times; nil when neither says.
    private static func period(_ shown: [(presentation: Int64, duration: Int64)]) -> Int64? {
        shown.map(\.duration).mostCommonPositive()
            ?? zip(shown.dropFirst(), shown).map { $0.presentation - $1.presentation }.mostCommonPositive()
    }
}
