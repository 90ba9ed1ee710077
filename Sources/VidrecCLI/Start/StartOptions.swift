import Foundation
import VidrecCore
import VidrecFFmpeg
import VidrecMedia
import VidrecSystem
import VidrecTestSources
import VidrecV4L2

/// What `vidrec start` was asked, checked: every option parsed, every conflict refused
/// with a usage error. `vidrec schedule` checks the start options it will put in the
/// crontab line with it too.
struct StartOptions {
    /// What `vidrec start` accepts (its help and its options), also used to check the
    /// options of `vidrec schedule`.
    static let spec = CommandSpec(
        name: "start",
        abstract: "Record a movie from the camera and microphone.",
        discussion: """
        The recording is written to the pending area as it is made and stays playable \
        even if vidrec is killed. It ends at --max or --max-size, on 'vidrec stop', Ctrl-C \
        or SIGTERM (a second Ctrl-C aborts), or before the disk falls below --min-free. \
        Commit it to the album with 'vidrec save', or pass --save.
        """,
        arguments: StartOptions.cameraArguments + [
            Key.fit.spec,
            Key.mic.spec,
            Key.quality.spec,
            Key.max.spec,
            Key.maxSize.spec,
            Key.reconnect.spec,
            Key.minFree.spec,
            Key.save.spec,
            Key.saveAs.spec,
            Key.name.spec,
            Key.album.spec,
            Key.keep.spec,
            Key.albumMaxSize.spec,
            Key.maxAge.spec,
        ] + StartOptions.controlArguments + [
        ] + StartOptions.orientationArguments + [
            Key.video.spec,
            Key.overlay.spec,
            Key.overlayCorner.spec,
            Key.clockTrack.spec,
            Key.segment.spec,
            Key.segmentAtClock.spec,
            Key.pre.spec,
            Key.post.spec,
        ] + StartFeatures.arguments + [
            Key.log.spec,
            Key.quiet.spec,
        ])

    var camera = "default"
    var cameraFormat: PixelFormat?
    var fit = VideoFit.crop
    var microphone = "default"
    var quality = "medium"
    var maxDuration: DurationLimit?
    var maxSize: Int64?
    /// `--reconnect`, in seconds (0: a camera or a microphone that goes ends the recording).
    var reconnect = Rational(30)
    var minFree: Int64?
    var save = false
    var saveName: String?
    var nameTemplate: String?
    var albumPath: String?
    var keep: Int?
    var albumMaxSize: Int64?
    /// `--max-age`, in seconds.
    var maxAge: Rational?
    /// `--segment`, in seconds.
    var segment: Rational?
    /// `--pre` and `--post`, in seconds: wait for triggers.
    var events: (pre: Double, post: Double)?
    var segmentAtClock = false
    var rotation = 0
    var mirror = false
    /// `--overlay` and `--overlay-corner`, `{name}` and `{camera}` not filled in yet.
    var overlay: TextOverlay?
    /// `--clock-track`.
    var clockTrack = false
    /// `--video`: whether the camera's compressed stream may be stored as it is.
    var video: VideoHandling?
    var controls = CameraControlRequest()
    var keepControls = false
    var logPath: String?
    var quiet = false
    /// The features (``StartFeatures``) the options ask for, to be made when the
    /// recording is set up.
    var features: [StartFeature.Make] = []

    init(_ arguments: ParsedArguments) throws(ParserError) {
        try readDevices(arguments)
        try readLimits(arguments)
        try readAlbum(arguments)
        try readPicture(arguments)
        try readSeries(arguments)
        logPath = arguments[Key.log]
        quiet = arguments[Key.quiet]
        for (given, synopsis) in [(albumPath != nil, "--album <dir>"), (keep != nil, "--keep <count>"), (albumMaxSize != nil, "--album-max-size <size>"),
                                  (maxAge != nil, "--max-age <duration>")]
        where given && !save {
            throw .conflicting(synopsis, "a recording that is not saved; add --save")
        }
        if video == .copy, let reason = reasonNotToCopy {
            throw .invalidValue("copy", for: "--video <auto|copy|encode>", reason: "the camera's stream cannot be stored as it is with \(reason); use --video encode")
        }
        for feature in StartFeatures.all {
            if let make = try feature.parse(arguments, self) { features.append(make) }
        }
        if camera == SystemDevices.noCamera { try StartOptions.checkSoundOnly(arguments, microphone: microphone) }
    }

    /// The camera, the microphone, the preset and how a picture is fitted.
    private mutating func readDevices(_ arguments: ParsedArguments) throws(ParserError) {
        camera = arguments[Key.camera] ?? "default"
        microphone = arguments[Key.mic] ?? "default"
        quality = arguments[Key.quality] ?? "medium"
        let fitText = arguments[Key.fit] ?? "crop"
        guard let fit = VideoFit(rawValue: fitText) else {
            throw .invalidValue(fitText, for: "--fit <how>", reason: "use crop, pad or stretch")
        }
        self.fit = fit
        cameraFormat = try StartOptions.cameraFormat(arguments, camera: camera)
    }

    /// What ends the recording: `--max`, `--max-size`, `--reconnect`, `--min-free`.
    private mutating func readLimits(_ arguments: ParsedArguments) throws(ParserError) {
        if let text = arguments[Key.max] {
            guard let maxDuration = DurationLimit(parsing: text) else {
                throw .invalidValue(text, for: "--max <duration>", reason: "give a length greater than 0 and at most 24 h, such as 30 (seconds), 2.5, 90s, 5m or 1h")
            }
            self.maxDuration = maxDuration
        }
        maxSize = try StartOptions.size(arguments[Key.maxSize], "--max-size <size>", minimum: 100_000)
        let reconnectText = arguments[Key.reconnect] ?? "30"
        guard let reconnect = Rational(duration: reconnectText), reconnect >= Rational(0), reconnect <= Rational(86_400) else {
            throw .invalidValue(reconnectText, for: "--reconnect <duration>",
                                reason: "give how long to wait for a camera that goes away, from 0 (end at once) to 24 h, such as 30 (seconds), 90s or 5m")
        }
        self.reconnect = reconnect
        minFree = try StartOptions.size(arguments[Key.minFree] ?? "200M", "--min-free <size>", minimum: 0)
        if minFree == 0 { minFree = nil }
    }

    /// Whether and how the recording is saved: `--save`, its name, the album and its limits.
    private mutating func readAlbum(_ arguments: ParsedArguments) throws(ParserError) {
        save = arguments[Key.save]
        saveName = try AlbumFileName.validated(arguments[Key.saveAs])
        nameTemplate = arguments[Key.name]
        if saveName != nil, nameTemplate != nil { throw .conflicting("--as <name>", "--name <template>") }
        if let template = nameTemplate {
            _ = try AlbumFileName.validatedPath(NameTemplate.expand(template, at: Date()), option: "--name <template>")
        }
        albumPath = arguments[Key.album]
        if let text = arguments[Key.keep] {
            guard let count = Int(text), count >= 1, count <= 1_000_000 else {
                throw .invalidValue(text, for: "--keep <count>", reason: "give a whole number of recordings, at least 1")
            }
            keep = count
        }
        albumMaxSize = try StartOptions.size(arguments[Key.albumMaxSize], "--album-max-size <size>", minimum: 100_000)
        if let text = arguments[Key.maxAge] {
            guard let seconds = Rational(duration: text), seconds >= Rational(1), seconds <= Rational(3650 * 86_400) else {
                throw .invalidValue(text, for: "--max-age <duration>", reason: "give an age such as 7d, 12h or 30m (at most 3650d)")
            }
            maxAge = seconds
        }
    }

    /// What is done to the picture: `--rotate`, `--mirror`, `--video`, the camera controls.
    private mutating func readPicture(_ arguments: ParsedArguments) throws(ParserError) {
        rotation = try StartOptions.rotation(arguments)
        mirror = arguments[Key.mirror]
        overlay = try StartOptions.overlay(arguments)
        clockTrack = arguments[Key.clockTrack]
        if let text = arguments[Key.video] {
            guard let handling = VideoHandling(rawValue: text) else {
                throw .invalidValue(text, for: "--video <auto|copy|encode>", reason: "use auto, copy (store the camera's own H.264 or MJPEG) or encode")
            }
            video = handling
        }
        (controls, keepControls) = try StartOptions.controls(arguments)
    }

    /// Whether the recording is a series of files: `--segment`, `--pre/--post`.
    private mutating func readSeries(_ arguments: ParsedArguments) throws(ParserError) {
        if let text = arguments[Key.segment] {
            guard let seconds = Rational(duration: text), seconds >= Rational(1), seconds <= Rational(86_400) else {
                throw .invalidValue(text, for: "--segment <duration>", reason: "give a length from 1 s to 24 h, such as 10s, 5m, 1h or 90 (seconds)")
            }
            segment = seconds
            if saveName != nil { throw .conflicting("--as <name>", "--segment, which makes many files; name them with --name and strftime fields such as 'door-%Y%m%d-%H%M%S'") }
        }
        // --trigger (the motion trigger's option, StartFeatures) waits for triggers too.
        if arguments[Key.pre] != nil || arguments[Key.post] != nil || arguments[StartFeatures.Key.trigger] != nil {
            var lengths: [Double] = []
            for (key, fallback) in [(Key.pre, 5.0), (Key.post, 10.0)] {
                guard let text = arguments[key] else { lengths.append(fallback); continue }
                guard let seconds = Rational(duration: text), seconds >= Rational(0), seconds <= Rational(600) else {
                    throw .invalidValue(text, for: key.spec.synopsis, reason: "give a length from 0 to 10 m, such as 10 (seconds), 2.5, 30s or 1m")
                }
                lengths.append(seconds.doubleValue)
            }
            events = (lengths[0], lengths[1])
            if saveName != nil { throw .conflicting("--as <name>", "--pre/--post, which makes a file for each event; name them with --name and strftime fields") }
        }
        segmentAtClock = arguments[Key.segmentAtClock]
        if segmentAtClock, segment == nil { throw .conflicting("--segment-at-clock", "a recording without --segment") }
    }

    /// `--camera none` records sound only: what acts on a picture is refused, and so is
    /// no microphone.
    static func checkSoundOnly(_ arguments: ParsedArguments, microphone: String) throws(ParserError) {
        let sound = "--camera none, which records sound only"
        if microphone == "none" { throw .conflicting("--mic none", "\(sound): there would be nothing to record") }
        // The options that act on a picture.
        let refused = [Key.cameraFormat.spec, Key.fit.spec, Key.rotate.spec, Key.focus.spec, Key.exposure.spec, Key.whiteBalance.spec,
                       Key.torch.spec, StartFeatures.Key.snapEvery.spec, StartFeatures.Key.trigger.spec, StartFeatures.Key.live.spec,
                       Key.set.spec, Key.mirror.spec, Key.overlay.spec, Key.overlayCorner.spec, Key.clockTrack.spec]
        for argument in refused where arguments.gave(argument) {
            throw .conflicting(argument.synopsis, sound)
        }
        if arguments[Key.video] == "copy" { throw .conflicting("--video copy", sound) }
    }

    /// Why the camera's stream cannot be stored as it is with these options, if it cannot.
    var reasonNotToCopy: String? {
        if mirror { return "--mirror, which changes every picture" }
        if overlay != nil { return "--overlay, which draws on every picture (--clock-track gives the time with a copied stream)" }
        return nil
    }

    /// Parses `--overlay` and `--overlay-corner`: a template that makes a line of text,
    /// with no field in braces but ``TextOverlay/fields``.
    static func overlay(_ arguments: ParsedArguments) throws(ParserError) -> TextOverlay? {
        let corner = try arguments[Key.overlayCorner].map { text throws(ParserError) in
            guard let corner = TextOverlay.Corner(rawValue: text) else {
                throw .invalidValue(text, for: "--overlay-corner <corner>", reason: "use top-left, top-right, bottom-left or bottom-right")
            }
            return corner
        }
        guard let template = arguments[Key.overlay] else {
            if corner != nil { throw .conflicting("--overlay-corner <corner>", "a recording without --overlay") }
            return nil
        }
        var rest = template
        for field in TextOverlay.fields { rest = rest.replacingOccurrences(of: field, with: "") }
        if let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            throw .invalidValue(template, for: "--overlay <text>", reason: "\(rest[open...close]) is no field; use {camera} or {name}, and strftime fields such as %F %T")
        }
        let sample = TextOverlay(template: template).naming(camera: "camera", name: "name").template
        guard WallClock.localText(sample, seconds: WallClock.now() / 1_000_000_000) != nil else {
            throw .invalidValue(template, for: "--overlay <text>", reason: "it makes no text, or more than 511 bytes; give a line such as '%F %T {camera}'")
        }
        return TextOverlay(template: template, corner: corner ?? .topLeft)
    }

    /// `--rotate` and `--mirror`: how the recorded picture is turned and flipped.
    static let orientationArguments: [ArgumentSpec] = [
        Key.rotate.spec,
        Key.mirror.spec,
    ]

    /// Parses `--rotate` (`key`, start's own unless a command declares its own): 0
    /// (left out), 90, 180 or 270 degrees clockwise.
    static func rotation(_ arguments: ParsedArguments, key: ArgumentKey<String?> = Key.rotate) throws(ParserError) -> Int {
        guard let text = arguments[key] else { return 0 }
        guard let degrees = Int(text), [0, 90, 180, 270].contains(degrees) else {
            throw .invalidValue(text, for: "--rotate <degrees>", reason: "use 90, 180 or 270 (clockwise)")
        }
        return degrees
    }

    /// `--camera` and `--camera-format`, shared by `vidrec start` and `vidrec snap`.
    static let cameraArguments: [ArgumentSpec] = [
        Key.camera.spec,
        Key.cameraFormat.spec,
    ]

    /// Parses `--camera-format` for `camera` (each test camera delivers one format).
    static func cameraFormat(_ arguments: ParsedArguments, camera: String) throws(ParserError) -> PixelFormat? {
        guard let text = arguments[Key.cameraFormat] else { return nil }
        guard let format = PixelFormat(rawValue: text.uppercased()) else {
            throw .invalidValue(text, for: "--camera-format <fourcc>", reason: "use one of \(PixelFormat.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if let test = TestPatternCamera.format(named: camera), format != test {
            throw .conflicting("--camera-format \(format.rawValue)", "--camera \(camera), which delivers \(test.rawValue) only")
        }
        return format
    }

    /// The camera-control options, shared by `vidrec start` and `vidrec snap`.
    static let controlArguments: [ArgumentSpec] = [
        Key.set.spec,
        Key.focus.spec,
        Key.exposure.spec,
        Key.whiteBalance.spec,
        Key.torch.spec,
        Key.keepControls.spec,
    ]

    /// Parses the camera-control options (``controlArguments``).
    static func controls(_ arguments: ParsedArguments) throws(ParserError) -> (request: CameraControlRequest, keep: Bool) {
        var controls = CameraControlRequest()
        for text in arguments[Key.set] {
            guard let entry = CameraControlRequest.parseSet(text) else {
                throw .invalidValue(text, for: "--set <name=value>", reason: "give a control and a value, such as brightness=200 or auto_exposure='Manual Mode'")
            }
            controls.entries.append(entry)
        }
        let shortcuts: [(ArgumentKey<String?>, (Int?) -> CameraControlRequest.Entry)] = [
            (Key.focus, { .focus($0) }), (Key.exposure, { .exposure($0) }), (Key.whiteBalance, { .whiteBalance($0) }),
        ]
        for (key, make) in shortcuts {
            guard let text = arguments[key] else { continue }
            guard let value = CameraControlRequest.parseAutoOrNumber(text) else {
                throw .invalidValue(text, for: key.spec.synopsis, reason: "give 'auto' or a whole number")
            }
            controls.entries.append(make(value))
        }
        if let text = arguments[Key.torch] {
            guard text == "on" || text == "off" else { throw .invalidValue(text, for: "--torch <on|off>", reason: "give on or off") }
            controls.entries.append(.torch(text == "on"))
        }
        let keepControls = arguments[Key.keepControls]
        if keepControls, controls.isEmpty { throw .conflicting("--keep-controls", "no control set; add --set NAME=VALUE") }
        return (controls, keepControls)
    }

    /// Parses a size option (`500K`, `50M`, `2G`), at least `minimum` bytes (0 allowed if 0).
    static func size(_ text: String?, _ synopsis: String, minimum: Int64) throws(ParserError) -> Int64? {
        guard let text else { return nil }
        if text == "0", minimum == 0 { return 0 }
        guard let bytes = ByteCount.parse(text), bytes >= minimum else {
            throw .invalidValue(text, for: synopsis, reason: "give a size such as 500K, 50M or 2G" + (minimum > 0 ? " (at least \(ByteCount.format(minimum)))" : ""))
        }
        return bytes
    }
}
