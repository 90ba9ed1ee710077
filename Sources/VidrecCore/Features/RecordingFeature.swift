import VidrecMedia

/// A part of a recording that brings its own outputs beside the movie and says at the
/// end what it did, as an output registered with OBS (`obs_register_output`) or a
/// handler added to a NIO pipeline. The ``Recorder`` attaches every feature of the
/// request (``RecordingRequest/features``) in the same way, so a feature is added
/// without touching the capture session, the movie or another feature.
///
/// A feature's outputs are connected to the session like the movie: each on its own
/// named thread, behind its own bounded queue, with its own ``OutputPolicy``. A feature
/// that must never cost the movie a frame makes its connections non-essential with a
/// small queue that drops.
///
/// The command line registers the features of `vidrec start`, each with the options it
/// adds (`StartFeatures` in the CLI; docs/ARCHITECTURE.md walks through adding one).
public protocol RecordingFeature: AnyObject, Sendable {
    /// Attaches the feature to a recording that is about to start: called once, after the
    /// recording's pending entry exists and before the first frame reaches any output.
    ///
    /// - Returns: the outputs it adds beside the movie (none is fine).
    /// - Throws: when it cannot work; the recording then does not start, and nothing is
    ///   left pending.
    func attach(to recording: FeatureContext) throws -> [OutputConnection]

    /// The recording has ended and the feature's outputs have finished.
    ///
    /// - Returns: what to tell the user, one line each (without the `vidrec: ` prefix).
    func recordingEnded(_ outcome: RecordingOutcome) -> [String]
}
