import Foundation
import VidrecCore
import VidrecFFmpeg
import VidrecMedia
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
            .option("fit", value: "how", help: "How to fit a camera picture of another aspect ratio: crop (fill, cutting the edges), pad (black bars) or stretch. (default: crop)"),
            .option("mic", value: "mic", help: "A microphone: an ALSA name (default, hw:1,0, plughw:…), an index from 'vidrec devices', 'test' for a 1 kHz tone, or 'none'. (default: default)"),
            .option("quality", value: "preset", short: "q", help: "A preset name (see 'vidrec presets') or a preset file. (default: medium)"),
            .option("max", value: "duration", help: "Stop after exactly this much media time: seconds (30, 2.5) or with a unit (90s, 5m, 1h), at most 24 h."),
            .option("max-size", value: "size", help: "Stop before the file exceeds this size, such as 500K, 50M or 2G."),
            .option("reconnect", value: "duration", help: "When the camera goes away (unplugged, reset, or sending nothing for 5 s), wait this long for it to come back and go on in the same file, its last picture held over the gap and the sound kept; 0 ends the recording at once. Not with --video copy. (default: 30s)"),
            .option("min-free", value: "size", help: "Stop before the disk has less free space than this; 0 turns the check off. (default: 200M)"),
            .flag("save", help: "Save to the album when the recording ends well."),
            .option("as", value: "name", help: "The file name to save under."),
            .option("name", value: "template", help: "The file name to save under, with strftime fields: 'door-%Y%m%d-%H%M%S', or with folders in the album: '%Y/%m/%d/door-%H%M%S'."),
            .option("album", value: "dir", help: "The album folder (with --save). (default: $VIDREC_ALBUM or ~/Videos/vidrec)"),
            .option("keep", value: "count", help: "With --save: keep only this many of vidrec's newest recordings in the album."),
            .option("album-max-size", value: "size", help: "With --save: remove vidrec's oldest recordings from the album beyond this total size."),
            .option("max-age", value: "duration", help: "With --save: remove vidrec's recordings saved to the album longer ago than this (7d, 12h, 30m)."),
        ] + StartOptions.controlArguments + [
        ] + StartOptions.orientationArguments + [
            .option("video", value: "auto|copy|encode", help: "Store the camera's own H.264 (or, for an mjpeg preset, its Motion JPEG) as it is, for next to no CPU (copy); decode and encode as the preset says (encode); or copy when the camera sends the preset's codec at its size and rate and nothing changes the picture (auto). (default: the preset's video.handling, else auto)"),
            .option("segment", value: "duration", help: "Record as a series of files of this length (10s, 5m, 1h; a plain number is seconds), each a finished movie that plays on its own, until stopped or --max. With --save each is saved as it closes; --name names each from its own start time."),
            .flag("segment-at-clock", help: "With --segment: cut when the clock is at a multiple of the length (5m segments start at :00, :05, …); the first segment is shorter to get there."),
            .option("pre", value: "duration", help: "Wait for triggers ('vidrec trigger' or SIGUSR1) and write nothing until one comes; keep this much from before it in memory and write it with the event. With --segment, the segments go on and each event is a file beside them. (default with --post: 5)"),
            .option("post", value: "duration", help: "With triggers: record this long after the last one, then close the event's file and wait again. (default with --pre: 10)"),
        ] + StartFeatures.arguments + [
            .option("log", value: "file", help: "Also append every message, with the time, to this file: a regular file of your own that no other user can write, not a symbolic link (made 0600 if new)."),
            .flag("quiet", help: "Print nothing when all goes well (messages still go to --log); a failure still prints one line on stderr. For cron."),
        ])

    var camera = "default"
    var cameraFormat: PixelFormat?
    var fit = VideoFit.crop
    var microphone = "default"
    var quality = "medium"
    var limit: DurationLimit?
    var maxSize: Int64?
    /// `--reconnect`, in seconds (0: a camera that goes ends the recording).
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
        logPath = arguments[option: "log"]
        quiet = arguments.has("quiet")
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
        camera = arguments[option: "camera"] ?? "default"
        microphone = arguments[option: "mic"] ?? "default"
        quality = arguments[option: "quality"] ?? "medium"
        let fitText = arguments[option: "fit"] ?? "crop"
        guard let fit = VideoFit(rawValue: fitText) else {
            throw .invalidValue(fitText, for: "--fit <how>", reason: "use crop, pad or stretch")
        }
        self.fit = fit
        cameraFormat = try StartOptions.cameraFormat(arguments, camera: camera)
    }

    /// What ends the recording: `--max`, `--max-size`, `--reconnect`, `--min-free`.
    private mutating func readLimits(_ arguments: ParsedArguments) throws(ParserError) {
        if let text = arguments[option: "max"] {
            guard let limit = DurationLimit(parsing: text) else {
                throw .invalidValue(text, for: "--max <duration>", reason: "give a length greater than 0 and at most 24 h, such as 30 (seconds), 2.5, 90s, 5m or 1h")
            }
            self.limit = limit
        }
        maxSize = try StartOptions.size(arguments[option: "max-size"], "--max-size <size>", minimum: 100_000)
        let reconnectText = arguments[option: "reconnect"] ?? "30"
        guard let reconnect = Rational(duration: reconnectText), reconnect >= Rational(0), reconnect <= Rational(86_400) else {
            throw .invalidValue(reconnectText, for: "--reconnect <duration>",
                                reason: "give how long to wait for a camera that goes away, from 0 (end at once) to 24 h, such as 30 (seconds), 90s or 5m")
        }
        self.reconnect = reconnect
        minFree = try StartOptions.size(arguments[option: "min-free"] ?? "200M", "--min-free <size>", minimum: 0)
        if minFree == 0 { minFree = nil }
    }

    /// Whether and how the recording is saved: `--save`, its name, the album and its limits.
    private mutating func readAlbum(_ arguments: ParsedArguments) throws(ParserError) {
        save = arguments.has("save")
        saveName = try AlbumFileName.validated(arguments[option: "as"])
        nameTemplate = arguments[option: "name"]
        if saveName != nil, nameTemplate != nil { throw .conflicting("--as <name>", "--name <template>") }
        if let template = nameTemplate {
            _ = try AlbumFileName.validatedPath(NameTemplate.expand(template, at: Date()), option: "--name <template>")
        }
        albumPath = arguments[option: "album"]
        if let text = arguments[option: "keep"] {
            guard let count = Int(text), count >= 1, count <= 1_000_000 else {
                throw .invalidValue(text, for: "--keep <count>", reason: "give a whole number of recordings, at least 1")
            }
            keep = count
        }
        albumMaxSize = try StartOptions.size(arguments[option: "album-max-size"], "--album-max-size <size>", minimum: 100_000)
        if let text = arguments[option: "max-age"] {
            guard let seconds = Rational(duration: text), seconds >= Rational(1), seconds <= Rational(3650 * 86_400) else {
                throw .invalidValue(text, for: "--max-age <duration>", reason: "give an age such as 7d, 12h or 30m (at most 3650d)")
            }
            maxAge = seconds
        }
    }

    /// What is done to the picture: `--rotate`, `--mirror`, `--video`, the camera controls.
    private mutating func readPicture(_ arguments: ParsedArguments) throws(ParserError) {
        rotation = try StartOptions.rotation(arguments)
        mirror = arguments.has("mirror")
        if let text = arguments[option: "video"] {
            guard let handling = VideoHandling(rawValue: text) else {
                throw .invalidValue(text, for: "--video <auto|copy|encode>", reason: "use auto, copy (store the camera's own H.264 or MJPEG) or encode")
            }
            video = handling
        }
        (controls, keepControls) = try StartOptions.controls(arguments)
    }

    /// Whether the recording is a series of files: `--segment`, `--pre/--post`.
    private mutating func readSeries(_ arguments: ParsedArguments) throws(ParserError) {
        if let text = arguments[option: "segment"] {
            guard let seconds = Rational(duration: text), seconds >= Rational(1), seconds <= Rational(86_400) else {
                throw .invalidValue(text, for: "--segment <duration>", reason: "give a length from 1 s to 24 h, such as 10s, 5m, 1h or 90 (seconds)")
            }
            segment = seconds
            if saveName != nil { throw .conflicting("--as <name>", "--segment, which makes many files; name them with --name and strftime fields such as 'door-%Y%m%d-%H%M%S'") }
        }
        // --trigger (the motion trigger's option, StartFeatures) waits for triggers too.
        if arguments[option: "pre"] != nil || arguments[option: "post"] != nil || arguments[option: "trigger"] != nil {
            var lengths: [Double] = []
            for (option, fallback) in [("pre", 5.0), ("post", 10.0)] {
                guard let text = arguments[option: option] else { lengths.append(fallback); continue }
                guard let seconds = Rational(duration: text), seconds >= Rational(0), seconds <= Rational(600) else {
                    throw .invalidValue(text, for: "--\(option) <duration>", reason: "give a length from 0 to 10 m, such as 10 (seconds), 2.5, 30s or 1m")
                }
                lengths.append(seconds.doubleValue)
            }
            events = (lengths[0], lengths[1])
            if saveName != nil { throw .conflicting("--as <name>", "--pre/--post, which makes a file for each event; name them with --name and strftime fields") }
        }
        segmentAtClock = arguments.has("segment-at-clock")
        if segmentAtClock, segment == nil { throw .conflicting("--segment-at-clock", "a recording without --segment") }
    }

    /// `--camera none` records sound only: what acts on a picture is refused, and so is
    /// no microphone.
    static func checkSoundOnly(_ arguments: ParsedArguments, microphone: String) throws(ParserError) {
        let sound = "--camera none, which records sound only"
        if microphone == "none" { throw .conflicting("--mic none", "\(sound): there would be nothing to record") }
        // The options that act on a picture, named as `start`'s spec writes them.
        let refused = ["camera-format", "fit", "rotate", "focus", "exposure", "white-balance", "torch", "snap-every", "trigger", "live",
                       "set", "mirror"]
        for name in refused {
            guard arguments.has(name) || arguments[option: name] != nil || !arguments[values: name].isEmpty else { continue }
            throw .conflicting(spec.arguments.first { $0.name == name }?.synopsis ?? "--" + name, sound)
        }
        if arguments[option: "video"] == "copy" { throw .conflicting("--video copy", sound) }
    }

    /// Why the camera's stream cannot be stored as it is with these options, if it cannot.
    var reasonNotToCopy: String? {
        if mirror { return "--mirror, which changes every picture" }
        return nil
    }

    /// `--rotate` and `--mirror`: how the recorded picture is turned and flipped.
    static let orientationArguments: [ArgumentSpec] = [
        .option("rotate", value: "degrees", help: "Have players turn the picture clockwise by 90, 180 or 270 degrees (written into the MP4's display matrix: no re-encoding, no extra CPU)."),
        .flag("mirror", help: "Flip the picture left to right, as a selfie camera shows it (costs some CPU on every frame)."),
    ]

    /// Parses `--rotate`: 0 (left out), 90, 180 or 270 degrees clockwise.
    static func rotation(_ arguments: ParsedArguments) throws(ParserError) -> Int {
        guard let text = arguments[option: "rotate"] else { return 0 }
        guard let degrees = Int(text), [0, 90, 180, 270].contains(degrees) else {
            throw .invalidValue(text, for: "--rotate <degrees>", reason: "use 90, 180 or 270 (clockwise)")
        }
        return degrees
    }

    /// `--camera` and `--camera-format`, shared by `vidrec start` and `vidrec snap`.
    static let cameraArguments: [ArgumentSpec] = [
        .option("camera", value: "camera", help: "A camera: /dev/videoN, an index or part of a name from 'vidrec devices', 'test' for the built-in test pattern (test:mjpeg and test:h264 send it as a webcam's Motion JPEG or H.264, in a two-second loop), or 'none' to record sound only: an M4A file (AAC) or an Ogg Opus file (Opus), from the preset's audio and --mic. (default: the first camera vidrec can record from; 'vidrec devices' says why a node, such as one that sends only raw Bayer, is passed over)"),
        .option("camera-format", value: "fourcc", help: "Force the camera's pixel format: YUYV, UYVY, NV12, YU12, YV12, RGB3, BGR3, MJPG, JPEG or H264."),
    ]

    /// Parses `--camera-format` for `camera` (each test camera delivers one format).
    static func cameraFormat(_ arguments: ParsedArguments, camera: String) throws(ParserError) -> PixelFormat? {
        guard let text = arguments[option: "camera-format"] else { return nil }
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
        .repeatable("set", value: "name=value", help: "Set a camera control: a number, on/off, or a menu item by name ('vidrec controls' lists them). Repeatable."),
        .option("focus", value: "auto|N", help: "Autofocus, or a fixed focus distance in the camera's units."),
        .option("exposure", value: "auto|N", help: "Automatic exposure, or a fixed exposure time in the camera's units (100 µs for most webcams)."),
        .option("white-balance", value: "auto|K", help: "Automatic white balance, or a colour temperature in kelvin."),
        .option("torch", value: "on|off", help: "The camera's light (a flash LED in torch mode, or a webcam's LED), where it has one."),
        .flag("keep-controls", help: "Leave the controls as set afterwards (by default vidrec sets them back)."),
    ]

    /// Parses the camera-control options (``controlArguments``).
    static func controls(_ arguments: ParsedArguments) throws(ParserError) -> (request: CameraControlRequest, keep: Bool) {
        var controls = CameraControlRequest()
        for text in arguments[values: "set"] {
            guard let entry = CameraControlRequest.parseSet(text) else {
                throw .invalidValue(text, for: "--set <name=value>", reason: "give a control and a value, such as brightness=200 or auto_exposure='Manual Mode'")
            }
            controls.entries.append(entry)
        }
        let shortcuts: [(String, (Int?) -> CameraControlRequest.Entry)] = [
            ("focus", { .focus($0) }), ("exposure", { .exposure($0) }), ("white-balance", { .whiteBalance($0) }),
        ]
        for (option, make) in shortcuts {
            guard let text = arguments[option: option] else { continue }
            guard let value = CameraControlRequest.parseAutoOrNumber(text) else {
                throw .invalidValue(text, for: "--\(option) <\(option == "white-balance" ? "auto|K" : "auto|N")>", reason: "give 'auto' or a whole number")
            }
            controls.entries.append(make(value))
        }
        if let text = arguments[option: "torch"] {
            guard text == "on" || text == "off" else { throw .invalidValue(text, for: "--torch <on|off>", reason: "give on or off") }
            controls.entries.append(.torch(text == "on"))
        }
        let keepControls = arguments.has("keep-controls")
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
