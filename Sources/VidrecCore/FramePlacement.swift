/// Where ``Timeline/place(_:arrival:)`` puts a frame, and the frame placed before it.
///
/// The timeline holds each frame's slot back until the next frame arrives: the caller
/// keeps the frame, writes the one it held before at ``previous`` (when set), and holds
/// this one when ``index`` is set. A held frame with no ``previous`` slot is left out
/// (a frame closer to its slot took it).
public struct FramePlacement: Equatable, Sendable {
    /// The final slot of the frame held since the previous call: write it there now.
    /// `nil` when no frame was held, or when the held frame is left out.
    public var previous: Int64?
    /// This frame's slot, to be held until the next call (it may still move back one
    /// slot); `nil` when the frame is not written (after the end, or no free slot).
    public var index: Int64?

    /// A placement: the held frame's final slot and this frame's slot.
    public init(previous: Int64?, index: Int64?) {
        self.previous = previous
        self.index = index
    }
}
