/// Where ``Timeline/place(_:arrival:)`` puts a frame, and which frames held back before
/// it are now final.
///
/// The timeline holds frames back for a few slots (``Timeline/holdDepth``), since a
/// late frame may still move back into a hole it left. The caller keeps the held
/// frames in order, oldest first, and for each placement: drops the newest held frame
/// when ``replacesNewestHeld``, appends this frame when ``index`` is set, then writes
/// the oldest ``released``.count held frames at those slots.
public struct FramePlacement: Equatable, Sendable {
    /// The final slots of the oldest held frames (this one included, at the end of
    /// video), oldest first: write them now.
    public var released: [Int64]
    /// This frame's slot (it may still move back); `nil` when the frame is not written
    /// (after the end, or no free slot).
    public var index: Int64?
    /// Whether this frame takes the newest held frame's slot: that frame is left out.
    public var replacesNewestHeld: Bool

    /// A placement; by default nothing is released and the frame is not written.
    public init(released: [Int64] = [], index: Int64? = nil, replacesNewestHeld: Bool = false) {
        self.released = released
        self.index = index
        self.replacesNewestHeld = replacesNewestHeld
    }
}
