import Foundation
import Glibc
import VidrecMedia
import VidrecSystem

/// Reads and validates a preset file strictly: unknown fields, wrong types and values
/// out of range are errors that name the file, the field and what is allowed.
public struct PresetParser: Sendable {
    /// Checks that an encoder exists (`name`, `video` or `audio`); the CLI passes
    /// FFmpeg's catalog, tests may pass their own.
    public typealias EncoderCheck = @Sendable (_ name: String, _ kind: MediaKind) -> Bool

    private let encoderExists: EncoderCheck
    private let pixelFormatExists: @Sendable (String) -> Bool

    /// Creates a parser that checks codec and pixel format names with the given functions.
    public init(encoderExists: @escaping EncoderCheck = { _, _ in true },
                pixelFormatExists: @escaping @Sendable (String) -> Bool = { _ in true }) {
        self.encoderExists = encoderExists
        self.pixelFormatExists = pixelFormatExists
    }

    static let topFields = ["description", "width", "height", "frameRate", "container", "video", "audio"]
    static let videoFields = ["codec", "speed", "crf", "bitRate", "keyframeInterval", "pixelFormat", "handling"]
    static let audioFields = ["codec", "sampleRate", "channels", "bitRate"]
    /// Containers and the codecs each can hold.
    static let containers = Container.allCases.filter(\.isMovie).map(\.rawValue)

    /// Parses the preset in `file`, naming it `name`.
    public func parse(file: String, name: String) throws(PresetError) -> Preset {
        let data: Data
        do { data = try PresetParser.read(file) } catch {
            throw .unreadable(file: file, reason: error.reason)
        }
        return try parse(data: data, file: file, name: name)
    }

    /// Reads a whole (small) file, keeping the C error text for messages: a regular file
    /// only (a FIFO or a device is refused, never waited on), at most 1 MiB.
    static func read(_ path: String) throws(SystemError) -> Data {
        guard let data = try StateFile.read(path, limit: 1 << 20, followingLinks: true) else {
            throw SystemError("open", path, errno: ENOENT)
        }
        return data
    }

    /// Parses preset JSON held in memory; `file` is used in messages.
    public func parse(data: Data, file: String, name: String) throws(PresetError) -> Preset {
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: data) } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
            throw .malformed(file: file, reason: detail)
        }
        guard let root = object as? [String: Any] else {
            throw .malformed(file: file, reason: "the top level must be an object { … }")
        }
        let top = Fields(root, file: file, prefix: "")
        try top.rejectUnknown(PresetParser.topFields)
        let summary = try top.string("description", required: false) ?? ""
        let width = try top.integer("width", in: 32...7680, even: true)
        let height = try top.integer("height", in: 32...4320, even: true)
        let frameRate = try top.rate("frameRate")
        let container = Container(rawValue: try top.choice("container", PresetParser.containers))!

        let videoEncoding = try video(Fields(try top.object("video", required: true)!, file: file, prefix: "video."),
                                      width: width, height: height, frameRate: frameRate, file: file)
        let audioEncoding = try top.object("audio", required: false).map { object throws(PresetError) in
            try audio(Fields(object, file: file, prefix: "audio."), file: file)
        }
        if container == .webm {
            if !["libvpx", "libvpx-vp9", "libaom-av1", "libsvtav1"].contains(videoEncoding.codec) {
                throw .invalidField(file: file, field: "video.codec", problem: "is '\(videoEncoding.codec)', which a webm container cannot hold; use libvpx-vp9 or libaom-av1, or container mkv")
            }
            if let codec = audioEncoding?.codec, !["libopus", "libvorbis"].contains(codec) {
                throw .invalidField(file: file, field: "audio.codec", problem: "is '\(codec)', which a webm container cannot hold; use libopus, or container mkv")
            }
        }
        return Preset(name: name, file: file, summary: summary,
                      settings: MovieSettings(container: container, video: videoEncoding, audio: audioEncoding))
    }

    /// The preset's `video` object, at the preset's size and rate.
    private func video(_ video: Fields, width: Int, height: Int, frameRate: Rational, file: String) throws(PresetError) -> VideoEncoding {
        try video.rejectUnknown(PresetParser.videoFields)
        let videoCodec = try video.string("codec")!
        guard encoderExists(videoCodec, .video) else {
            throw .invalidField(file: file, field: "video.codec",
                                problem: "names '\(videoCodec)', which is not a video encoder in this FFmpeg; use libx264, libx265, mpeg4, libvpx-vp9, libsvtav1 or libaom-av1")
        }
        let crf = try video.optionalInteger("crf", in: 0...63)
        let videoBitRate = try video.bitRate("bitRate", required: false, in: 10_000...1_000_000_000)
        if crf == nil && videoBitRate == nil {
            throw .invalidField(file: file, field: "video.crf", problem: "is missing: give 'video.crf' (constant quality) or 'video.bitRate' (or both)")
        }
        let keyframeInterval = try video.integer("keyframeInterval", in: 1...VideoEncoding.maximumKeyframeInterval(at: frameRate),
                                                 why: " (at most one second of frames, so that a crash loses at most one second)")
        let pixelFormat = try video.string("pixelFormat")!
        guard pixelFormatExists(pixelFormat) else {
            throw .invalidField(file: file, field: "video.pixelFormat", problem: "names '\(pixelFormat)', which FFmpeg does not know; use yuv420p")
        }
        var videoEncoding = VideoEncoding(
            codec: videoCodec, width: width, height: height, frameRate: frameRate, pixelFormat: pixelFormat,
            speed: try video.string("speed", required: false), crf: crf, bitRate: videoBitRate,
            keyframeInterval: keyframeInterval)
        if let handling = try video.string("handling", required: false) {
            guard let value = VideoHandling(rawValue: handling) else {
                throw .invalidField(file: file, field: "video.handling",
                                    problem: "is '\(TextSafety.printable(handling))'; use auto (copy the camera's stream when it is the preset's codec, size and rate), copy or encode")
            }
            videoEncoding.handling = value
        }
        return videoEncoding
    }

    /// The preset's `audio` object.
    private func audio(_ audio: Fields, file: String) throws(PresetError) -> AudioEncoding {
        try audio.rejectUnknown(PresetParser.audioFields)
        let audioCodec = try audio.string("codec")!
        guard encoderExists(audioCodec, .audio) else {
            throw .invalidField(file: file, field: "audio.codec",
                                problem: "names '\(audioCodec)', which is not an audio encoder in this FFmpeg; use aac, libopus or libmp3lame")
        }
        return AudioEncoding(
            codec: audioCodec,
            sampleRate: try audio.choice("sampleRate", [8000, 16000, 22050, 24000, 32000, 44100, 48000, 96000]),
            channels: try audio.integer("channels", in: 1...2),
            bitRate: try audio.bitRate("bitRate", required: true, in: 8_000...1_000_000)!)
    }
}

/// Typed, range-checked access to one JSON object's fields, with messages that name
/// the field by its full path (`video.crf`).
private struct Fields {
    let values: [String: Any]
    let file: String
    let prefix: String

    init(_ values: [String: Any], file: String, prefix: String) {
        self.values = values
        self.file = file
        self.prefix = prefix
    }

    func fail(_ key: String, _ problem: String) -> PresetError {
        .invalidField(file: file, field: prefix + key, problem: problem)
    }

    func rejectUnknown(_ allowed: [String]) throws(PresetError) {
        for key in values.keys.sorted() where !allowed.contains(key) {
            let hint = Suggestion.closest(to: key, in: allowed).map { "; did you mean '\(prefix)\($0)'?" } ?? ""
            throw fail(key, "is not a preset field\(hint) Allowed here: \(allowed.joined(separator: ", "))")
        }
    }

    func present(_ key: String, required: Bool) throws(PresetError) -> Any? {
        guard let value = values[key], !(value is NSNull) else {
            if required { throw fail(key, "is missing") }
            return nil
        }
        return value
    }

    func number(_ key: String, required: Bool) throws(PresetError) -> NSNumber? {
        guard let value = try present(key, required: required) else { return nil }
        guard let number = value as? NSNumber, !Fields.isBoolean(number) else {
            throw fail(key, "must be a number, not \(Fields.describe(value))")
        }
        return number
    }

    func string(_ key: String, required: Bool = true) throws(PresetError) -> String? {
        guard let value = try present(key, required: required) else { return nil }
        guard let text = value as? String, !text.isEmpty else {
            throw fail(key, "must be a non-empty string, not \(Fields.describe(value))")
        }
        return text
    }

    func object(_ key: String, required: Bool) throws(PresetError) -> [String: Any]? {
        guard let value = try present(key, required: required) else { return nil }
        guard let object = value as? [String: Any] else {
            throw fail(key, "must be an object { … }\(required ? "" : " or null"), not \(Fields.describe(value))")
        }
        return object
    }

    func integer(_ key: String, in range: ClosedRange<Int>, even: Bool = false, why: String = "") throws(PresetError) -> Int {
        try optionalInteger(key, in: range, even: even, why: why, required: true)!
    }

    func optionalInteger(_ key: String, in range: ClosedRange<Int>, even: Bool = false, why: String = "",
                         required: Bool = false) throws(PresetError) -> Int? {
        guard let number = try number(key, required: required) else { return nil }
        let value = number.doubleValue
        guard value == value.rounded(), let whole = Int(exactly: value), range.contains(whole), !even || whole % 2 == 0 else {
            let kind = even ? "an even whole number" : "a whole number"
            throw fail(key, "must be \(kind) from \(range.lowerBound) to \(range.upperBound)\(why), not \(number)")
        }
        return whole
    }

    func choice<T: Equatable & CustomStringConvertible>(_ key: String, _ allowed: [T]) throws(PresetError) -> T {
        let value = try present(key, required: true)!
        let candidate: T? = (value as? T) ?? ((value as? NSNumber).flatMap { Int(exactly: $0.doubleValue) } as? T)
        guard let candidate, allowed.contains(candidate) else {
            throw fail(key, "must be one of \(allowed.map(\.description).joined(separator: ", ")), not \(Fields.describe(value))")
        }
        return candidate
    }

    /// The finest frame period a preset may ask for: NTSC's 1001, and decimals such as
    /// 23.976 (2997/125). Finer ones buy nothing and make exact timestamps overflow.
    static let largestRateDenominator: Int64 = 1001

    func rate(_ key: String) throws(PresetError) -> Rational {
        let value = try present(key, required: true)!
        let text = (value as? String) ?? (value as? NSNumber).map { "\($0)" } ?? ""
        guard value is String || (value is NSNumber && !Fields.isBoolean(value)),
              let rate = Rational(parsing: text), rate >= Rational(1), rate <= Rational(240),
              rate.denominator <= Fields.largestRateDenominator
        else {
            throw fail(key, "must be frames per second from 1 to 240 (a number such as 30 or 29.97, or a fraction with a denominator of at most \(Fields.largestRateDenominator) such as \"30000/1001\"), not \(Fields.describe(value))")
        }
        return rate
    }

    func bitRate(_ key: String, required: Bool, in range: ClosedRange<Int>) throws(PresetError) -> Int? {
        guard let value = try present(key, required: required) else { return nil }
        let parsed: Int64? = if let text = value as? String { ByteCount.parse(text) }
            else if let number = value as? NSNumber, !Fields.isBoolean(number) { Int64(exactly: number.doubleValue) }
            else { nil }
        guard let parsed, let bits = Int(exactly: parsed), range.contains(bits) else {
            throw fail(key, "must be bits per second from \(range.lowerBound) to \(range.upperBound) (a number, or a string such as \"8M\" or \"128k\"), not \(Fields.describe(value))")
        }
        return bits
    }

    /// JSON `true`/`false` arrive as NSNumbers whose Objective-C type is `c` (char);
    /// JSON numbers never do.
    static func isBoolean(_ value: Any) -> Bool {
        (value as? NSNumber).map { String(cString: $0.objCType) == "c" } ?? false
    }

    static func describe(_ value: Any) -> String {
        switch value {
        case let text as String: return "\"\(text)\""
        case let number as NSNumber: return isBoolean(number) ? (number.boolValue ? "true" : "false") : "\(number)"
        case is NSNull: return "null"
        case is [Any]: return "a list"
        case is [String: Any]: return "an object"
        default: return "\(value)"
        }
    }
}
