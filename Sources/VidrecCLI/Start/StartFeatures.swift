import VidrecCore
import VidrecFFmpeg
import VidrecMedia

/// The features of `vidrec start` that plug in, in the order their options are listed:
/// the one place a feature is registered (docs/ARCHITECTURE.md walks through adding one).
enum StartFeatures {
    /// The arguments, each declared once and read back through its key.
    enum Key {
        static let trigger = ArgumentKey.option("trigger", value: "motion[=N]", help: "Also trigger on motion in the picture: a mean luma change of at least N (0-255, default 6) between small copies of successive frames. Turns on --pre/--post.")
        static let live = ArgumentKey.option("live", value: "url", help: "Also publish the recording as it is made to a media server: rtmp://host/app/stream, srt://host:port or rtsp://host:port/path. The file comes first: when the server is slow or gone, the stream drops and reconnects, and the file loses nothing.")
        static let snapEvery = ArgumentKey.option("snap-every", value: "duration", help: "Also take a still photo (JPEG) of the recorded picture this often (10s, 5m, 1h; a plain number is seconds): a time-lapse beside the movie, which loses no frame for it. Each photo is pending like a 'vidrec snap' photo; with --save each is saved to the photo album as it is taken.")
    }

    static let all: [StartFeature] = [
        // The photo output beside the movie, which `vidrec snap` asks over the control
        // socket while the camera records: every recording has one.
        StartFeature(arguments: []) { _, _ in
            { _ in
                let photos = PhotoOutput(encoder: PhotoEncoder())
                return .init(photos, requests: [SnapAnswer.answer(photos)])
            }
        },
        // The viewfinder `vidrec serve` shows, asked over the control socket: every
        // recording has one, which encodes nothing while nobody watches. Its pictures
        // look as players show the movie: turned by --rotate, flipped by --mirror.
        StartFeature(arguments: []) { _, _ in
            { setup in
                let viewfinder = ViewfinderOutput(feed: ViewfinderFeed(),
                                                  encoder: PhotoEncoder(turnedClockwise: setup.options.rotation, mirrored: setup.options.mirror,
                                                                        quantizer: PhotoEncoder.viewfinderQuantizer))
                return .init(viewfinder, requests: [ViewfinderAnswer.answer(viewfinder.feed)])
            }
        },
        // --trigger motion[=N]: a recording waiting for triggers is also triggered by
        // motion in the picture (StartOptions turns --pre/--post on for it).
        StartFeature(arguments: [
            Key.trigger.spec,
        ]) { arguments, _ throws(ParserError) in
            guard let text = arguments[Key.trigger] else { return nil }
            let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.first == "motion" else {
                throw .invalidValue(text, for: "--trigger <motion[=N]>", reason: "the trigger vidrec watches for is motion ('vidrec trigger' and SIGUSR1 always work)")
            }
            let threshold = parts.count == 2 ? Double(parts[1]) : MotionDetector.defaultThreshold
            guard let threshold, threshold > 0, threshold <= 255 else {
                throw .invalidValue(text, for: "--trigger <motion[=N]>", reason: "give motion, or motion=N with N a mean luma change from 0 to 255 such as 6")
            }
            return { _ in .init(MotionTrigger(threshold: threshold) { MotionDetector(threshold: $0, onMotion: $1) }) }
        },
        // --live: the encoder's own packets to a media server, beside the file.
        StartFeature(arguments: [
            Key.live.spec,
        ]) { arguments, options throws(ParserError) in
            guard let text = arguments[Key.live] else { return nil }
            let destination: LiveDestination
            do throws(LiveDestination.Problem) {
                destination = try LiveDestination(parsing: text)
            } catch {
                throw .invalidValue(LiveDestination.redacted(text), for: "--live <url>", reason: error.description)
            }
            return { setup in
                .init(sideOutputs: [SideOutput(wantsGlobalHeader: destination.wantsGlobalHeader, threadName: "vidrec.live") { streams in
                    try LiveStreamOutput(destination: destination, streams: streams, report: setup.warn)
                }])
            }
        },
        // --snap-every: a still photo every so often while recording.
        StartFeature(arguments: [
            Key.snapEvery.spec,
        ]) { arguments, options throws(ParserError) in
            guard let text = arguments[Key.snapEvery] else { return nil }
            guard let seconds = Rational(duration: text), seconds >= Rational(1), seconds <= Rational(86_400) else {
                throw .invalidValue(text, for: "--snap-every <duration>", reason: "give an interval from 1 s to 24 h, such as 10s, 5m or 30 (seconds)")
            }
            return { setup in
                let album = setup.context.photoAlbum(nil)
                return .init(IntervalPhotos(every: seconds, encoder: PhotoEncoder(), save: setup.options.save ? SaveRequest(album: album) : nil,
                                            saved: { setup.saved(SavedFile(path: $0, album: album.path, kind: .photo)) }, warn: setup.warn))
            }
        },
        // --upload: each saved file to object storage, while recording and after it.
        StartFeature(arguments: UploadOptions.arguments) { arguments, options throws(ParserError) in
            guard let upload = try UploadOptions.parse(arguments) else { return nil }
            if !options.save { throw .conflicting("--upload <remote:path>", "a recording that is not saved; add --save") }
            return { setup in
                let album = setup.context.album(setup.options.albumPath).path
                return .init(followUp: try RecordingUploads(upload, context: setup.context, album: album, log: setup.log,
                                                                  failure: setup.failure))
            }
        },
        // --on-saved, --on-event, --on-failure: commands run on what happens, beside the
        // recording, which never waits for them.
        StartFeature(arguments: HookOptions.arguments) { arguments, options throws(ParserError) in
            guard let (commands, timeLimit) = try HookOptions.parse(arguments, options) else { return nil }
            return { setup in
                .init(followUp: RecordingHooks(commands, timeLimit: timeLimit, preset: setup.options.quality,
                                               environment: setup.context.paths.environment, log: setup.log, failure: setup.failure))
            }
        },
        // --mqtt: what happens, told to an MQTT broker as it happens.
        StartFeature(arguments: MQTTOptions.arguments) { arguments, _ throws(ParserError) in
            guard let mqtt = try MQTTOptions.parse(arguments) else { return nil }
            return { setup in
                .init(followUp: try MQTTReport(mqtt, preset: setup.options.quality, pendingArea: setup.context.paths.stateDirectory,
                                               log: setup.log, warn: setup.warn))
            }
        },
    ]

    /// The options of every feature, for `start`'s spec.
    static var arguments: [ArgumentSpec] { all.flatMap(\.arguments) }
}
