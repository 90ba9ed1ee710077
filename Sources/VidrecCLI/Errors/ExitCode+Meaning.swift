import VidrecMedia
import VidrecSystem

extension ExitCode {
    /// When vidrec exits with this status, in the manual's words (Markdown code spans).
    public var meaning: String {
        switch self {
        case .success: "success: the recording reached `--max` or was stopped; the command did its job"
        case .failure: "a failure with no more specific code"
        case .usage: "usage error: the command line is wrong (message, usage and a help hint on stderr); `--upload` to a remote rclone has no configuration for; `switch` to the camera the recording already records from, to any camera while the recording copies its camera's stream, or without an ID while several record; `trigger` to a recording that does not wait for triggers; `--video copy` with `--mirror`, `--overlay` or the YUYV test camera"
        case .dataError: "a preset is broken or asks for what this FFmpeg cannot do (also: `--rotate` with a Matroska/WebM preset, `--live` with codecs its protocol cannot carry); a camera control the camera lacks or a value outside its range (`--set`, `--focus`, …), or controls asked of the test camera"
        case .noInput: "nothing to act on: no pending recording, an unknown ID, nothing recording (`stop`, `switch`, `trigger`), no album item of that name (`show`), nothing in the album to draw (`sheet`); a `--mqtt-credentials` file that cannot be read or that others can read"
        case .unavailable: "rclone is not installed (`--upload`, `vidrec upload`); a camera or microphone is missing, busy (another program) or unusable (also: `--video copy` on a camera that sends no H.264 or MJPEG, no node vidrec can record from, a sound server this process cannot reach), or it failed during the recording (what was recorded is kept); `snap`: no picture came from the camera within 10 s; `serve`: its port is taken or its address is not this machine's, or its `--mqtt` broker cannot be reached or refuses its user"
        case .software: "internal error"
        case .cannotCreate: "the album or the state folder cannot be created or written; `--install` (`schedule --systemd`, `service`) found a unit of that name that says something else"
        case .ioError: "writing the recording failed (disk full, I/O error), or the disk fell to the `--min-free` floor; what was recorded is kept"
        case .temporaryFailure: "uploads are still queued (`--upload`, `vidrec upload`; the files are saved, and the queue is retried later); the camera is already being recorded by another vidrec; `vidrec stop` could not confirm or stop the process in time; `save`/`discard` of a recording still being written; `snap` from a recording that could not take the photo (it was ending, or did not answer), or with camera settings while the camera records; `switch` to a camera another recording holds, or a recording that did not answer"
        case .aborted: "aborted by a second Ctrl-C; the recording so far is pending as interrupted"
        }
    }
}
