import Foundation
import VidrecMedia

/// What `vidrec start` asks of the ``Recorder``, as `UIImagePickerController`'s
/// `videoQuality` and `videoMaximumDuration` ask it of the camera.
public struct RecordingRequest: Sendable {
    /// The quality preset, resolved.
    public var preset: Preset
    /// `--max`.
    public var maxDuration: DurationLimit?
    /// `--max-size`.
    public var maxFileSize: Int64?
    /// `--min-free` (`nil`: no floor).
    public var minFreeSpace: Int64?
    /// The name to save under (`--as`, or `--name` expanded), kept in the sidecar.
    public var saveName: String?
    /// Save to the album when the recording ends well (`--save`), and how.
    public var save: SaveRequest?
    /// When the recording starts (its ID and `--name` come from it).
    public var startTime: Date
    /// The recording process, for the sidecar.
    public var pid: Int32
    /// One movie, segments or events, and how their files are named and reported.
    public var mode: RecordingMode = .singleFile
    /// The features attached to the recording, each with its own outputs beside the
    /// movie (``RecordingFeature``), in the order given.
    public var features: [any RecordingFeature] = []
    /// The private folder the recording's control socket goes in (`ID.sock`, named in
    /// the sidecar for `vidrec snap`, `switch` and `trigger`); `nil`: no socket.
    public var controlFolder: String?
    /// `--reconnect`: how long, in seconds, a camera that goes away is waited for
    /// (``CameraReconnection``); `nil` or 0: its loss ends the recording.
    public var reconnect: Rational?

    /// The control socket of the recording `id` in ``controlFolder``: named after the
    /// process too, so that recordings of one user with other state folders that start
    /// in the same second never share one.
    public func controlSocket(id: String) -> String? {
        controlFolder.map { "\($0)/\(id)-\(pid).sock" }
    }

    /// Creates a request; see the properties for the meaning of each argument.
    public init(preset: Preset, maxDuration: DurationLimit? = nil, maxFileSize: Int64? = nil, minFreeSpace: Int64? = nil,
                saveName: String? = nil, save: SaveRequest? = nil, startTime: Date = Date(), pid: Int32) {
        self.preset = preset
        self.maxDuration = maxDuration
        self.maxFileSize = maxFileSize
        self.minFreeSpace = minFreeSpace
        self.saveName = saveName
        self.save = save
        self.startTime = startTime
        self.pid = pid
    }
}

/// Where and how a recording is saved when it ends well.
public struct SaveRequest: Sendable {
    /// The album folder.
    public var album: Album
    /// Keep only this many of vidrec's newest recordings in the album (`--keep`).
    public var keep: Int?
    /// Remove vidrec's oldest recordings beyond this total size (`--album-max-size`).
    public var albumMaxSize: Int64?
    /// Remove vidrec's recordings saved longer ago than this, in seconds (`--max-age`).
    public var maxAge: Rational?

    /// Creates a save request; see the properties for the meaning of each argument.
    public init(album: Album, keep: Int? = nil, albumMaxSize: Int64? = nil, maxAge: Rational? = nil) {
        self.album = album
        self.maxAge = maxAge
        self.keep = keep
        self.albumMaxSize = albumMaxSize
    }
}
