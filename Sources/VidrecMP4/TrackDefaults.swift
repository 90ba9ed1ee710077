/// A track's sample defaults from the movie header's `trex` box, which a fragment's
/// `tfhd` and `trun` fall back on.
struct TrackDefaults: Sendable {
    var duration: UInt32
    var size: UInt32
    var flags: UInt32

    /// Reads a `trex` box's contents; returns its track ID and defaults.
    static func read(_ reader: inout ByteReader) throws(MP4Error) -> (UInt32, TrackDefaults) {
        try reader.skip(4)                                   // version, flags
        let trackID = try reader.u32()
        try reader.skip(4)                                   // default sample description index
        let duration = try reader.u32(), size = try reader.u32(), flags = try reader.u32()
        return (trackID, TrackDefaults(duration: duration, size: size, flags: flags))
    }

    /// Whether sample `flags` mark a sync sample (`sample_is_non_sync_sample` clear).
    static func isSync(_ flags: UInt32) -> Bool { flags & 0x1_0000 == 0 }
}
