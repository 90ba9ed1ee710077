/// `--pre`/`--post`: how much of a recording waiting for triggers is kept around each
/// event.
public struct EventSettings: Sendable, Equatable {
    /// Seconds kept in memory from before a trigger, and written with the event.
    public var pre: Double
    /// Seconds recorded after the last trigger before the event's file closes.
    public var post: Double

    /// Creates event settings; see the properties for the meaning of each argument.
    public init(pre: Double, post: Double) {
        self.pre = pre
        self.post = post
    }
}
