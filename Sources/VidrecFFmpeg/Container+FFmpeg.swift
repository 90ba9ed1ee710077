import CFFmpeg
import VidrecMedia

extension Container {
    /// The libavformat muxer's name.
    var muxerName: String {
        switch self {
        case .mp4, .m4a: "mp4"
        case .opus: "opus"
        case .mov: "mov"
        case .mkv: "matroska"
        case .webm: "webm"
        case .jpeg: "image2"
        }
    }

    /// Muxer options for recording: a fragment every tenth of a second (and at every
    /// keyframe) for MP4/MOV; tenth-of-a-second clusters for Matroska/WebM. A `kill -9`
    /// loses at most the fragment being built plus what the encoder still holds (see
    /// `VideoStreamEncoder`). The fragment headers cost about 2 KB a second; the index
    /// written at the end is not larger for them.
    ///
    /// `use_metadata_tags` keeps vidrec's own tags (``MovieMetadataKey``) as `mdta` keys.
    ///
    /// Ogg pages are cut every tenth of a second too (rather than every second). An M4A
    /// file says so in its brand, as iTunes and phones expect.
    ///
    /// `delay_moov` holds the movie header back until the first fragment is cut, so
    /// that it can carry edit lists: without them, B-frame reordering and AAC priming
    /// would shift the video against the audio (by 2 frames and 1024 samples).
    var recordingOptions: [(String, String)] {
        if isFragmentedWhileRecording {
            [("movflags", "+frag_keyframe+empty_moov+delay_moov+default_base_moof+use_metadata_tags"), ("frag_duration", "100000")]
                + (self == .m4a ? [("brand", "M4A ")] : [])
        } else if self == .opus {
            [("page_duration", "100000")]
        } else {
            [("cluster_time_limit", "100"), ("cluster_size_limit", "4194304")]
        }
    }
}

extension Container {
    /// Whether the muxer wants the codec headers in the stream parameters rather than in
    /// the packets (`AVFMT_GLOBALHEADER`): MP4, MOV and Matroska do.
    var wantsGlobalHeader: Bool {
        guard let format = av_guess_format(muxerName, nil, nil) else { return true }
        return format.pointee.flags & AVFMT_GLOBALHEADER != 0
    }
}
