import CV4L2
import Glibc
import VidrecMedia
import VidrecSystem

/// An open V4L2 video node, through libv4l2 (which adds software format conversion).
/// Owns its file descriptor.
///
/// Under libcamera's V4L2 compatibility layer (``isUnderLibcamera``) the node is reached
/// through libc's own calls instead: the layer stands in for the camera behind libc's
/// `open`, `ioctl`, `mmap`, `munmap` and `close`, which libv4l2 passes over (it calls
/// the kernel through `syscall`).
///
/// Every ioctl and mmap goes through the syscall seam (``systemCallErrno(_:_:)``, with
/// the seam's one EINTR rule and its injected faults in tests); ``control(_:_:_:)``
/// turns a failure into `VIDIOC_S_FMT on /dev/video0: Invalid argument (errno 22)`.
final class V4L2Device: Sendable {
    /// The node's path.
    let path: String
    /// The descriptor (libv4l2's, or libc's under libcamera's layer).
    let fd: Int32
    /// Whether calls go through libv4l2 (else straight through libc).
    let usesLibv4l2: Bool

    /// Whether libcamera's V4L2 compatibility layer is loaded (`libcamerify vidrec …`,
    /// which puts `v4l2-compat.so` into `LD_PRELOAD`): cameras that only libcamera can
    /// drive (a Raspberry Pi's CSI camera, a laptop's IPU6 camera) then look like V4L2
    /// nodes that send pictures, to calls made through libc.
    static let isUnderLibcamera: Bool = {
        guard let preload = getenv("LD_PRELOAD") else { return false }
        return String(cString: preload).contains("v4l2-compat")
    }()

    /// Opens `path` for capture. The corresponding C functions are `open`, `ioctl`
    /// (VIDIOC_QUERYCAP) and `v4l2_fd_open`.
    ///
    /// - Throws: ``DeviceError`` with the fix for the common cases (missing, denied, busy).
    init(path: String) throws {
        self.path = path
        let info: stat
        do {
            guard let found = try FileSystem.status(path) else {
                throw DeviceError.cameraNotFound(path: path, reason: SystemError.describe(ENOENT))
            }
            info = found
        } catch let error as SystemError {
            throw DeviceError.cameraNotFound(path: path, reason: error.reason)
        }
        guard info.st_mode & S_IFMT == S_IFCHR else { throw DeviceError.notACamera(path: path, reason: "it is not a device") }
        let device: FileDescriptor
        do {
            device = try FileDescriptor.open(path, O_RDWR | O_NONBLOCK)
        } catch {
            switch error.errno {
            case EACCES, EPERM: throw DeviceError.permissionDenied(path: path, group: "video")
            case EBUSY: throw DeviceError.busy(path: path)
            case ENOENT, ENODEV, ENXIO: throw DeviceError.cameraNotFound(path: path, reason: error.reason)
            default: throw error
            }
        }
        let raw = device.rawValue
        // Ask the kernel directly first: libv4l2 prints its own message for a node that
        // is not a V4L2 device, and vidrec reports that itself.
        var capability = v4l2_capability()
        let code = systemCallErrno(.ioctl) { cv4l2_raw_ioctl(raw, CV4L2_VIDIOC_QUERYCAP, &capability) }
        if code != 0 {
            device.close()
            throw DeviceError.notACamera(path: path, reason: "it does not answer VIDIOC_QUERYCAP (\(SystemError.describe(code)))")
        }
        usesLibv4l2 = !V4L2Device.isUnderLibcamera
        if usesLibv4l2 {
            // libv4l2 prints its own errors ("libv4l2: error setting pixformat: …") to
            // stderr unless it has a log file; vidrec reports every error itself, in one line.
            setenv("LIBV4L2_LOG_FILENAME", "/dev/null", 0)
            guard v4l2_fd_open(raw, 0) == raw else {
                let code = errno
                device.close()
                throw SystemError("v4l2_fd_open", path, errno: code)
            }
        }
        self.fd = raw
    }

    deinit {
        if usesLibv4l2 { v4l2_close(fd) } else { Glibc.close(fd) }
    }

    /// Maps the driver's buffer at `offset` (`v4l2_mmap`, or libc's `mmap`), through the
    /// syscall seam.
    func map(length: Int, offset: Int64) throws(SystemError) -> UnsafeMutableRawPointer {
        try systemCall(.mmap, path) {
            usesLibv4l2 ? v4l2_mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, offset)
                : Glibc.mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, __off_t(offset))
        }
    }

    /// Unmaps a buffer ``map(length:offset:)`` mapped.
    func unmap(_ start: UnsafeMutableRawPointer, length: Int) {
        if usesLibv4l2 { v4l2_munmap(start, length) } else { Glibc.munmap(start, length) }
    }

    /// Makes an ioctl (through libv4l2 unless under libcamera's layer) through the syscall
    /// seam, retrying EINTR.
    ///
    /// - Parameter name: the request's name for messages (`VIDIOC_S_FMT`).
    func control<T>(_ request: UInt, _ name: String, _ argument: inout T) throws(SystemError) {
        let code = attempt(request, &argument)
        if code != 0 { throw SystemError(name, path, errno: code) }
    }

    /// Makes an ioctl through the syscall seam and returns 0 or the errno, retrying
    /// EINTR; for the capture loop, where EAGAIN and ENODEV are outcomes rather than
    /// failures.
    func attempt<T>(_ request: UInt, _ argument: inout T) -> Int32 {
        withUnsafeMutablePointer(to: &argument) { pointer in
            systemCallErrno(.ioctl) { usesLibv4l2 ? cv4l2_ioctl(fd, request, pointer) : cv4l2_raw_ioctl(fd, request, pointer) }
        }
    }

    /// Like ``control(_:_:_:)``, but EBUSY becomes ``DeviceError/busy(path:)``.
    func controlReportingBusy<T>(_ request: UInt, _ name: String, _ argument: inout T) throws {
        let code = attempt(request, &argument)
        if code == EBUSY { throw DeviceError.busy(path: path) }
        if code != 0 { throw SystemError(name, path, errno: code) }
    }

    /// Like ``control(_:_:_:)``, but returns `false` for EINVAL, which enumeration
    /// ioctls use to say "no more entries", and for ENOTTY, a driver's "I do not list these".
    func enumerate<T>(_ request: UInt, _ name: String, _ argument: inout T) throws(SystemError) -> Bool {
        let code = attempt(request, &argument)
        // EINVAL ends the list; ENOTTY: the driver does not enumerate this at all (vimc's
        // and other media-controller nodes have no VIDIOC_ENUM_FRAMEINTERVALS).
        if code == EINVAL || code == ENOTTY { return false }
        if code != 0 { throw SystemError(name, path, errno: code) }
        return true
    }

    /// VIDIOC_QUERYCAP.
    func capabilities() throws -> v4l2_capability {
        var capability = v4l2_capability()
        try control(CV4L2_VIDIOC_QUERYCAP, "VIDIOC_QUERYCAP", &capability)
        return capability
    }

    /// Whether the node captures video frames (metadata and output nodes do not).
    static func capturesVideo(_ capability: v4l2_capability) -> Bool {
        let caps = capability.capabilities & UInt32(V4L2_CAP_DEVICE_CAPS) != 0 ? capability.device_caps : capability.capabilities
        return caps & UInt32(V4L2_CAP_VIDEO_CAPTURE) != 0 && caps & UInt32(V4L2_CAP_STREAMING) != 0
    }

    /// The (format, size, rate) modes the node offers, through VIDIOC_ENUM_FMT,
    /// VIDIOC_ENUM_FRAMESIZES and VIDIOC_ENUM_FRAMEINTERVALS: every format's, or with
    /// ``ModeListing/readable`` only those of the formats vidrec reads. Stepwise ranges
    /// are sampled at their ends and common sizes and rates in between.
    ///
    /// - Returns: the modes, and every format offered (FOURCC names, in the driver's order).
    func modes(_ listing: ModeListing) throws -> (modes: [CameraMode], formats: [String]) {
        var modes: [CameraMode] = []
        var formats: [String] = []
        var formatIndex: UInt32 = 0
        while true {
            var format = v4l2_fmtdesc()
            format.index = formatIndex
            format.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            guard try enumerate(CV4L2_VIDIOC_ENUM_FMT, "VIDIOC_ENUM_FMT", &format) else { break }
            formatIndex += 1
            let fourcc = FourCC.name(format.pixelformat)
            formats.append(fourcc)
            if case .readable = listing, PixelFormat(rawValue: fourcc) == nil { continue }
            let emulated = format.flags & UInt32(V4L2_FMT_FLAG_EMULATED) != 0
            for (width, height) in try sizes(format.pixelformat) {
                for rate in try rates(format.pixelformat, width, height) {
                    modes.append(CameraMode(fourcc: fourcc, width: width, height: height, frameRate: rate, emulated: emulated))
                }
            }
        }
        return (modes, formats)
    }

    private static let commonSizes = [(320, 240), (640, 360), (640, 480), (1280, 720), (1920, 1080), (3840, 2160)]
    private static let commonRates = [Rational(15), Rational(25), Rational(30), Rational(60)]

    private func sizes(_ pixelFormat: UInt32) throws -> [(Int, Int)] {
        var sizes: [(Int, Int)] = []
        var index: UInt32 = 0
        while true {
            var size = v4l2_frmsizeenum()
            size.index = index
            size.pixel_format = pixelFormat
            guard try enumerate(CV4L2_VIDIOC_ENUM_FRAMESIZES, "VIDIOC_ENUM_FRAMESIZES", &size) else { break }
            index += 1
            if size.type == V4L2_FRMSIZE_TYPE_DISCRETE.rawValue {
                sizes.append((Int(size.discrete.width), Int(size.discrete.height)))
            } else {
                let s = size.stepwise
                let inRange = V4L2Device.commonSizes.filter {
                    $0.0 >= s.min_width && $0.0 <= s.max_width && $0.1 >= s.min_height && $0.1 <= s.max_height
                }
                sizes += [(Int(s.min_width), Int(s.min_height))] + inRange + [(Int(s.max_width), Int(s.max_height))]
                break
            }
        }
        if sizes.isEmpty {
            // Some drivers do not enumerate sizes: use the current format's.
            var current = v4l2_format()
            current.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            try control(CV4L2_VIDIOC_G_FMT, "VIDIOC_G_FMT", &current)
            sizes.append((Int(current.fmt.pix.width), Int(current.fmt.pix.height)))
        }
        var seen = Set<Int>()
        return sizes.filter { seen.insert($0.0 << 20 | $0.1).inserted }
    }

    private func rates(_ pixelFormat: UInt32, _ width: Int, _ height: Int) throws -> [Rational] {
        var rates: [Rational] = []
        var index: UInt32 = 0
        while true {
            var interval = v4l2_frmivalenum()
            interval.index = index
            interval.pixel_format = pixelFormat
            interval.width = UInt32(width)
            interval.height = UInt32(height)
            guard try enumerate(CV4L2_VIDIOC_ENUM_FRAMEINTERVALS, "VIDIOC_ENUM_FRAMEINTERVALS", &interval) else { break }
            index += 1
            if interval.type == V4L2_FRMIVAL_TYPE_DISCRETE.rawValue {
                let d = interval.discrete
                if d.numerator > 0 && d.denominator > 0 { rates.append(Rational(Int64(d.denominator), Int64(d.numerator))) }
            } else {
                let s = interval.stepwise
                guard s.min.numerator > 0, s.max.numerator > 0 else { break }
                let fastest = Rational(Int64(s.min.denominator), Int64(s.min.numerator))
                let slowest = Rational(Int64(s.max.denominator), Int64(s.max.numerator))
                rates += [fastest] + V4L2Device.commonRates.filter { $0 > slowest && $0 < fastest }
                break
            }
        }
        if rates.isEmpty {
            // No enumeration: the current rate (VIDIOC_G_PARM), else a nominal 30.
            var parm = v4l2_streamparm()
            parm.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            if (try? control(CV4L2_VIDIOC_G_PARM, "VIDIOC_G_PARM", &parm)) != nil,
               parm.parm.capture.timeperframe.numerator > 0 {
                let t = parm.parm.capture.timeperframe
                rates.append(Rational(Int64(t.denominator), Int64(t.numerator)))
            } else {
                rates.append(Rational(30))
            }
        }
        return Array(Set(rates)).sorted(by: >)
    }
}
