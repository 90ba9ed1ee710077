import VidrecCore
import VidrecFFmpeg

/// A feature of `vidrec start` as the command line sees it: the options it adds to
/// `start` (its help, manual page, completions and `vidrec schedule`'s checks follow
/// from them), how it checks them, and how it makes its parts once the recording is
/// being set up: a ``RecordingFeature``, outputs beside the movie file, and a part that
/// outlives the recording (``FollowUp``). The features are listed in
/// ``StartFeatures/all``.
struct StartFeature: Sendable {
    /// What a feature is given when the recording is set up.
    struct Setup: Sendable {
        /// The command's context: paths, albums, output.
        var context: CommandContext
        /// All of `start`'s options, checked.
        var options: StartOptions
        /// Says that a file was saved to an album: its path goes to standard output, and
        /// the parts that follow saved files hear of it (`--upload`, `--on-saved`).
        var saved: @Sendable (SavedFile) -> Void
        /// Tells the user something, one line without the `vidrec: ` prefix.
        var warn: @Sendable (String) -> Void
        /// Tells the user of a failure, also with `--quiet` (a whole line, with the
        /// prefix and the newline).
        var failure: @Sendable (String) -> Void
        /// Tells the log something (quiet with `--quiet`; a whole line).
        var log: @Sendable (String) -> Void
    }

    /// What a feature adds to a recording.
    struct Parts: Sendable {
        /// Its part in the recording: outputs beside the movie that see the frames, and
        /// lines at the end (``RecordingFeature``).
        var recording: (any RecordingFeature)?
        /// Outputs beside the movie file that take the encoder's own packets (a live
        /// stream).
        var sideOutputs: [SideOutput] = []
        /// Its part that follows the saved files and outlives the recording (the upload
        /// queue).
        var followUp: (any FollowUp)?
        /// The requests of the control socket it answers (the photo output's `snap`).
        var requests: [ControlAnswer] = []

        init(_ recording: (any RecordingFeature)? = nil, sideOutputs: [SideOutput] = [],
             followUp: (any FollowUp)? = nil, requests: [ControlAnswer] = []) {
            self.recording = recording
            self.sideOutputs = sideOutputs
            self.followUp = followUp
            self.requests = requests
        }
    }

    /// Makes the feature for a recording.
    typealias Make = @Sendable (Setup) throws -> Parts

    /// The options the feature adds to `start`.
    var arguments: [ArgumentSpec]
    /// Checks the feature's options among all of `start`'s (the others already checked):
    /// `nil` when they do not ask for it; a usage error for a bad value or a conflict.
    var parse: @Sendable (ParsedArguments, StartOptions) throws(ParserError) -> Make?
}
