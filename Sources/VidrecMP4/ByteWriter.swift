/// Builds boxes as bytes, big-endian.
struct ByteWriter {
    private(set) var bytes: [UInt8] = []

    mutating func u8(_ value: UInt8) { bytes.append(value) }

    mutating func u32(_ value: UInt32) {
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    mutating func u64(_ value: UInt64) {
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    mutating func append(_ other: [UInt8]) { bytes += other }

    mutating func append<S: Sequence>(contentsOf other: S) where S.Element == UInt8 { bytes += other }

    /// A version-dependent field: 64 bits in version 1, 32 otherwise.
    mutating func sized(_ value: UInt64, version: UInt8) {
        if version == 1 { u64(value) } else { u32(UInt32(value)) }
    }

    /// Appends a box of `type` whose contents `body` writes (a 32-bit size, or a 64-bit
    /// one when the contents need it).
    mutating func box(_ type: BoxType, _ body: (inout ByteWriter) -> Void) {
        var inner = ByteWriter()
        body(&inner)
        if inner.bytes.count + 8 <= Int(UInt32.max) {
            u32(UInt32(inner.bytes.count + 8))
            u32(type.rawValue)
        } else {
            u32(1)
            u32(type.rawValue)
            u64(UInt64(inner.bytes.count + 16))
        }
        bytes += inner.bytes
    }

    /// Appends a full box (version and flags first).
    mutating func fullBox(_ type: BoxType, version: UInt8, flags: UInt32 = 0, _ body: (inout ByteWriter) -> Void) {
        box(type) { inner in
            inner.u32(UInt32(version) << 24 | flags & 0xFF_FFFF)
            body(&inner)
        }
    }
}
