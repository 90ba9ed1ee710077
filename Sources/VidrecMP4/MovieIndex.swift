/// Builds the index of a finished movie (a `moov` with full sample tables pointing at
/// the data already in the file) from the header written while recording and the
/// samples its fragments describe.
///
/// Everything the template says of the tracks (codec descriptions, handlers, user data)
/// is copied; the headers get their durations, each edit list its length, each sample
/// table its samples; `mvex` (fragment defaults) and sample groups are left out.
struct MovieIndex {
    let template: MovieTemplate
    let tracks: [UInt32: TrackSamples]

    /// The movie's duration in seconds and the `moov` box's bytes.
    func build() throws(MP4Error) -> (duration: Double, bytes: [UInt8]) {
        var trackBoxes: [[UInt8]] = []
        var movieDuration: UInt64 = 0
        for track in template.tracks {
            guard let samples = tracks[track.trackID], samples.count > 0 else { continue }
            let timing = TrackTiming(samples, template: track)
            let presented = rescale(timing.presentedDuration, from: track.timescale, to: template.timescale)
            let total = (track.emptyEdits + [track.hasEdits ? presented : rescale(timing.mediaDuration, from: track.timescale, to: template.timescale)])
                .reduce(UInt64(0)) { $0.addingReportingOverflow($1).overflow ? UInt64.max : $0 + $1 }
            movieDuration = max(movieDuration, total)
            trackBoxes.append(try trackBox(track, samples: samples, timing: timing, presented: presented, total: total))
        }
        guard !trackBoxes.isEmpty else { throw .nothingToIndex("no complete fragment", path: "") }
        var built: [[UInt8]] = []
        for child in template.children {
            switch child.type {
            case .mvhd: built.append(try headerWithDuration(child, fixedFields: 1, duration: movieDuration))
            case .trak: if child == template.tracks.first?.trak { built += trackBoxes }
            case .mvex: break
            default: built.append(Array(template.slice(child)))
            }
        }
        var writer = ByteWriter()
        writer.box(.moov) { moov in for part in built { moov.append(part) } }
        return (Double(movieDuration) / Double(template.timescale), writer.bytes)
    }

    /// `value` from one time scale to another, rounded; in 128 bits, and at most
    /// `UInt64.max` (a damaged file's times).
    private func rescale(_ value: UInt64, from: UInt32, to: UInt32) -> UInt64 {
        UInt64(clamping: (UInt128(value) * UInt128(to) + UInt128(from) / 2) / UInt128(from))
    }

    private func children(of box: Box) throws(MP4Error) -> [Box] {
        try ByteReader(template.bytes, from: Int(box.payloadOffset), to: Int(box.end), context: "\(box.type)").children()
    }

    private func trackBox(_ track: TrackTemplate, samples: TrackSamples, timing: TrackTiming,
                          presented: UInt64, total: UInt64) throws(MP4Error) -> [UInt8] {
        var built: [[UInt8]] = []
        for child in try children(of: track.trak) {
            switch child.type {
            case .tkhd: built.append(try headerWithDuration(child, fixedFields: 2, duration: total))
            case .edts: built.append(editBox(track, presented: presented))
            case .mdia: built.append(try mediaBox(child, samples: samples, timing: timing))
            default: built.append(Array(template.slice(child)))
            }
        }
        var writer = ByteWriter()
        writer.box(.trak) { trak in for part in built { trak.append(part) } }
        return writer.bytes
    }

    /// The edit list: the template's leading empty edits, then the media from its start
    /// (`media_time`) for `presented` movie time units.
    private func editBox(_ track: TrackTemplate, presented: UInt64) -> [UInt8] {
        let wide = presented > UInt64(UInt32.max) || track.emptyEdits.contains { $0 > UInt64(UInt32.max) }
            || Int32(exactly: track.mediaTime) == nil
        let version: UInt8 = wide ? 1 : 0
        var writer = ByteWriter()
        writer.box(.edts) { edts in
            edts.fullBox(.elst, version: version) { elst in
                elst.u32(UInt32(track.emptyEdits.count + 1))
                for empty in track.emptyEdits {
                    elst.sized(empty, version: version)
                    elst.sized(version == 1 ? UInt64.max : UInt64(UInt32.max), version: version)
                    elst.u32(0x0001_0000)
                }
                elst.sized(presented, version: version)
                elst.sized(version == 1 ? UInt64(bitPattern: track.mediaTime) : UInt64(UInt32(bitPattern: Int32(track.mediaTime))),
                           version: version)
                elst.u32(0x0001_0000)
            }
        }
        return writer.bytes
    }

    private func mediaBox(_ mdia: Box, samples: TrackSamples, timing: TrackTiming) throws(MP4Error) -> [UInt8] {
        let parts = try children(of: mdia)
        var built: [[UInt8]] = []
        for child in parts {
            switch child.type {
            case .mdhd: built.append(try headerWithDuration(child, fixedFields: 1, duration: timing.mediaDuration))
            case .minf:
                var minf = ByteWriter()
                let inner = try children(of: child)
                var tables: [UInt8] = []
                if let stbl = inner.first(where: { $0.type == .stbl }) {
                    let kept = try children(of: stbl).filter { $0.type == .stsd }
                    var stblWriter = ByteWriter()
                    stblWriter.box(.stbl) { box in
                        for part in kept { box.append(contentsOf: template.slice(part)) }
                        box.append(SampleTable(samples: samples, timing: timing).boxes())
                    }
                    tables = stblWriter.bytes
                }
                minf.box(.minf) { box in
                    for part in inner { box.append(contentsOf: part.type == .stbl ? tables[...] : template.slice(part)) }
                }
                built.append(minf.bytes)
            default: built.append(Array(template.slice(child)))
            }
        }
        var writer = ByteWriter()
        writer.box(.mdia) { box in for part in built { box.append(part) } }
        return writer.bytes
    }

    /// `mvhd`, `tkhd` or `mdhd` with `duration`: creation and modification times, then
    /// `fixedFields` 32-bit fields (the time scale; a track ID and a reserved field),
    /// then the duration, then the rest as it was. Version 1 (64-bit) where a value
    /// needs it.
    private func headerWithDuration(_ box: Box, fixedFields: Int, duration: UInt64) throws(MP4Error) -> [UInt8] {
        var reader = ByteReader(template.bytes, from: Int(box.payloadOffset), to: Int(box.end), context: "\(box.type)")
        let versionAndFlags = try reader.u32()
        let oldVersion = UInt8(versionAndFlags >> 24)
        let created = try reader.sized(oldVersion), modified = try reader.sized(oldVersion)
        var fixed: [UInt32] = []
        for _ in 0..<fixedFields { fixed.append(try reader.u32()) }
        _ = try reader.sized(oldVersion)
        let rest = template.bytes[reader.position..<reader.end]
        let limit = UInt64(UInt32.max)
        let version: UInt8 = oldVersion == 1 || created > limit || modified > limit || duration > limit ? 1 : 0
        var writer = ByteWriter()
        writer.fullBox(box.type, version: version, flags: versionAndFlags) { header in
            header.sized(created, version: version)
            header.sized(modified, version: version)
            for field in fixed { header.u32(field) }
            header.sized(duration, version: version)
            header.append(contentsOf: rest)
        }
        return writer.bytes
    }
}
