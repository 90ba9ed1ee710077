import VidrecMedia
import VidrecSystem

/// The top-level boxes of a movie file written as fragments (or part-way through being
/// indexed, or already indexed), as ``FragmentedMovieIndexer`` needs them.
///
/// A fragment box that was already turned into `free` (by an indexing that was cut
/// short) is still recognised by its first child (`mfhd`), and the recording's movie
/// header by its `mvex`; so indexing again after a crash finds everything it needs.
struct MovieLayout {
    /// The file's size when it was read.
    var fileSize: Int64 = 0
    /// Space vidrec reserved at the front of the file for the index (a `free` box at
    /// offset 0, before `ftyp`).
    var reserved: Box?
    /// The file type box, where it still is one.
    var fileType: Box?
    /// Its bytes.
    var fileTypeBytes: [UInt8] = []
    /// The movie header written while recording (a `moov`, or a `free` that was one).
    var header: Box?
    /// Its bytes.
    var headerBytes: [UInt8] = []
    /// A finished index: a `moov` without `mvex`.
    var index: Box?
    /// Its bytes.
    var indexBytes: [UInt8] = []
    /// Each complete fragment: its `moof` (or the `free` it became) and its `mdat`.
    var fragments: [(header: Box, data: Box)] = []
    /// Where the last complete fragment ends: what follows (a torn fragment, `mfra`, an
    /// index appended by an indexing that was cut short) is cut off.
    var validEnd: Int64 = 0
    /// `ftyp` boxes after the first (one left behind by an indexing that was cut short).
    var strayFileTypes: [Box] = []

    /// Reads the top-level boxes of the open file `fd` (`path` for messages).
    static func read(_ fd: FileDescriptor, path: String) throws -> MovieLayout {
        let size = try fd.size(path)
        var layout = MovieLayout(fileSize: size)
        var position: Int64 = 0
        var pendingHeader: Box?
        while position + 8 <= size {
            guard let box = try readHeader(fd, at: position, fileSize: size, path: path) else { break }
            defer { position = box.end }
            switch box.type {
            case .ftyp:
                if layout.fileType == nil {
                    layout.fileType = box
                    layout.fileTypeBytes = try read(fd, box, path: path)
                } else {
                    layout.strayFileTypes.append(box)
                }
                if layout.fragments.isEmpty { layout.validEnd = box.end }
            case .moov:
                let bytes = try read(fd, box, path: path)
                let template = try MovieTemplate(bytes)
                if template.isForFragments {
                    if layout.header == nil { (layout.header, layout.headerBytes) = (box, bytes) }
                } else if layout.index == nil {
                    (layout.index, layout.indexBytes) = (box, bytes)
                }
                if layout.fragments.isEmpty { layout.validEnd = box.end }
            case .moof:
                pendingHeader = box
            case .mdat:
                if let header = pendingHeader {
                    layout.fragments.append((header, box))
                    layout.validEnd = box.end
                }
                pendingHeader = nil
            case .free, .skip:
                if position == 0, layout.fileType == nil {
                    layout.reserved = box
                    continue
                }
                // A box that was a movie header or a fragment header before an indexing
                // that was cut short turned it into `free`.
                let first = try firstChild(fd, box, path: path)
                if first == .mfhd {
                    pendingHeader = box
                } else if first == .mvhd, layout.header == nil {
                    let bytes = try read(fd, box, path: path)
                    let template = try MovieTemplate(bytes)
                    if template.isForFragments {
                        (layout.header, layout.headerBytes) = (box, bytes)
                        if layout.fragments.isEmpty { layout.validEnd = box.end }
                    }
                }
            default:
                if layout.fragments.isEmpty { layout.validEnd = box.end }
            }
        }
        return layout
    }

    /// The header of the box at `offset`; `nil` when it runs past the end of the file (a
    /// torn write).
    private static func readHeader(_ fd: FileDescriptor, at offset: Int64, fileSize: Int64, path: String) throws -> Box? {
        var bytes = [UInt8](repeating: 0, count: 16)
        let count = try bytes.withUnsafeMutableBytes { try fd.read(into: $0.baseAddress!, count: 16, at: offset, path) }
        var reader = ByteReader(Array(bytes[0..<count]), context: "box at \(offset)")
        guard count >= 8 else { return nil }
        var size = Int64(try reader.u32())
        let type = BoxType(rawValue: try reader.u32())
        var headerSize = 8
        if size == 1 {
            guard count >= 16 else { return nil }
            size = Int64(bitPattern: try reader.u64())
            headerSize = 16
        } else if size == 0 {
            size = fileSize - offset
        }
        guard size >= Int64(headerSize), size <= fileSize - offset else { return nil }
        return Box(type: type, offset: offset, headerSize: headerSize, size: size)
    }

    /// The whole of `box`, header included.
    static func read(_ fd: FileDescriptor, _ box: Box, path: String) throws -> [UInt8] {
        guard box.size <= 256 << 20 else { throw MP4Error.malformed("a \(box.type) box of \(box.size) bytes", path: path) }
        var bytes = [UInt8](repeating: 0, count: Int(box.size))
        let count = try bytes.withUnsafeMutableBytes { try fd.read(into: $0.baseAddress!, count: Int(box.size), at: box.offset, path) }
        guard count == Int(box.size) else { throw MP4Error.malformed("\(box.type) at \(box.offset) is cut short", path: path) }
        return bytes
    }

    /// The type of the first box inside `box`, if it holds one.
    private static func firstChild(_ fd: FileDescriptor, _ box: Box, path: String) throws -> BoxType? {
        guard box.size >= Int64(box.headerSize) + 8 else { return nil }
        var bytes = [UInt8](repeating: 0, count: 8)
        _ = try bytes.withUnsafeMutableBytes { try fd.read(into: $0.baseAddress!, count: 8, at: box.payloadOffset, path) }
        var reader = ByteReader(bytes, context: "free")
        let size = try reader.u32()
        guard size >= 8, Int64(size) <= box.size - Int64(box.headerSize) else { return nil }
        return BoxType(rawValue: try reader.u32())
    }
}
