import Foundation

/// Converts between V4L2's 32-bit pixel format codes and their four-letter names.
enum FourCC {
    /// `0x56595559` → `YUYV`.
    static func name(_ code: UInt32) -> String {
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: code >> (8 * $0)) }
        return String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespaces)
    }

    /// `YUYV` → `0x56595559`.
    static func code(_ name: String) -> UInt32 {
        var bytes = Array(name.utf8.prefix(4))
        while bytes.count < 4 { bytes.append(0x20) }
        return bytes.enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * $1.offset) }
    }
}
