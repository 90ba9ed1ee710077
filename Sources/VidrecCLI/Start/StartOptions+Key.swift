extension StartOptions {
    /// `vidrec start`'s own arguments, each declared once and read back through its key
    /// (the features' are ``StartFeatures/Key``, the uploads' ``UploadOptions/Key``, the
    /// hooks' ``HookOptions/Key``).
    enum Key {
        static let fit = ArgumentKey.option("fit", value: "how", help: "How to fit a camera picture of another aspect ratio: crop (fill, cutting the edges), pad (black bars) or stretch. (default: crop)")
        static let mic = ArgumentKey.option("mic", value: "mic", help: "A microphone: an ALSA name (default, hw:1,0, plughw:…), an index from 'vidrec devices', 'test' for a 1 kHz tone, or 'none'. (default: default)")
        static let quality = ArgumentKey.option("quality", value: "preset", short: "q", help: "A preset name (see 'vidrec presets') or a preset file. (default: medium)")
        static let max = ArgumentKey.option("max", value: "duration", help: "Stop after exactly this much media time: seconds (30, 2.5) or with a unit (90s, 5m, 1h), at most 24 h.")
        static let maxSize = ArgumentKey.option("max-size", value: "size", help: "Stop before the file exceeds this size, such as 500K, 50M or 2G.")
        static let reconnect = ArgumentKey.option("reconnect", value: "duration", help: "When the camera goes away (unplugged, reset, or sending nothing for 5 s), wait this long for it to come back and go on in the same file, its last picture held over the gap and the sound kept; 0 ends the recording at once. Not with --video copy. (default: 30s)")
        static let minFree = ArgumentKey.option("min-free", value: "size", help: "Stop before the disk has less free space than this; 0 turns the check off. (default: 200M)")
        static let save = ArgumentKey.flag("save", help: "Save to the album when the recording ends well.")
        static let saveAs = ArgumentKey.option("as", value: "name", help: "The file name to save under.")
        static let name = ArgumentKey.option("name", value: "template", help: "The file name to save under, with strftime fields: 'door-%Y%m%d-%H%M%S', or with folders in the album: '%Y/%m/%d/door-%H%M%S'.")
        static let album = ArgumentKey.option("album", value: "dir", help: "The album folder (with --save). (default: $VIDREC_ALBUM or ~/Videos/vidrec)")
        static let keep = ArgumentKey.option("keep", value: "count", help: "With --save: keep only this many of vidrec's newest recordings in the album.")
        static let albumMaxSize = ArgumentKey.option("album-max-size", value: "size", help: "With --save: remove vidrec's oldest recordings from the album beyond this total size.")
        static let maxAge = ArgumentKey.option("max-age", value: "duration", help: "With --save: remove vidrec's recordings saved to the album longer ago than this (7d, 12h, 30m).")
        static let video = ArgumentKey.option("video", value: "auto|copy|encode", help: "Store the camera's own H.264 (or, for an mjpeg preset, its Motion JPEG) as it is, for next to no CPU (copy); decode and encode as the preset says (encode); or copy when the camera sends the preset's codec at its size and rate and nothing changes the picture (auto). (default: the preset's video.handling, else auto)")
        static let segment = ArgumentKey.option("segment", value: "duration", help: "Record as a series of files of this length (10s, 5m, 1h; a plain number is seconds), each a finished movie that plays on its own, until stopped or --max. With --save each is saved as it closes; --name names each from its own start time.")
        static let segmentAtClock = ArgumentKey.flag("segment-at-clock", help: "With --segment: cut when the clock is at a multiple of the length (5m segments start at :00, :05, …); the first segment is shorter to get there.")
        static let pre = ArgumentKey.option("pre", value: "duration", help: "Wait for triggers ('vidrec trigger' or SIGUSR1) and write nothing until one comes; keep this much from before it in memory and write it with the event. With --segment, the segments go on and each event is a file beside them. (default with --post: 5)")
        static let post = ArgumentKey.option("post", value: "duration", help: "With triggers: record this long after the last one, then close the event's file and wait again. (default with --pre: 10)")
        static let log = ArgumentKey.option("log", value: "file", help: "Also append every message, with the time, to this file: a regular file of your own that no other user can write, not a symbolic link (made 0600 if new).")
        static let quiet = ArgumentKey.flag("quiet", help: "Print nothing when all goes well (messages still go to --log); a failure still prints one line on stderr. For cron.")
        static let rotate = ArgumentKey.option("rotate", value: "degrees", help: "Have players turn the picture clockwise by 90, 180 or 270 degrees (written into the MP4's display matrix: no re-encoding, no extra CPU).")
        static let mirror = ArgumentKey.flag("mirror", help: "Flip the picture left to right, as a selfie camera shows it (costs some CPU on every frame).")
        static let camera = ArgumentKey.option("camera", value: "camera", help: "A camera: /dev/videoN, an index or part of a name from 'vidrec devices', 'test' for the built-in test pattern (test:mjpeg and test:h264 send it as a webcam's Motion JPEG or H.264, in a two-second loop), or 'none' to record sound only: an M4A file (AAC) or an Ogg Opus file (Opus), from the preset's audio and --mic. (default: the first camera vidrec can record from; 'vidrec devices' says why a node, such as one that sends only raw Bayer, is passed over)")
        static let cameraFormat = ArgumentKey.option("camera-format", value: "fourcc", help: "Force the camera's pixel format: YUYV, UYVY, NV12, YU12, YV12, RGB3, BGR3, MJPG, JPEG or H264.")
        static let set = ArgumentKey.repeatable("set", value: "name=value", help: "Set a camera control: a number, on/off, or a menu item by name ('vidrec controls' lists them). Repeatable.")
        static let focus = ArgumentKey.option("focus", value: "auto|N", help: "Autofocus, or a fixed focus distance in the camera's units.")
        static let exposure = ArgumentKey.option("exposure", value: "auto|N", help: "Automatic exposure, or a fixed exposure time in the camera's units (100 µs for most webcams).")
        static let whiteBalance = ArgumentKey.option("white-balance", value: "auto|K", help: "Automatic white balance, or a colour temperature in kelvin.")
        static let torch = ArgumentKey.option("torch", value: "on|off", help: "The camera's light (a flash LED in torch mode, or a webcam's LED), where it has one.")
        static let keepControls = ArgumentKey.flag("keep-controls", help: "Leave the controls as set afterwards (by default vidrec sets them back).")
    }
}
