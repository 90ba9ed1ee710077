import CFFmpeg

/// The containers vidrec writes, and how each is made crash-safe while recording.
enum ContainerFormat {
    /// The libavformat muxer name for a preset's `container` value, or `nil`.
    static func muxerName(for container: String) -> String? {
        switch container {
        case "mp4": "mp4"
        case "mov": "mov"
        case "mkv": "matroska"
        case "webm": "webm"
        default: nil
        }
    }

    /// Whether finished files are rewritten from fragments into one indexed movie.
    static func needsFinalRemux(_ container: String) -> Bool {
        container == "mp4" || container == "mov"
    }

    /// Muxer options for recording: a fragment every quarter second (and at every
    /// keyframe) for MP4/MOV; quarter-second clusters for Matroska/WebM. A `kill -9`
    /// loses at most the fragment being built plus what the encoder still holds.
    ///
    /// `delay_moov` holds the movie header back until the first fragment is cut, so
    /// that it can carry edit lists: without them, B-frame reordering and AAC priming
    /// would shift the video against the audio (by 2 frames and 1024 samples).
    static func recordingOptions(for container: String) -> [(String, String)] {
        switch container {
        case "mp4", "mov":
            [("movflags", "+frag_keyframe+empty_moov+delay_moov+default_base_moof"), ("frag_duration", "250000")]
        default:
            [("cluster_time_limit", "250"), ("cluster_size_limit", "4194304")]
        }
    }
}
