import VidrecMedia

/// How a recording went, from start to the album.
public struct RecordingReport: Sendable {
    /// The recording's ID in the pending area.
    public var id: String
    /// What the capture session produced and why it ended.
    public var outcome: RecordingOutcome
    /// Why finalizing the file failed, if it did: the recording then stays pending as
    /// interrupted, playable as it is, and `vidrec save` finalizes it later.
    public var finalizeError: (any Error)?
    /// The microphone's sample rate, to turn audio frame counts into seconds (`nil`
    /// without a microphone).
    public var audioSampleRate: Int?
    /// Whether the recording is sound only (``MovieSettings/isAudioOnly``): its frame
    /// counts are only its time, and say nothing to the user.
    public var isAudioOnly = false
    /// The movie's frame rate (for a sound recording, its ticks'), to turn frame counts
    /// into seconds.
    public var frameRate: Rational?
    /// Microphone overruns recovered, where the microphone counts them.
    public var overruns: Int?
    /// Where the recording was saved, with `save` in the request and a good end.
    public var savedPath: String?
    /// Older recordings removed from the album after saving (`--keep`, `--album-max-size`).
    public var removedFromAlbum: [String] = []
    /// A continuous recording's segments (`--segment`), or a recording's events when it
    /// waits for triggers, by pending ID, in order; each was reported as it closed
    /// (``FileSeries/closed``).
    public var segments: [String] = []
    /// The event files written beside the segments (`--segment` with `--pre/--post`),
    /// by pending ID, in order.
    public var events: [String] = []
    /// What the request's features said when the recording ended, one line each
    /// (``RecordingFeature/recordingEnded(_:)``).
    public var featureLines: [String] = []
    /// Whether the recording was stopped before its first frame: nothing was kept (its
    /// pending entry is gone) and nothing saved.
    public var nothingRecorded = false

    /// Whether the recording ended well and is whole: a limit or a stop, finalized.
    public var endedWell: Bool {
        guard finalizeError == nil, outcome.error == nil else { return false }
        if case .lowDiskSpace = outcome.reason { return false }
        return outcome.reason.isSuccess
    }
}
