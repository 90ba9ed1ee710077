import Foundation

/// libcamera's V4L2 compatibility layer, `v4l2-compat.so`, which `libcamerify` puts in
/// `LD_PRELOAD`.
///
/// Its folder differs between libcamera releases (beside the libraries in 0.0.3,
/// Debian 12; in their `libcamera` folder in 0.4, Debian 13), so it is found where
/// Debian's libcamera-v4l2 package put it, as dpkg lists it.
enum LibcameraCompatibility {
    /// The layer's path, or nil when the package has none. Throws when libcamera-v4l2
    /// is not installed.
    static func path() throws -> String? {
        let listing = try Probe.tool("dpkg-query", ["-L", "libcamera-v4l2"])
        return String(decoding: listing, as: UTF8.self).split(separator: "\n").map(String.init)
            .first { $0.hasSuffix("/v4l2-compat.so") && FileManager.default.fileExists(atPath: $0) }
    }
}
