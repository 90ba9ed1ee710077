import VidrecCore

/// A feature of `vidrec start` as the command line sees it: the options it adds to
/// `start` (its help, manual page, completions and `vidrec schedule`'s checks follow
/// from them), how it checks them, and how it makes its ``RecordingFeature`` once the
/// recording is being set up. The features are listed in ``StartFeatures/all``.
struct StartFeature: Sendable {
    /// What a feature is given when the recording is set up.
    struct Setup: Sendable {
        /// The command's context: paths, albums, output.
        var context: CommandContext
        /// All of `start`'s options, checked.
        var options: StartOptions
        /// Says that a file was saved to an album (`path`, `album`): its path goes to
        /// standard output, and it is queued for `--upload`.
        var saved: @Sendable (_ path: String, _ album: String) -> Void
        /// Tells the user something, one line without the `vidrec: ` prefix.
        var warn: @Sendable (String) -> Void
    }

    /// Makes the feature for a recording.
    typealias Make = @Sendable (Setup) throws -> any RecordingFeature

    /// The options the feature adds to `start`.
    var arguments: [ArgumentSpec]
    /// Checks the feature's options among all of `start`'s (the others already checked):
    /// `nil` when they do not ask for it; a usage error for a bad value or a conflict.
    var parse: @Sendable (ParsedArguments, StartOptions) throws(ParserError) -> Make?
}
