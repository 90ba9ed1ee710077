/// What the movie header written while recording says of one track: its ID, kind, time
/// scale and edit list, and where its boxes are, to be copied into the index.
struct TrackTemplate: Sendable {
    /// The `trak` box, in the template's bytes.
    let trak: Box
    let trackID: UInt32
    /// The handler type: `vide`, `soun`, …
    let handler: BoxType
    /// Media time units per second (`mdhd`).
    let timescale: UInt32
    /// Where the presentation starts in the media (the edit list's `media_time`: the
    /// encoder's delay, B-frame reordering or AAC priming); 0 without an edit list.
    let mediaTime: Int64
    /// Leading empty edits (a track that starts late), in movie time units.
    let emptyEdits: [UInt64]
    /// Whether the track has an edit list.
    let hasEdits: Bool

    var isVideo: Bool { handler == .vide }

    /// Reads the `trak` at `trak` in `bytes`.
    static func read(_ bytes: [UInt8], trak: Box) throws(MP4Error) -> TrackTemplate {
        let children = try ByteReader(bytes, from: Int(trak.payloadOffset), to: Int(trak.end), context: "trak").children()
        guard let tkhd = children.first(where: { $0.type == .tkhd }),
              let mdia = children.first(where: { $0.type == .mdia }) else { throw .malformed("trak without tkhd or mdia", path: "") }
        var (_, header) = try ByteReader.afterTimes(of: tkhd, in: bytes)
        let trackID = try header.u32()

        let media = try ByteReader(bytes, from: Int(mdia.payloadOffset), to: Int(mdia.end), context: "mdia").children()
        guard let mdhd = media.first(where: { $0.type == .mdhd }),
              let hdlr = media.first(where: { $0.type == .hdlr }) else { throw .malformed("mdia without mdhd or hdlr", path: "") }
        var (_, mediaHeader) = try ByteReader.afterTimes(of: mdhd, in: bytes)
        let timescale = try mediaHeader.u32()
        guard timescale > 0 else { throw .malformed("track \(trackID) has no time scale", path: "") }
        var handlerReader = ByteReader(bytes, from: Int(hdlr.payloadOffset), to: Int(hdlr.end), context: "hdlr")
        try handlerReader.skip(8)
        let handler = BoxType(rawValue: try handlerReader.u32())

        var mediaTime: Int64 = 0
        var emptyEdits: [UInt64] = []
        var hasEdits = false
        if let edts = children.first(where: { $0.type == .edts }),
           let elst = try ByteReader(bytes, from: Int(edts.payloadOffset), to: Int(edts.end), context: "edts").children()
               .first(where: { $0.type == .elst }) {
            hasEdits = true
            var reader = ByteReader(bytes, from: Int(elst.payloadOffset), to: Int(elst.end), context: "elst")
            let editVersion = try reader.u8()
            try reader.skip(3)
            for _ in 0..<(try reader.u32()) {
                let duration = try reader.sized(editVersion)
                let time = editVersion == 1 ? Int64(bitPattern: try reader.u64()) : Int64(Int32(bitPattern: try reader.u32()))
                try reader.skip(4)
                if time == -1 { emptyEdits.append(duration) } else { mediaTime = time; break }
            }
        }
        return TrackTemplate(trak: trak, trackID: trackID, handler: handler, timescale: timescale, mediaTime: mediaTime,
                             emptyEdits: emptyEdits, hasEdits: hasEdits)
    }
}
