import Glibc
import VidrecMedia
import VidrecSystem

/// Finishes a movie written as fragments in place, the way OBS's hybrid MP4 does: the
/// fragments' data stays where it is and only an index is written (a complete `moov`
/// whose sample tables point at it), so finishing costs the size of the index, not of
/// the movie, and the disk never holds the recording twice.
///
/// The index goes into the space vidrec reserved at the front of the file when it fits
/// there (then the movie opens at once, also streamed over HTTP), and after the data
/// otherwise. The fragment headers (`moof`), the recording's movie header and `mfra`
/// become `free` boxes. The steps are ordered so that a crash at any point leaves a
/// file that indexing again finishes: the index is written and synced before anything
/// that was there changes, and the change that makes it the file's index comes last.
public struct FragmentedMovieIndexer: Sendable {
    /// Creates an indexer.
    public init() {}

    /// The least room worth keeping for an index: the movie header of a recording alone
    /// takes about 1.5 KB, before any sample is listed.
    public static let smallestReserve = 4096

    /// How many bytes to reserve at the front of a recording for its index, for
    /// `seconds` of `framesPerSecond` video and `audioPacketsPerSecond` audio (about
    /// 20 bytes a frame, 4 an audio packet, and the chunks of ten fragments a second).
    public static func reserve(seconds: Double, framesPerSecond: Double, audioPacketsPerSecond: Double) -> Int {
        let perSecond = framesPerSecond * 20 + audioPacketsPerSecond * 4 + 10 * 2 * 16
        return smallestReserve + Int((perSecond * seconds * 1.25).rounded(.up))
    }

    /// Writes the `free` box that reserves `bytes` (at least 8) at the front of a file.
    public static func reservation(bytes: Int) -> [UInt8] {
        precondition(bytes >= 8)
        var writer = ByteWriter()
        writer.u32(UInt32(bytes))
        writer.u32(BoxType.free.rawValue)
        writer.append([UInt8](repeating: 0, count: bytes - 8))
        return writer.bytes
    }

    /// Indexes the movie at `path` in place; does nothing but read it when it is already
    /// indexed.
    ///
    /// - Parameter trimToCommonEnd: end every track where the shortest ends (within one
    ///   video frame): for a recording cut off by a crash.
    /// - Returns: the movie's duration in seconds.
    /// - Throws: ``MP4Error`` when the file holds no movie header or no complete
    ///   fragment; ``SystemError`` when it cannot be read or written.
    @discardableResult
    public func index(_ path: String, trimToCommonEnd: Bool) throws -> Double {
        let fd = try FileDescriptor.open(path, O_RDWR)
        return try fd.closeAfter {
            do {
                return try index(fd, path: path, trimToCommonEnd: trimToCommonEnd)
            } catch let error as MP4Error {
                switch error {
                case let .malformed(what, ""): throw MP4Error.malformed(what, path: path)
                case let .nothingToIndex(what, ""): throw MP4Error.nothingToIndex(what, path: path)
                default: throw error
                }
            }
        }
    }

    private func index(_ fd: FileDescriptor, path: String, trimToCommonEnd: Bool) throws -> Double {
        let layout = try MovieLayout.read(fd, path: path)
        if layout.index != nil {
            // Finished before; a crash may have left the old file type box behind.
            for stray in layout.strayFileTypes { try retype(fd, stray, to: .free, path: path) }
            return try MovieTemplate(layout.indexBytes).duration
        }
        guard let header = layout.header else { throw MP4Error.nothingToIndex("no movie header", path: path) }
        guard !layout.fragments.isEmpty else { throw MP4Error.nothingToIndex("no complete fragment", path: path) }
        let template = try MovieTemplate(layout.headerBytes)

        let tracks = try samples(in: layout, template: template, fd, path: path, trimToCommonEnd: trimToCommonEnd)
        let (duration, index) = try MovieIndex(template: template, tracks: tracks).build()

        // 1. Cut off what follows the last whole fragment, and write the index where it
        //    goes, still disguised (inside the reserved box, or typed `free`).
        if layout.fileSize > layout.validEnd { try fd.truncate(to: layout.validEnd, path) }
        let fileType = layout.fileTypeBytes
        let inFront: Bool
        if let reserved = layout.reserved, !fileType.isEmpty,
           case let left = reserved.size - Int64(fileType.count + index.count), left == 0 || (left >= 8 && left <= Int64(UInt32.max)) {
            inFront = true
            try write(fd, index, at: Int64(fileType.count), path: path)
            if left > 0 { try write(fd, FragmentedMovieIndexer.freeHeader(left), at: Int64(fileType.count + index.count), path: path) }
        } else {
            inFront = false
            var disguised = index
            disguised.replaceSubrange(4..<8, with: FragmentedMovieIndexer.typeBytes(.free))
            try write(fd, disguised, at: layout.validEnd, path: path)
        }
        try fd.sync(path)
        // 2. The fragment headers and the recording's header become free space.
        for fragment in layout.fragments where fragment.header.type != .free {
            try retype(fd, fragment.header, to: .free, path: path)
        }
        try retype(fd, header, to: .free, path: path)
        // 3. The index becomes the file's: the file type box over the reservation (then
        //    the old one becomes free space), or the appended box's type.
        if inFront, let oldFileType = layout.fileType {
            try write(fd, fileType, at: 0, path: path)
            try retype(fd, oldFileType, to: .free, path: path)
        } else {
            try write(fd, FragmentedMovieIndexer.typeBytes(.moov), at: layout.validEnd + 4, path: path)
        }
        try fd.sync(path)
        return duration
    }

    /// The samples of every track in `layout`'s whole fragments, as the fragment headers
    /// list them, without a torn write's (a sample whose bytes lie outside its
    /// fragment's data, and those after it), trimmed to the streams' common end when asked.
    private func samples(in layout: MovieLayout, template: MovieTemplate, _ fd: FileDescriptor, path: String,
                         trimToCommonEnd: Bool) throws -> [UInt32: TrackSamples] {
        var tracks: [UInt32: TrackSamples] = [:]
        var nextDecodeTime: [UInt32: Int64] = [:]
        let reader = FragmentReader(defaults: template.defaults)
        // Where each track's first sample from a torn write is: one whose bytes lie
        // outside its fragment's data. It and those after it are left out.
        var torn: [UInt32: Int] = [:]
        for fragment in layout.fragments {
            let bytes = try MovieLayout.read(fd, fragment.header, path: path)
            let before = tracks.mapValues(\.count)
            try reader.read(bytes, headerSize: fragment.header.headerSize, at: fragment.header.offset, into: &tracks,
                            nextDecodeTime: &nextDecodeTime)
            for (id, samples) in tracks where torn[id] == nil {
                torn[id] = ((before[id] ?? 0)..<samples.count).first { index in
                    samples.offsets[index] < fragment.data.payloadOffset
                        || samples.offsets[index] + Int64(samples.sizes[index]) > fragment.data.end
                }
            }
        }
        for (id, count) in torn { tracks[id]!.keepFirst(count) }
        if trimToCommonEnd { CommonEndTrimmer.trim(&tracks, templates: template.tracks) }
        return tracks
    }

    private func retype(_ fd: FileDescriptor, _ box: Box, to type: BoxType, path: String) throws {
        try write(fd, FragmentedMovieIndexer.typeBytes(type), at: box.offset + 4, path: path)
    }

    private func write(_ fd: FileDescriptor, _ bytes: [UInt8], at offset: Int64, path: String) throws {
        try bytes.withUnsafeBytes { try fd.writeAll($0.baseAddress!, count: bytes.count, at: offset, path) }
    }

    private static func typeBytes(_ type: BoxType) -> [UInt8] {
        var writer = ByteWriter()
        writer.u32(type.rawValue)
        return writer.bytes
    }

    private static func freeHeader(_ size: Int64) -> [UInt8] {
        var writer = ByteWriter()
        writer.u32(UInt32(size))
        writer.u32(BoxType.free.rawValue)
        return writer.bytes
    }
}
