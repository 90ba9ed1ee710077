import VidrecMedia

/// Chooses the camera mode for a preset, and says what was chosen.
///
/// Rules, in order:
/// 1. the preset's exact size and rate, if offered;
/// 2. otherwise a mode that keeps the frame rate: the smallest size that covers the
///    preset's, else the largest; the frames are scaled to the preset's size;
/// 3. if no mode reaches the frame rate, the fastest modes, chosen by size the same way;
///    the movie is then recorded at the camera's rate, and the message says so.
/// At a given size and rate, formats the device sends natively come before libv4l's
/// software conversions, and raw formats before MJPEG (which must be decoded).
public struct CameraModeSelector: Sendable {
    /// What was chosen.
    public struct Choice: Sendable, Equatable {
        /// The camera mode to set.
        public var mode: CameraMode
        /// The movie's frame rate: the preset's, or the camera's when it is slower.
        public var outputFrameRate: Rational
        /// One line for the user: `camera mode: 640x360 YUYV 30 fps → scaled to 1280x720`.
        public var summary: String
    }

    /// Why no mode could be chosen.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// The camera offers no format vidrec can read.
        case noUsableFormat(camera: String, offered: [String])
        /// `--camera-format` asked for a format the camera does not offer.
        case formatNotOffered(camera: String, asked: String, offered: [String])

        public var description: String {
            switch self {
            case let .noUsableFormat(camera, offered):
                "camera \(camera) offers no pixel format vidrec can read (it offers \(offered.joined(separator: ", "))); vidrec reads \(PixelFormat.allCases.map(\.rawValue).joined(separator: ", "))"
            case let .formatNotOffered(camera, asked, offered):
                "camera \(camera) does not offer pixel format \(asked); it offers \(offered.joined(separator: ", ")) (see 'vidrec devices')"
            }
        }
    }

    /// Creates a selector.
    public init() {}

    /// Chooses among `modes` for a preset of `width × height` at `frameRate`.
    ///
    /// - Parameter format: `--camera-format`, if given.
    public func choose(from modes: [CameraMode], width: Int, height: Int, frameRate: Rational,
                       format: PixelFormat?, camera: String) throws(Failure) -> Choice {
        let offered = Array(Set(modes.map(\.fourcc))).sorted()
        var usable = modes.filter { $0.pixelFormat != nil }
        if let format {
            usable = usable.filter { $0.pixelFormat == format }
            if usable.isEmpty { throw .formatNotOffered(camera: camera, asked: format.rawValue, offered: offered) }
        }
        guard !usable.isEmpty else { throw .noUsableFormat(camera: camera, offered: offered) }

        let fast = usable.filter { $0.frameRate >= frameRate }
        let pool: [CameraMode]
        if fast.isEmpty {
            let best = usable.map(\.frameRate).max()!
            pool = usable.filter { $0.frameRate == best }
        } else {
            pool = fast
        }
        let size = chooseSize(pool, width: width, height: height)
        let atSize = pool.filter { $0.width == size.0 && $0.height == size.1 }
        let mode = atSize.min { a, b in
            // The lowest rate that is still fast enough (exact first), then native, then raw.
            if a.frameRate != b.frameRate { return a.frameRate < b.frameRate }
            if a.emulated != b.emulated { return !a.emulated }
            return a.pixelFormat != .mjpeg && b.pixelFormat == .mjpeg
        }!
        let output = min(mode.frameRate, frameRate)
        var summary = "camera mode: \(mode.width)x\(mode.height) \(mode.fourcc) \(output) fps"
        if mode.width != width || mode.height != height { summary += " → scaled to \(width)x\(height)" }
        if mode.frameRate < frameRate {
            summary += " (the camera cannot reach the preset's \(frameRate) fps at any size; recording at \(mode.frameRate) fps)"
        }
        return Choice(mode: mode, outputFrameRate: output, summary: summary)
    }

    private func chooseSize(_ pool: [CameraMode], width: Int, height: Int) -> (Int, Int) {
        if pool.contains(where: { $0.width == width && $0.height == height }) { return (width, height) }
        let covering = pool.filter { $0.width >= width && $0.height >= height }
        let pick = covering.min { $0.width * $0.height < $1.width * $1.height }
            ?? pool.max { $0.width * $0.height < $1.width * $1.height }!
        return (pick.width, pick.height)
    }
}
