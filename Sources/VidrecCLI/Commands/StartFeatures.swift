import VidrecCore
import VidrecFFmpeg
import VidrecMedia

/// The features of `vidrec start` that plug in, in the order their options are listed:
/// the one place a feature is registered (docs/ARCHITECTURE.md walks through adding one).
enum StartFeatures {
    static let all: [StartFeature] = [
        // --snap-every: a still photo every so often while recording.
        StartFeature(arguments: [
            .option("snap-every", value: "duration", help: "Also take a still photo (JPEG) of the recorded picture this often (10s, 5m, 1h; a plain number is seconds): a time-lapse beside the movie, which loses no frame for it. Each photo is pending like a 'vidrec snap' photo; with --save each is saved to the photo album as it is taken."),
        ]) { arguments, options throws(ParserError) in
            guard let text = arguments[option: "snap-every"] else { return nil }
            guard let seconds = StartOptions.duration(text), seconds >= Rational(1), seconds <= Rational(86_400) else {
                throw .invalidValue(text, for: "--snap-every <duration>", reason: "give an interval from 1 s to 24 h, such as 10s, 5m or 30 (seconds)")
            }
            return { setup in
                let album = setup.context.photoAlbum(nil)
                return IntervalPhotos(every: seconds, encoder: PhotoEncoder(), save: setup.options.save ? SaveRequest(album: album) : nil,
                                      saved: { setup.saved($0, album.path) }, warn: setup.warn)
            }
        },
    ]

    /// The options of every feature, for `start`'s spec.
    static var arguments: [ArgumentSpec] { all.flatMap(\.arguments) }
}
