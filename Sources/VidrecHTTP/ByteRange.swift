import Foundation

/// One range of a file asked for with a `Range: bytes=…` header (RFC 9110 §14), as a
/// browser's video player asks to seek: `bytes=a-b`, `bytes=a-` or `bytes=-n` (the last
/// `n` bytes).
public struct ByteRange: Sendable, Equatable {
    /// The first byte.
    public let offset: Int64
    /// How many bytes.
    public let count: Int64

    /// Creates a range; see the properties for the meaning of each argument.
    public init(offset: Int64, count: Int64) {
        self.offset = offset
        self.count = count
    }

    /// What a `Range` header asks of a file of `length` bytes.
    public enum Request: Sendable, Equatable {
        /// The whole file: no header, or one this server does not serve in part (several
        /// ranges, another unit, a malformed one: RFC 9110 lets a server ignore those).
        case whole
        /// One range, within the file.
        case range(ByteRange)
        /// A range that starts past the end (`416 Range Not Satisfiable`).
        case unsatisfiable
    }

    /// Reads `header` (the `Range` field, or `nil`) for a file of `length` bytes.
    public static func request(_ header: String?, length: Int64) -> Request {
        guard let header, header.hasPrefix("bytes="), !header.contains(",") else { return .whole }
        let spec = header.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2 else { return .whole }
        let first = Int64(parts[0]), last = Int64(parts[1])
        if parts[0].isEmpty {
            // The last n bytes.
            guard let suffix = last, suffix > 0 else { return parts[1].isEmpty ? .whole : .unsatisfiable }
            let count = min(suffix, length)
            return count == 0 ? .unsatisfiable : .range(ByteRange(offset: length - count, count: count))
        }
        guard let start = first, start >= 0, parts[1].isEmpty || (last != nil && last! >= start) else { return .whole }
        guard start < length else { return .unsatisfiable }
        let end = min(last ?? length - 1, length - 1)
        return .range(ByteRange(offset: start, count: end - start + 1))
    }
}
