/// Reads big-endian fields from bytes in memory, as MP4 stores them; a read past the end
/// throws instead of trapping, since the bytes come from a file that may be torn.
struct ByteReader {
    let bytes: [UInt8]
    private(set) var position: Int
    let end: Int
    /// What is being read, for errors.
    let context: String

    init(_ bytes: [UInt8], from start: Int = 0, to end: Int? = nil, context: String) {
        self.bytes = bytes
        position = start
        self.end = min(end ?? bytes.count, bytes.count)
        self.context = context
    }

    var remaining: Int { end - position }

    mutating func skip(_ count: Int) throws(MP4Error) {
        guard count >= 0, count <= remaining else { throw malformed("\(count) bytes to skip") }
        position += count
    }

    mutating func u8() throws(MP4Error) -> UInt8 {
        guard remaining >= 1 else { throw malformed("1 byte") }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func u32() throws(MP4Error) -> UInt32 {
        guard remaining >= 4 else { throw malformed("4 bytes") }
        defer { position += 4 }
        return (0..<4).reduce(0) { $0 << 8 | UInt32(bytes[position + $1]) }
    }

    mutating func u64() throws(MP4Error) -> UInt64 {
        guard remaining >= 8 else { throw malformed("8 bytes") }
        defer { position += 8 }
        return (0..<8).reduce(0) { $0 << 8 | UInt64(bytes[position + $1]) }
    }

    /// A version-dependent field: 64 bits in version 1, 32 otherwise.
    mutating func sized(_ version: UInt8) throws(MP4Error) -> UInt64 {
        version == 1 ? try u64() : UInt64(try u32())
    }

    /// A reader of the contents of `box` in `bytes` (a `mvhd`, `tkhd` or `mdhd`) past its
    /// version, flags, creation and modification times; and its version.
    static func afterTimes(of box: Box, in bytes: [UInt8]) throws(MP4Error) -> (version: UInt8, reader: ByteReader) {
        var reader = ByteReader(bytes, from: Int(box.payloadOffset), to: Int(box.end), context: "\(box.type)")
        let version = try reader.u8()
        try reader.skip(3)
        _ = try reader.sized(version)
        _ = try reader.sized(version)
        return (version, reader)
    }

    /// The child boxes between here and `end`, in order.
    func children() throws(MP4Error) -> [Box] {
        var boxes: [Box] = []
        var at = position
        while at + 8 <= end {
            var header = ByteReader(bytes, from: at, to: end, context: context)
            var size = Int64(try header.u32())
            let type = BoxType(rawValue: try header.u32())
            var headerSize = 8
            if size == 1 {
                size = Int64(bitPattern: try header.u64())
                headerSize = 16
            } else if size == 0 {
                size = Int64(end - at)
            }
            // Sizes come from the file: compared with what is left, never added to a position.
            guard size >= Int64(headerSize), size <= Int64(end - at) else { throw malformed("box \(type) of \(size) bytes") }
            boxes.append(Box(type: type, offset: Int64(at), headerSize: headerSize, size: size))
            at += Int(size)
        }
        return boxes
    }

    private func malformed(_ what: String) -> MP4Error {
        .malformed("\(context) ends before \(what)", path: "")
    }
}
