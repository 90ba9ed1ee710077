import VidrecMedia
import VidrecSystem

/// Chooses the camera mode for a preset, and says what was chosen.
///
/// The picture is never stretched by accident: modes with the preset's aspect ratio come
/// first. Among them, in order:
/// 1. the preset's exact size at its rate (or faster);
/// 2. the smallest larger size at the rate (scaled down, nothing lost);
/// 3. the preset's exact size at a somewhat lower rate (at least ``closeRate`` of the
///    preset's; the fastest offered): the movie is then recorded at the rate the camera
///    really delivers, not on a grid with holes;
/// 4. the largest smaller size at the rate (scaled up);
/// 5. the fastest rate at any size of that aspect.
/// Only when the camera offers no mode of the preset's aspect ratio is another one used
/// (by rate, then size, as above), fitted by `fit`: cropped to fill by default.
/// At a given size and rate, formats the device sends natively come before libv4l's
/// software conversions, and raw formats before MJPEG and MJPEG before H.264 (both must
/// be decoded; H.264 costs more).
///
/// Copying comes before all of that (``VideoHandling``): with `auto`, a mode that sends
/// what the preset's codec makes (H.264, or Motion JPEG for an `mjpeg` preset) at the
/// preset's exact size and rate is stored as it is; with `copy`, the best mode in such a
/// format (or any compressed one) is, at whatever size and rate it has.
public struct CameraModeSelector: Sendable {
    /// What was chosen.
    public struct Choice: Sendable, Equatable {
        /// The camera mode to set.
        public var mode: CameraMode
        /// The movie's frame rate: the preset's, or the camera's when it is slower.
        public var outputFrameRate: Rational
        /// How the picture is fitted, when its aspect ratio differs from the preset's.
        public var fit: VideoFit?
        /// One line for the user: `camera mode: 640x360 YUYV 30 fps → scaled to 1280x720`.
        public var summary: String
        /// Whether the camera's compressed frames are stored as they are (then the movie
        /// has the mode's size and rate).
        public var copied = false
    }

    /// Why no mode could be chosen.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// The camera offers no format vidrec can read.
        case noUsableFormat(camera: String, offered: [String])
        /// `--camera-format` asked for a format the camera does not offer.
        case formatNotOffered(camera: String, asked: String, offered: [String])
        /// `--video copy`, and the camera sends no compressed format to copy.
        case nothingToCopy(camera: String, wanted: String, offered: [String])

        public var description: String {
            switch self {
            case let .noUsableFormat(camera, offered):
                "camera \(camera) offers no pixel format vidrec can read (it offers \(offered.joined(separator: ", "))); vidrec reads \(PixelFormat.allCases.map(\.rawValue).joined(separator: ", "))"
            case let .formatNotOffered(camera, asked, offered):
                "camera \(camera) does not offer pixel format \(asked); it offers \(offered.joined(separator: ", ")) (see 'vidrec devices')"
            case let .nothingToCopy(camera, wanted, offered):
                "camera \(camera) sends no \(wanted) to store as it is (it offers \(offered.joined(separator: ", "))); record with --video encode or --video auto"
            }
        }
    }

    /// The share of the preset's frame rate that the preset's exact size may fall to and
    /// still come before a smaller size at the full rate: 640x480 at 25 fps is better
    /// than 640x360 stretched or upscaled at 30, but 1280x720 at 12.5 fps is not.
    public static let closeRate = Rational(2, 3)

    /// Creates a selector.
    public init() {}

    /// Chooses among `modes` for a preset of `width × height` at `frameRate`.
    ///
    /// - Parameters:
    ///   - format: `--camera-format`, if given.
    ///   - fit: how to fit a picture of another aspect ratio (`--fit`).
    ///   - offered: every format the camera offers, for the message when none fits, if
    ///     `modes` lists only some formats' modes (those vidrec reads); else the formats
    ///     of `modes`.
    ///   - handling: whether the camera's compressed stream may be stored as it is.
    ///   - copyable: the format the preset's codec makes (``VideoEncoding/copyableFormat``).
    public func choose(from modes: [CameraMode], width: Int, height: Int, frameRate: Rational,
                       format: PixelFormat?, fit: VideoFit = .crop, camera: String,
                       offered: [String]? = nil, handling: VideoHandling = .encode,
                       copyable: PixelFormat? = nil) throws(Failure) -> Choice {
        var usable = try usableModes(modes, format: format, camera: camera, offered: offered)
        let copies = { (mode: CameraMode) -> Bool in
            guard let copyable, let own = mode.pixelFormat else { return false }
            return own == copyable || (copyable.isJPEG && own.isJPEG)
        }
        switch handling {
        case .auto:
            if let mode = usable.first(where: { copies($0) && !$0.emulated && $0.width == width && $0.height == height && $0.frameRate == frameRate }) {
                return Choice(mode: mode, outputFrameRate: mode.frameRate, fit: nil,
                              summary: "camera mode: \(mode.description) → copied", copied: true)
            }
        case .copy:
            let compressed = usable.filter { copies($0) }
            let any = usable.filter { $0.pixelFormat?.isCompressed == true }
            guard !compressed.isEmpty || !any.isEmpty else {
                throw .nothingToCopy(camera: camera, wanted: copyable.map { $0 == .h264 ? "H.264" : "Motion JPEG" } ?? "H.264 or Motion JPEG",
                                     offered: Self.offeredFormats(modes, offered))
            }
            usable = compressed.isEmpty ? any : compressed
        case .encode:
            break
        }

        let sameAspect = usable.filter { $0.width * height == width * $0.height }
        let mode = Self.closest(in: sameAspect.isEmpty ? usable : sameAspect, width: width, height: height, frameRate: frameRate)
        if handling == .copy {
            var summary = "camera mode: \(mode.description) → copied"
            if mode.width != width || mode.height != height || mode.frameRate != frameRate {
                summary += " (at the camera's \(mode.width)x\(mode.height) \(mode.frameRate) fps, not the preset's \(width)x\(height) \(frameRate) fps: a copied stream is not scaled)"
            }
            return Choice(mode: mode, outputFrameRate: mode.frameRate, fit: nil, summary: summary, copied: true)
        }
        let output = min(mode.frameRate, frameRate)
        let fitted: VideoFit? = sameAspect.isEmpty ? fit : nil
        let summary = Self.summary(mode, output: output, fitted: fitted, width: width, height: height, frameRate: frameRate)
        return Choice(mode: mode, outputFrameRate: output, fit: fitted, summary: summary)
    }

    /// The mode of `pool` closest to `width × height` at `frameRate`: the exact size
    /// fast enough, else the smallest larger size fast enough, else the exact size at
    /// nearly the rate (``closeRate``), else the largest size fast enough, else the
    /// fastest; at that size, the lowest rate that is fast enough, native before
    /// libv4l's conversions, then the cheapest to decode.
    private static func closest(in pool: [CameraMode], width: Int, height: Int, frameRate: Rational) -> CameraMode {
        let fast = pool.filter { $0.frameRate >= frameRate }
        let exact = pool.filter { $0.width == width && $0.height == height }
        let covering = fast.filter { $0.width >= width && $0.height >= height }
        let area = { (mode: CameraMode) in mode.width * mode.height }
        let group: [CameraMode]
        let size: CameraMode
        if let hit = exact.first(where: { $0.frameRate >= frameRate }) {
            (group, size) = (fast, hit)
        } else if let smallest = covering.min(by: { area($0) < area($1) }) {
            (group, size) = (fast, smallest)
        } else if let fastest = exact.filter({ $0.frameRate >= frameRate * closeRate }).max(by: { $0.frameRate < $1.frameRate }) {
            (group, size) = (exact.filter { $0.frameRate == fastest.frameRate }, fastest)
        } else if let largest = fast.max(by: { area($0) < area($1) }) {
            (group, size) = (fast, largest)
        } else {
            let best = pool.map(\.frameRate).max()!
            let fastest = pool.filter { $0.frameRate == best }
            let pick = fastest.filter { $0.width >= width && $0.height >= height }.min { area($0) < area($1) }
                ?? fastest.max { area($0) < area($1) }!
            (group, size) = (fastest, pick)
        }
        let atSize = group.filter { $0.width == size.width && $0.height == size.height }
        return atSize.min { a, b in
            // The lowest rate that is still fast enough (exact first), then native, then raw.
            if a.frameRate != b.frameRate { return a.frameRate < b.frameRate }
            if a.emulated != b.emulated { return !a.emulated }
            return decodingCost(a) < decodingCost(b)
        }!
    }

    /// The message for an encoded mode: what the camera sends and how it becomes the
    /// preset's picture.
    private static func summary(_ mode: CameraMode, output: Rational, fitted: VideoFit?, width: Int, height: Int,
                                frameRate: Rational) -> String {
        var summary = "camera mode: \(mode.width)x\(mode.height) \(mode.fourcc) \(output) fps"
        switch fitted {
        case nil where mode.width != width || mode.height != height: summary += " → scaled to \(width)x\(height)"
        case nil: break
        case .crop?: summary += " → cropped to fill \(width)x\(height) (the camera has no \(ratio(width, height)) mode; --fit pad shows the whole picture)"
        case .pad?: summary += " → padded to \(width)x\(height) (the camera has no \(ratio(width, height)) mode; black bars fill the rest)"
        case .stretch?: summary += " → stretched to \(width)x\(height) (the camera has no \(ratio(width, height)) mode)"
        }
        if mode.frameRate < frameRate {
            summary += " (the preset's \(frameRate) fps is not offered at this size; recording at \(mode.frameRate) fps)"
        }
        return summary
    }

    /// The mode with the largest picture, for a still photo at the camera's largest size
    /// (`vidrec snap`, like `AVCapturePhotoOutput.maxPhotoDimensions`): at that size,
    /// native formats before libv4l's conversions, raw before MJPEG, then the fastest rate.
    ///
    /// - Parameters:
    ///   - format: `--camera-format`, if given.
    ///   - offered: every format the camera offers, as for ``choose(from:width:height:frameRate:format:fit:camera:offered:)``.
    public func largest(from modes: [CameraMode], format: PixelFormat?, camera: String,
                        offered: [String]? = nil) throws(Failure) -> CameraMode {
        let usable = try usableModes(modes, format: format, camera: camera, offered: offered)
        return usable.max { a, b in
            if a.width * a.height != b.width * b.height { return a.width * a.height < b.width * b.height }
            if a.emulated != b.emulated { return a.emulated }
            if Self.decodingCost(a) != Self.decodingCost(b) { return Self.decodingCost(a) > Self.decodingCost(b) }
            return a.frameRate < b.frameRate
        }!
    }

    /// The modes vidrec can read, in `format` when one is asked for (`--camera-format`).
    private func usableModes(_ modes: [CameraMode], format: PixelFormat?, camera: String,
                             offered: [String]?) throws(Failure) -> [CameraMode] {
        let offered = Self.offeredFormats(modes, offered)
        var usable = modes.filter { $0.pixelFormat != nil }
        if let format {
            usable = usable.filter { $0.pixelFormat == format }
            if usable.isEmpty { throw .formatNotOffered(camera: camera, asked: format.rawValue, offered: offered) }
        }
        guard !usable.isEmpty else { throw .noUsableFormat(camera: camera, offered: offered) }
        return usable
    }

    /// Every format the camera offers, sorted: `offered` when given, else those of `modes`.
    static func offeredFormats(_ modes: [CameraMode], _ offered: [String]?) -> [String] {
        Array(Set(offered ?? modes.map(\.fourcc))).sorted()
    }

    /// 0 for raw formats, 1 for JPEG, 2 for H.264: what reading a frame costs.
    static func decodingCost(_ mode: CameraMode) -> Int {
        guard let format = mode.pixelFormat, format.isCompressed else { return 0 }
        return format.isJPEG ? 1 : 2
    }

    /// `16:9`, `4:3`: a size's aspect ratio in lowest terms.
    static func ratio(_ width: Int, _ height: Int) -> String {
        var (a, b) = (width, height)
        while b != 0 { (a, b) = (b, a % b) }
        return "\(width / a):\(height / a)"
    }
}

extension CameraModeSelector.Failure: ExitCoded {
    public var exitCode: ExitCode { .unavailable }
}
