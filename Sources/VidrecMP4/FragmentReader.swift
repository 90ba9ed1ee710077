/// Reads one movie fragment (`moof`) and adds its samples to the tracks, as ISO/IEC
/// 14496-12 §8.8 describes: `tfhd` for the track and its defaults, `tfdt` for the first
/// decode time, `trun` for the samples and where their bytes are.
///
/// Every number comes from a file that may be damaged: sample counts are bounded by the
/// bytes that describe them, decode times by ``largestDecodeTime``, positions by the
/// 64-bit range, and anything past those is ``MP4Error/malformed(_:path:)``.
struct FragmentReader {
    /// The latest decode time a sample may have: 2⁴⁸ ticks, 99 years at 90 kHz, so that
    /// the index's sums and differences of times never overflow.
    static let largestDecodeTime: Int64 = 1 << 48
    /// The most samples one `trun` may list when their sizes and durations are all
    /// defaults (no bytes each): a fragment of vidrec's holds a few dozen.
    static let largestDefaultRun = 1 << 20

    /// The tracks' defaults from `trex`, by track ID.
    let defaults: [UInt32: TrackDefaults]

    /// Adds the samples of the fragment whose box (header included) is `moof` and which
    /// starts at `offset` in the file.
    ///
    /// - Parameter nextDecodeTime: each track's decode time after the samples before;
    ///   used when a fragment has no `tfdt`, and updated.
    func read(_ moof: [UInt8], headerSize: Int, at offset: Int64, into tracks: inout [UInt32: TrackSamples],
              nextDecodeTime: inout [UInt32: Int64]) throws(MP4Error) {
        let top = ByteReader(moof, from: headerSize, context: "moof at \(offset)")
        var previousDataEnd = offset
        for traf in try top.children() where traf.type == .traf {
            let children = try ByteReader(moof, from: Int(traf.payloadOffset), to: Int(traf.end), context: "traf").children()
            guard let tfhd = children.first(where: { $0.type == .tfhd }) else { throw .malformed("traf without tfhd", path: "") }
            var header = ByteReader(moof, from: Int(tfhd.payloadOffset), to: Int(tfhd.end), context: "tfhd")
            let flags = try header.u32() & 0xFF_FFFF
            let trackID = try header.u32()
            guard var fallback = defaults[trackID] else { throw .malformed("fragment of unknown track \(trackID)", path: "") }
            var base = flags & 0x2_0000 != 0 ? offset : previousDataEnd
            if flags & 0x1 != 0 { base = Int64(bitPattern: try header.u64()) }
            if flags & 0x2 != 0 { try header.skip(4) }
            if flags & 0x8 != 0 { fallback.duration = try header.u32() }
            if flags & 0x10 != 0 { fallback.size = try header.u32() }
            if flags & 0x20 != 0 { fallback.flags = try header.u32() }

            var decodeTime = nextDecodeTime[trackID] ?? 0
            if let tfdt = children.first(where: { $0.type == .tfdt }) {
                var reader = ByteReader(moof, from: Int(tfdt.payloadOffset), to: Int(tfdt.end), context: "tfdt")
                let version = try reader.u8()
                try reader.skip(3)
                guard let time = Int64(exactly: try reader.sized(version)), time <= FragmentReader.largestDecodeTime else {
                    throw .malformed("tfdt of track \(trackID) past the largest decode time", path: "")
                }
                decodeTime = time
            }
            var samples = tracks[trackID] ?? TrackSamples(trackID: trackID)
            var dataPosition = base
            for trun in children where trun.type == .trun {
                var reader = ByteReader(moof, from: Int(trun.payloadOffset), to: Int(trun.end), context: "trun")
                try FragmentReader.readRun(&reader, base: base, fallback: fallback, trackID: trackID,
                                           dataPosition: &dataPosition, decodeTime: &decodeTime, into: &samples)
            }
            previousDataEnd = dataPosition
            nextDecodeTime[trackID] = decodeTime
            tracks[trackID] = samples
        }
    }

    /// Adds the samples of one `trun` box, read by `reader`, to `samples`, from
    /// `decodeTime` and the file position `dataPosition` (its data offset counts from
    /// `base`), moving both past them; a sample's duration, size and flags default to
    /// `fallback`'s.
    private static func readRun(_ reader: inout ByteReader, base: Int64, fallback: TrackDefaults, trackID: UInt32,
                                dataPosition: inout Int64, decodeTime: inout Int64, into samples: inout TrackSamples) throws(MP4Error) {
        let versionAndFlags = try reader.u32()
        let version = versionAndFlags >> 24, runFlags = versionAndFlags & 0xFF_FFFF
        let count = Int(try reader.u32())
        if runFlags & 0x1 != 0 {
            let (position, overflow) = base.addingReportingOverflow(Int64(Int32(bitPattern: try reader.u32())))
            guard !overflow else { throw .malformed("trun data offset past 64 bits", path: "") }
            dataPosition = position
        }
        let firstFlags: UInt32? = runFlags & 0x4 != 0 ? try reader.u32() : nil
        let bytesEach = [0x100, 0x200, 0x400, 0x800].filter { runFlags & UInt32($0) != 0 }.count * 4
        guard bytesEach > 0 ? count <= reader.remaining / bytesEach : count <= largestDefaultRun else {
            throw .malformed("trun of \(count) samples in \(reader.remaining) bytes", path: "")
        }
        for index in 0..<count {
            let duration = runFlags & 0x100 != 0 ? try reader.u32() : fallback.duration
            let size = runFlags & 0x200 != 0 ? try reader.u32() : fallback.size
            var sampleFlags = runFlags & 0x400 != 0 ? try reader.u32() : fallback.flags
            if index == 0, let firstFlags { sampleFlags = firstFlags }
            var composition: Int32 = 0
            if runFlags & 0x800 != 0 {
                let raw = try reader.u32()
                composition = version == 0 ? Int32(clamping: Int64(raw)) : Int32(bitPattern: raw)
            }
            samples.append(decodeTime: decodeTime, duration: duration, size: size, offset: dataPosition,
                           compositionOffset: composition, isSync: TrackDefaults.isSync(sampleFlags))
            decodeTime += Int64(duration)
            let (next, overflow) = dataPosition.addingReportingOverflow(Int64(size))
            guard !overflow, decodeTime <= largestDecodeTime else {
                throw .malformed("trun of track \(trackID) past the largest decode time or file position", path: "")
            }
            dataPosition = next
        }
    }
}
