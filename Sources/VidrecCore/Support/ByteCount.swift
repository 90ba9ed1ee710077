import Foundation
import VidrecMedia

/// Parsing and printing sizes (`500K`, `50M`, `2G`) and bit rates (`128k`, `8M`).
public enum ByteCount {
    /// Parses `N`, `NK`, `NM`, `NG` or `NT` (powers of 1000; a trailing `B` and
    /// decimals allowed: `1.5G`). Returns `nil` for anything else or for zero.
    public static func parse(_ text: String) -> Int64? {
        var body = text.uppercased()
        if body.hasSuffix("B") { body.removeLast() }
        var multiplier: Int64 = 1
        if let unit = body.last, let scale = ["K": 1_000, "M": 1_000_000, "G": 1_000_000_000,
                                             "T": 1_000_000_000_000][String(unit)] {
            multiplier = Int64(scale)
            body.removeLast()
        }
        guard let value = Rational(parsing: body), value.numerator > 0 else { return nil }
        let product = Int128(value.numerator) * Int128(multiplier) / Int128(value.denominator)
        guard product > 0, product < Int128(Int64.max / 2) else { return nil }
        return Int64(product)
    }

    /// `4.2 MB`, `812 KB`, `1.20 GB` (powers of 1000, as disks are sold).
    public static func format(_ bytes: Int64) -> String {
        let value = Double(bytes)
        switch bytes {
        case ..<1_000: return "\(bytes) B"
        case ..<1_000_000: return String(format: "%.0f KB", value / 1e3)
        case ..<1_000_000_000: return String(format: "%.1f MB", value / 1e6)
        default: return String(format: "%.2f GB", value / 1e9)
        }
    }

    /// `128 kb/s`, `8 Mb/s`.
    public static func bitRate(_ bitsPerSecond: Int) -> String {
        if bitsPerSecond >= 1_000_000, bitsPerSecond % 100_000 == 0 {
            return "\(Rational(Int64(bitsPerSecond), 1_000_000)) Mb/s"
        }
        return "\(Rational(Int64(bitsPerSecond), 1_000)) kb/s"
    }
}
