/// The sample table (`stbl` contents) of one track of an indexed movie, built from its
/// samples: decode-time deltas (`stts`), composition offsets (`ctts`), sync samples
/// (`stss`), sizes (`stsz`), chunks (`stsc`) and chunk offsets (`stco`, or `co64` past
/// 4 GB). A chunk is a run of samples whose bytes follow each other in the file.
struct SampleTable {
    let samples: TrackSamples
    /// The decode-time deltas and composition offsets to write (the samples' own, with
    /// the last ones adjusted by ``TrackTiming``).
    let timing: TrackTiming

    /// The table boxes, in the order ISO/IEC 14496-12 lists them.
    func boxes() -> [UInt8] {
        var writer = ByteWriter()
        writeTimeToSample(&writer)
        writeCompositionOffsets(&writer)
        writeSyncSamples(&writer)
        writeSizes(&writer)
        writeChunks(&writer)
        return writer.bytes
    }

    private func runs<T: Equatable>(_ values: [T]) -> [(count: UInt32, value: T)] {
        var result: [(count: UInt32, value: T)] = []
        for value in values {
            if let last = result.last, last.value == value {
                result[result.count - 1].count += 1
            } else {
                result.append((1, value))
            }
        }
        return result
    }

    private func writeTimeToSample(_ writer: inout ByteWriter) {
        let entries = runs(timing.durations)
        writer.fullBox(.stts, version: 0) { box in
            box.u32(UInt32(entries.count))
            for entry in entries { box.u32(entry.count); box.u32(entry.value) }
        }
    }

    private func writeCompositionOffsets(_ writer: inout ByteWriter) {
        let offsets = timing.compositionOffsets
        guard offsets.contains(where: { $0 != 0 }) else { return }
        let entries = runs(offsets)
        let version: UInt8 = offsets.contains { $0 < 0 } ? 1 : 0
        writer.fullBox(.ctts, version: version) { box in
            box.u32(UInt32(entries.count))
            for entry in entries { box.u32(entry.count); box.u32(UInt32(bitPattern: entry.value)) }
        }
    }

    private func writeSyncSamples(_ writer: inout ByteWriter) {
        guard samples.isSync.contains(false) else { return }
        let numbers = samples.isSync.indices.filter { samples.isSync[$0] }
        writer.fullBox(.stss, version: 0) { box in
            box.u32(UInt32(numbers.count))
            for index in numbers { box.u32(UInt32(index + 1)) }
        }
    }

    private func writeSizes(_ writer: inout ByteWriter) {
        let sizes = samples.sizes
        let constant = sizes.first.map { first in sizes.allSatisfy { $0 == first } } ?? true
        writer.fullBox(.stsz, version: 0) { box in
            box.u32(constant ? sizes.first ?? 0 : 0)
            box.u32(UInt32(sizes.count))
            if !constant { for size in sizes { box.u32(size) } }
        }
    }

    private func writeChunks(_ writer: inout ByteWriter) {
        var chunkOffsets: [Int64] = []
        var samplesPerChunk: [UInt32] = []
        for index in 0..<samples.count {
            let offset = samples.offsets[index]
            if index > 0, offset == samples.offsets[index - 1] + Int64(samples.sizes[index - 1]) {
                samplesPerChunk[samplesPerChunk.count - 1] += 1
            } else {
                chunkOffsets.append(offset)
                samplesPerChunk.append(1)
            }
        }
        var entries: [(first: UInt32, count: UInt32)] = []
        for (index, count) in samplesPerChunk.enumerated() where entries.last?.count != count {
            entries.append((UInt32(index + 1), count))
        }
        writer.fullBox(.stsc, version: 0) { box in
            box.u32(UInt32(entries.count))
            for entry in entries { box.u32(entry.first); box.u32(entry.count); box.u32(1) }
        }
        let wide = chunkOffsets.contains { $0 > Int64(UInt32.max) }
        writer.fullBox(wide ? .co64 : .stco, version: 0) { box in
            box.u32(UInt32(chunkOffsets.count))
            for offset in chunkOffsets {
                if wide { box.u64(UInt64(offset)) } else { box.u32(UInt32(offset)) }
            }
        }
    }
}
