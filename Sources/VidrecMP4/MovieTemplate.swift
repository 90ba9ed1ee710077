/// The movie header (`moov`) written while recording: tracks and codec descriptions,
/// empty sample tables, and `mvex` with each track's fragment defaults. The index is
/// built from it.
struct MovieTemplate: Sendable {
    /// The whole `moov` box.
    let bytes: [UInt8]
    /// Movie time units per second (`mvhd`).
    let timescale: UInt32
    /// The movie's duration in seconds, as `mvhd` says (0 while recording).
    let duration: Double
    let tracks: [TrackTemplate]
    /// Each track's fragment defaults (`trex`), by track ID; empty for an indexed movie.
    let defaults: [UInt32: TrackDefaults]
    /// The boxes directly inside `moov`.
    let children: [Box]

    /// Whether this is a movie header for fragments (it has `mvex`), rather than a
    /// finished index.
    var isForFragments: Bool { children.contains { $0.type == .mvex } }

    /// Reads a `moov` box whose bytes (header included) are `bytes`.
    init(_ bytes: [UInt8]) throws(MP4Error) {
        self.bytes = bytes
        children = try ByteReader(bytes, from: 8, context: "moov").children()
        guard let mvhd = children.first(where: { $0.type == .mvhd }) else { throw .malformed("moov without mvhd", path: "") }
        var (version, header) = try ByteReader.afterTimes(of: mvhd, in: bytes)
        timescale = try header.u32()
        guard timescale > 0 else { throw .malformed("the movie has no time scale", path: "") }
        duration = Double(try header.sized(version)) / Double(timescale)
        var tracks: [TrackTemplate] = []
        for trak in children where trak.type == .trak { tracks.append(try TrackTemplate.read(bytes, trak: trak)) }
        self.tracks = tracks
        var defaults: [UInt32: TrackDefaults] = [:]
        if let mvex = children.first(where: { $0.type == .mvex }) {
            for trex in try ByteReader(bytes, from: Int(mvex.payloadOffset), to: Int(mvex.end), context: "mvex").children()
            where trex.type == .trex {
                var reader = ByteReader(bytes, from: Int(trex.payloadOffset), to: Int(trex.end), context: "trex")
                let (trackID, values) = try TrackDefaults.read(&reader)
                defaults[trackID] = values
            }
        }
        self.defaults = defaults
    }

    /// The bytes of `box`.
    func slice(_ box: Box) -> ArraySlice<UInt8> { bytes[Int(box.offset)..<Int(box.end)] }
}
