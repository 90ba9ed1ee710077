import Foundation
import Glibc
import Testing

/// Every bad input, run on the real binary: the exact first line on stderr, the exit
/// status, no stack trace, and nothing left in the pending area or the album.
@Suite struct BadInputTests {
    static let start = ["start", "--camera", "test", "--mic", "test"]

    /// argv → message prefix → status. `$HOME` in a message is the test's home.
    static let table: [([String], String, Int32)] = [
        // Flags and values.
        (start + ["--max", "-1"], "Error: The value '-1' is invalid for '--max <duration>': give a length greater than 0 and at most 24 h, such as 30 (seconds), 2.5, 90s, 5m or 1h", 64),
        (start + ["--max", "abc"], "Error: The value 'abc' is invalid for '--max <duration>'", 64),
        (start + ["--max", "0"], "Error: The value '0' is invalid for '--max <duration>'", 64),
        (start + ["--max", "1e12"], "Error: The value '1e12' is invalid for '--max <duration>'", 64),
        (start + ["--max", "90000"], "Error: The value '90000' is invalid for '--max <duration>'", 64),
        (start + ["--max", "25h"], "Error: The value '25h' is invalid for '--max <duration>'", 64),
        (start + ["--max", "5x"], "Error: The value '5x' is invalid for '--max <duration>'", 64),
        (["stop", "--timeout", "2h"], "Error: The value '2h' is invalid for '--timeout <duration>': give a length greater than 0 and at most 1 h", 64),
        (start + ["--max"], "Error: Missing value for '--max <duration>'", 64),
        (start + ["--reconnect", "-1"], "Error: The value '-1' is invalid for '--reconnect <duration>': give how long to wait for a camera that goes away, from 0 (end at once) to 24 h, such as 30 (seconds), 90s or 5m", 64),
        (start + ["--reconnect", "2d"], "Error: The value '2d' is invalid for '--reconnect <duration>'", 64),
        (start + ["--reconnect", "soon"], "Error: The value 'soon' is invalid for '--reconnect <duration>'", 64),
        (start + ["--max-size", "12Q"], "Error: The value '12Q' is invalid for '--max-size <size>': give a size such as 500K, 50M or 2G (at least 100 KB)", 64),
        (start + ["--max-size", "10K"], "Error: The value '10K' is invalid for '--max-size <size>'", 64),
        (start + ["--min-free", "lots"], "Error: The value 'lots' is invalid for '--min-free <size>'", 64),
        (start + ["--on-saved", "notify"], "Error: '--on-saved <command>' cannot be used with 'a recording that is not saved; add --save'", 64),
        (start + ["--on-event", "notify"], "Error: '--on-event <command>' cannot be used with 'a recording that waits for no trigger; add --pre/--post or --trigger motion'", 64),
        (start + ["--on-failure", ""], "Error: The value '' is invalid for '--on-failure <command>': it names no program; give one, such as '/usr/local/bin/notify \"$VIDREC_FILE\"'", 64),
        (start + ["--on-failure", "notify 'open"], "Error: The value 'notify 'open' is invalid for '--on-failure <command>': a ' quote is not closed; close it, or escape it with a backslash", 64),
        (start + ["--on-failure", "notify\nx"], "Error: The value 'notify\\nx' is invalid for '--on-failure <command>': it holds a control character (a newline, tab or escape); remove it", 64),
        (start + ["--hook-timeout", "10"], "Error: '--hook-timeout <duration>' cannot be used with 'no hook; add --on-saved, --on-event or --on-failure'", 64),
        (start + ["--on-failure", "notify", "--hook-timeout", "2h"], "Error: The value '2h' is invalid for '--hook-timeout <duration>': give a time from 1 s to 1 h, such as 30s, 5m or 10 (seconds)", 64),
        (start + ["--keep", "3"], "Error: '--keep <count>' cannot be used with 'a recording that is not saved; add --save'", 64),
        (start + ["--save", "--keep", "0"], "Error: The value '0' is invalid for '--keep <count>': give a whole number of recordings, at least 1", 64),
        (start + ["--album", "/tmp"], "Error: '--album <dir>' cannot be used with 'a recording that is not saved; add --save'", 64),
        (start + ["--save", "--album-max-size", "5"], "Error: The value '5' is invalid for '--album-max-size <size>'", 64),
        (start + ["--as", "../escape"], "Error: The value '../escape' is invalid for '--as <name>': give a plain file name of at most 200 bytes, without '/', that does not start with '.'", 64),
        (start + ["--as", ".hidden"], "Error: The value '.hidden' is invalid for '--as <name>'", 64),
        (start + ["--as", "a", "--name", "b"], "Error: '--as <name>' cannot be used with '--name <template>'", 64),
        (start + ["--name", "../%Y"], "Error: The value '../", 64),
        (start + ["--name", "%Y//x"], "Error: The value '", 64),
        (start + ["--camera-format", "XYZW"], "Error: The value 'XYZW' is invalid for '--camera-format <fourcc>': use one of YUYV, UYVY, NV12, YU12, YV12, RGB3, BGR3, MJPG", 64),
        (start + ["--camera-format", "NV12"], "Error: '--camera-format NV12' cannot be used with '--camera test, which delivers YUYV only'", 64),
        (["start", "--camera", "none", "--mic", "none"], "Error: '--mic none' cannot be used with '--camera none, which records sound only: there would be nothing to record'", 64),
        (["start", "--camera", "none", "--mic", "test", "--mirror"], "Error: '--mirror' cannot be used with '--camera none, which records sound only'", 64),
        (["start", "--camera", "none", "--mic", "test", "--overlay", "%T"], "Error: '--overlay <text>' cannot be used with '--camera none, which records sound only'", 64),
        (["start", "--camera", "none", "--mic", "test", "--clock-track"], "Error: '--clock-track' cannot be used with '--camera none, which records sound only'", 64),
        (start + ["--overlay", "%F {time}"], "Error: The value '%F {time}' is invalid for '--overlay <text>': {time} is no field; use {camera} or {name}, and strftime fields such as %F %T", 64),
        (start + ["--overlay", ""], "Error: The value '' is invalid for '--overlay <text>': it makes no text, or more than 511 bytes; give a line such as '%F %T {camera}'", 64),
        (start + ["--overlay", "%T", "--overlay-corner", "middle"], "Error: The value 'middle' is invalid for '--overlay-corner <corner>': use top-left, top-right, bottom-left or bottom-right", 64),
        (start + ["--overlay-corner", "top-right"], "Error: '--overlay-corner <corner>' cannot be used with 'a recording without --overlay'", 64),
        (start + ["--overlay", "%T", "--video", "copy"], "Error: The value 'copy' is invalid for '--video <auto|copy|encode>': the camera's stream cannot be stored as it is with --overlay, which draws on every picture (--clock-track gives the time with a copied stream); use --video encode", 64),
        (["start", "--camera", "none", "--mic", "test", "--trigger", "motion"], "Error: '--trigger <motion[=N]>' cannot be used with '--camera none, which records sound only'", 64),
        (["start", "--camera", "none", "--mic", "test", "--quality", "$HOME/silent.json"], "Error: nothing to record: no camera is recorded and there is no microphone (a preset without audio, or --mic none); give a microphone with --mic", 65),
        (start + ["--qualty", "high"], "Error: Unknown option '--qualty'. Did you mean '--quality'?", 64),
        (start + ["--save=yes"], "Error: Unexpected argument '--save=yes'", 64),
        (start + ["extra"], "Error: Unexpected argument 'extra'", 64),
        (["strat"], "Error: Unknown command 'strat'. Did you mean 'start'?", 64),
        (["--verison"], "Error: Unknown option '--verison'. Did you mean '--version'?", 64),
        (["save", "a", "b"], "Error: Unexpected argument 'b'", 64),
        (["stop", "--timeout", "abc"], "Error: The value 'abc' is invalid for '--timeout <duration>'", 64),
        (["devices", "--jsn"], "Error: Unknown option '--jsn'. Did you mean '--json'?", 64),
        (["status", "--jsn"], "Error: Unknown option '--jsn'. Did you mean '--json'?", 64),
        (["presets", "extra"], "Error: Unexpected argument 'extra'", 64),
        (["completions", "tcsh"], "Error: The value 'tcsh' is invalid for '<shell>': say bash, zsh or fish", 64),
        (["completions"], "Error: Missing expected argument '<shell>'", 64),
        (["completions", "--values", "nothing"], "Error: The value 'nothing' is invalid for '--values <kind>': say presets, cameras, microphones, pending, running, album", 64),
        (["manual", "--roff"], "Error: Unknown option '--roff'.", 64),
        (["help", "nosuch"], "Error: Unknown command 'nosuch'.", 64),
        (["schedule", "every day"], "Error: The value 'every day' is invalid for '<cron-spec>': give five fields (minute hour day-of-month month day-of-week), not 2", 64),
        (["schedule", "a b c d e"], "Error: The value 'a b c d e' is invalid for '<cron-spec>': minute field 'a': use 0-59, '*', a range, a list or a step such as */15", 64),
        (["schedule", "60 * * * *"], "Error: The value '60 * * * *' is invalid for '<cron-spec>': minute field '60'", 64),
        (["schedule", "0 24 * * *"], "Error: The value '0 24 * * *' is invalid for '<cron-spec>': hour field '24'", 64),
        (["schedule", "0 0 0 * *"], "Error: The value '0 0 0 * *' is invalid for '<cron-spec>': day-of-month field '0'", 64),
        (["schedule", "0 0 * foo *"], "Error: The value '0 0 * foo *' is invalid for '<cron-spec>': month field 'foo': use 1-12 or names such as feb", 64),
        (["schedule", "*/0 * * * *"], "Error: The value '*/0 * * * *' is invalid for '<cron-spec>': minute field '*/0'", 64),
        (["schedule", "5-1 * * * *"], "Error: The value '5-1 * * * *' is invalid for '<cron-spec>': minute field '5-1'", 64),
        (["schedule", "@sometimes"], "Error: The value '@sometimes' is invalid for '<cron-spec>': '@sometimes' is not a cron shortcut", 64),
        (start + ["--as", String(repeating: "a", count: 201)], "Error: The value '\(String(repeating: "a", count: 201))' is invalid for '--as <name>': give a plain file name of at most 200 bytes", 64),
        (start + ["--fit", "zoom"], "Error: The value 'zoom' is invalid for '--fit <how>': use crop, pad or stretch", 64),
        (["schedule", "*/15 * * * *", "--", "--max", "abc"], "Error: The value 'abc' is invalid for '--max <duration>'", 64),
        (["schedule"], "Error: Missing expected argument '<cron-spec>'", 64),
        (start + ["--live", "http://example.com/x"], "Error: The value 'http://example.com/x' is invalid for '--live <url>': vidrec publishes to rtmp://, rtmps://, srt:// and rtsp:// servers, not http://", 64),
        (start + ["--live", "rtmp://127.0.0.1/live"], "Error: The value 'rtmp://127.0.0.1/live' is invalid for '--live <url>': an RTMP URL names an application and a stream: rtmp://host[:port]/app/stream", 64),
        (start + ["--live", "srt://:9000"], "Error: The value 'srt://:9000' is invalid for '--live <url>': the URL names no server", 64),
        (start + ["--live", "127.0.0.1:1935"], "Error: The value '127.0.0.1:1935' is invalid for '--live <url>': give a URL such as rtmp://host/live/stream", 64),
        // Presets.
        (start + ["--quality", "ultra"], "Error: unknown quality preset 'ultra'. Available: low, medium, high, 640x480, 1280x720, 1920x1080, 3840x2160, mjpeg (or a path to a preset file)", 65),
        (start + ["--quality", "hihg"], "Error: unknown quality preset 'hihg'. Did you mean 'high'?", 65),
        (start + ["--quality", "/nonexistent/p.json"], "Error: cannot read preset '/nonexistent/p.json': No such file or directory", 65),
        (start + ["--quality", "$HOME/broken.json"], "Error: preset '$HOME/broken.json' is not valid JSON", 65),
        (start + ["--quality", "$HOME/codec.json"], "Error: preset '$HOME/codec.json': field 'video.codec' names 'libx266', which is not a video encoder in this FFmpeg", 65),
        (start + ["--quality", "$HOME/zero.json"], "Error: preset '$HOME/zero.json': field 'width' must be an even whole number from 32 to 7680, not 0", 65),
        (start + ["--quality", "$HOME/odd.json"], "Error: preset '$HOME/odd.json': field 'height' must be an even whole number from 32 to 4320, not 481", 65),
        (start + ["--quality", "$HOME/fps.json"], "Error: preset '$HOME/fps.json': field 'frameRate' must be frames per second from 1 to 240", 65),
        (start + ["--quality", "$HOME/mpeg4crf.json"], "Error: the preset asks for what this FFmpeg cannot do: set crf 23 on mpeg4: Invalid argument (AVERROR -22); this encoder has no CRF mode; set 'video.bitRate' instead of 'video.crf'", 65),
        (start + ["--set", "brightness"], "Error: The value 'brightness' is invalid for '--set <name=value>': give a control and a value, such as brightness=200", 64),
        (start + ["--focus", "near"], "Error: The value 'near' is invalid for '--focus <auto|N>': give 'auto' or a whole number", 64),
        (start + ["--torch", "bright"], "Error: The value 'bright' is invalid for '--torch <on|off>': give on or off", 64),
        (start + ["--keep-controls"], "Error: '--keep-controls' cannot be used with 'no control set; add --set NAME=VALUE'", 64),
        (start + ["--set", "brightness=200", "--max", "1"], "Error: the test camera has no controls (asked: brightness); --set and the control shortcuts need a real camera", 65),
        (["controls", "--camera", "test"], "Error: The value 'test' is invalid for '--camera <camera>': the test camera has no controls", 64),
        (start + ["--rotate", "45"], "Error: The value '45' is invalid for '--rotate <degrees>': use 90, 180 or 270 (clockwise)", 64),
        (start + ["--quality", "$HOME/opus.json", "--rotate", "90"], "Error: the preset asks for what this FFmpeg cannot do: --rotate on mkv: Invalid argument (AVERROR -22); only MP4 and MOV carry a rotation for players; use a preset with the mp4 container, or leave out --rotate", 65),
        (start + ["--quality", "$HOME/opus.json", "--live", "rtmp://127.0.0.1:1/live/cam"], "Error: the preset asks for what this FFmpeg cannot do: avformat_query_codec on opus for rtmp://127.0.0.1:1/live/cam: Invalid argument (AVERROR -22); rtmp:// carries flv, which cannot hold opus; record with a preset that uses H.264 and AAC, such as 'medium'", 65),
        // Devices. (This machine has no camera; the VM tests cover the ones it has.)
        (["start", "--max", "1"], "Error: no camera found: no /dev/video* device can capture video; connect a camera, or use --camera test", 69),
        (["start", "--camera", "libcamera:nosuch", "--mic", "none", "--max", "1"], "Error: camera libcamera:nosuch: libcamera has no such camera (it has none); 'vidrec devices' lists the cameras", 69),
        (["start", "--camera", "/dev/null"], "Error: /dev/null is not a camera: it does not answer VIDIOC_QUERYCAP (Inappropriate ioctl for device); 'vidrec devices' lists the cameras", 69),
        (["start", "--camera", "$HOME/broken.json"], "Error: $HOME/broken.json is not a camera: it is not a device; 'vidrec devices' lists the cameras", 69),
        (["start", "--camera", "/dev/video77"], "Error: camera /dev/video77 not found (No such file or directory); 'vidrec devices' lists the cameras", 69),
        (["start", "--camera", "test", "--mic", "hw:9,0"], "Error: microphone 'hw:9,0' not found (", 69),
        // Places.
        (start + ["--max", "1", "--save", "--album", "$HOME/broken.json"], "Error: album $HOME/broken.json is not a folder; remove it or choose another album with --album DIR", 73),
        (start + ["--max", "1", "--save", "--album", "$HOME/broken.json/album"], "Error: cannot write to $HOME/broken.json/album: Not a directory; choose another folder or fix its permissions", 73),
        (["pending"], "Error: cannot write to $HOME/statefile: Not a directory; choose another folder or fix its permissions", 73),
        (["start", "--log", "$HOME/nodir/x/log"], "Error: cannot open log file $HOME/nodir/x/log: No such file or directory; choose another path for --log", 73),
        // A log is the user's own regular file: never through a link, never another's.
        (["start", "--log", "$HOME/link.log"], "Error: log file $HOME/link.log is a symbolic link; give the file it points to, or another path, for --log", 73),
        (["start", "--log", "$HOME/fifo.json"], "Error: log file $HOME/fifo.json is not a regular file; choose a file for --log", 73),
        (["start", "--log", "$HOME/shared.log"], "Error: log file $HOME/shared.log can be written by other users (mode 0666); run 'chmod go-w' on it, or choose another path for --log", 73),
        (["start", "--log", "$HOME/others.log"], "Error: log file $HOME/others.log belongs to another user (uid 65534); choose a file of your own for --log", 73),
        // Steps out of order.
        (["save"], "Error: nothing to save: there are no finished recordings; record one with 'vidrec start'", 66),
        (["discard"], "Error: nothing to discard: there are no finished recordings; record one with 'vidrec start'", 66),
        (["save", "20990101-000000"], "Error: no pending recording '20990101-000000'; there are none", 66),
        (["discard", "nosuch"], "Error: no pending recording 'nosuch'; there are none", 66),
        (["stop"], "Error: no recording in progress; start one with 'vidrec start'", 66),
        (["stop", "nosuch"], "Error: no running recording 'nosuch'; nothing is recording", 66),
        (["recover"], "Error: nothing to recover: no recording was interrupted", 66),
        (["serve", "--listen", "localhost:8080"], "Error: The value 'localhost:8080' is invalid for '--listen <address:port>': give a numeric address and a port from 0 to 65535, such as 127.0.0.1:8080, 0.0.0.0:8080 or [::1]:8080, or a port alone", 64),
        (["serve", "--listen", "127.0.0.1:70000"], "Error: The value '127.0.0.1:70000' is invalid for '--listen <address:port>'", 64),
        (["serve", "--tls-cert", "/tmp/cert.pem"], "Error: '--tls-cert <file>' cannot be used with 'no --tls-key (give both)'", 64),
        (["serve", "--camera", "test", "--tls-cert", "/nonexistent/cert.pem", "--tls-key", "/nonexistent/key.pem"], "Error: cannot read --tls-cert /nonexistent/cert.pem; give a readable PEM file", 66),
        (["serve", "--rotate", "45"], "Error: The value '45' is invalid for '--rotate <degrees>': use 90, 180 or 270 (clockwise)", 64),
        (["serve", "--mqtt", "tcp://127.0.0.1:1883"], "Error: The value 'tcp://127.0.0.1:1883' is invalid for '--mqtt <url>': the scheme is mqtt:// or mqtts:// (TLS), not tcp://", 64),
        (start + ["--mqtt-credentials", "/tmp/mqtt"], "Error: '--mqtt-credentials <file>' cannot be used with 'no broker; add --mqtt'", 64),
        (["config", "record"], "Error: The value 'record' is invalid for '<command>': the commands the file sets are start, serve and upload", 64),
        (["config", "--", "--max", "5"], "Error: Missing expected argument '<command>'", 64),
        (["config", "start", "--", "--max", "abc"], "Error: The value 'abc' is invalid for '--max <duration>'", 64),
        (["config", "start", "--", "--qualty", "low"], "Error: Unknown option '--qualty'. Did you mean '--quality'?", 64),
        (["serve", "--camera", "none"], "Error: The value 'none' is invalid for '--camera <camera>': the viewfinder needs a picture; name a camera, or leave --camera out", 64),
        (["serve", "--camera", "test", "--quality", "nonesuch"], "Error: unknown quality preset 'nonesuch'", 65),
        (["snap", "--size", "641x480"], "Error: The value '641x480' is invalid for '--size <max|WxH>': give max, or an even width and height from 32 to 16384 such as 1920x1080", 64),
        (["snap", "--album", "/tmp/x"], "Error: '--album <dir>' cannot be used with 'a photo that is not saved; add --save'", 64),
        (["snap", "--camera", "test", "--set", "brightness=10"], "Error: the test camera has no controls (asked: brightness); --set and the control shortcuts need a real camera", 65),
        (start + ["--segment", "0.5"], "Error: The value '0.5' is invalid for '--segment <duration>': give a length from 1 s to 24 h, such as 10s, 5m, 1h or 90 (seconds)", 64),
        (start + ["--segment", "5x"], "Error: The value '5x' is invalid for '--segment <duration>'", 64),
        (start + ["--segment-at-clock"], "Error: '--segment-at-clock' cannot be used with 'a recording without --segment'", 64),
        (start + ["--segment", "10s", "--as", "door"], "Error: '--as <name>' cannot be used with '--segment, which makes many files; name them with --name and strftime fields such as 'door-%Y%m%d-%H%M%S''", 64),
        (start + ["--max-age", "7d"], "Error: '--max-age <duration>' cannot be used with 'a recording that is not saved; add --save'", 64),
        (start + ["--save", "--max-age", "soon"], "Error: The value 'soon' is invalid for '--max-age <duration>': give an age such as 7d, 12h or 30m (at most 3650d)", 64),
        (start + ["--pre", "-1"], "Error: The value '-1' is invalid for '--pre <duration>': give a length from 0 to 10 m, such as 10 (seconds), 2.5, 30s or 1m", 64),
        (["trigger"], "Error: no recording in progress; start one with 'vidrec start --pre 5 --post 10'", 66),
        (["pause"], "Error: no recording in progress; start one with 'vidrec start'", 66),
        (["resume", "20261202-120000"], "Error: no running recording '20261202-120000'; nothing is recording", 66),
        (["pause", "a", "b"], "Error: Unexpected argument 'b'", 64),
        (start + ["--trigger", "sound"], "Error: The value 'sound' is invalid for '--trigger <motion[=N]>'", 64),
        (start + ["--trigger", "motion=300"], "Error: The value 'motion=300' is invalid for '--trigger <motion[=N]>': give motion, or motion=N with N a mean luma change from 0 to 255 such as 6", 64),
        (start + ["--snap-every", "0.5"], "Error: The value '0.5' is invalid for '--snap-every <duration>': give an interval from 1 s to 24 h, such as 10s, 5m or 30 (seconds)", 64),
        (start + ["--snap-every", "2d"], "Error: The value '2d' is invalid for '--snap-every <duration>'", 64),
        (start + ["--snap-every"], "Error: Missing value for '--snap-every <duration>'", 64),
        (["switch"], "Error: Missing expected argument '--camera <camera>'", 64),
        (start + ["--save", "--upload", ":s3"], "Error: The value ':s3' is invalid for '--upload <remote:path>': give an rclone remote and path, such as s3:bucket/videos (a remote set up with 'rclone config'), :local:/srv/videos or /srv/videos", 64),
        (["save", "--upload-move"], "Error: '--upload-move' cannot be used with 'no --upload; add --upload REMOTE:PATH'", 64),
        (["upload", "--json"], "Error: '--json' cannot be used with 'uploading; add --list'", 64),
        (["upload", "--list", "--quiet"], "Error: '--quiet' cannot be used with '--list'", 64),
        (["show", "nosuch"], "Error: nothing called 'nosuch' in the albums $HOME/Videos/vidrec and $HOME/Pictures/vidrec; 'vidrec list' shows what is there", 66),
        (["show"], "Error: Missing expected argument '<name>'", 64),
        (["sheet"], "Error: nothing to draw in the albums $HOME/Videos/vidrec and $HOME/Pictures/vidrec; save a recording with 'vidrec save' or 'vidrec start --save', or a photo with 'vidrec snap --save'", 66),
        (["list", "--album", "$HOME/broken.json"], "Error: album $HOME/broken.json is not a folder; remove it or choose another album with --album DIR", 73),
        // Hostile and careless input (names, numbers, cron lines, secrets).
        (start + ["--as", "a\nb"], "Error: The value 'a\\nb' is invalid for '--as <name>': it holds a control character (a newline, tab or escape); remove it", 64),
        (start + ["--name", "door\u{1B}[2J"], "Error: The value 'door\\u{1B}[2J' is invalid for '--name <template>': it holds a control character", 64),
        (start + ["--as", "x/\u{301}y"], "Error: The value 'x/\u{301}y' is invalid for '--as <name>': give a plain file name", 64),
        (["schedule", "*/5 * * * *", "--", "--max", "1", "--log", "/tmp/x\n* * * * * touch /tmp/pwned"],
         "Error: The value '/tmp/x\\n* * * * * touch /tmp/pwned' is invalid for '--log <file>': it holds a control character", 64),
        (["schedule", "*/5 * * * *\n* * * * * id"], "Error: The value '*/5 * * * *\\n* * * * * id' is invalid for '<cron-spec>': it holds a control character", 64),
        (["schedule", "*/5 * * * *", "--systemd", "--", "--max", "1", "--name", "a\nExecStartPost=/bin/touch /tmp/pwned"],
         "Error: The value 'a\\nExecStartPost=/bin/touch /tmp/pwned' is invalid for '--name <template>': it holds a control character", 64),
        (["schedule", "*/5 * * * *", "--systemd", "--name", "../../x", "--", "--max", "1"],
         "Error: The value '../../x' is invalid for '--name <name>': use 1 to 64 letters, digits, '-' or '_'", 64),
        (["schedule", "*/5 * * * *", "--name", "door", "--", "--max", "1"],
         "Error: The value 'door' is invalid for '--name <name>': it names systemd units: add --systemd", 64),
        (["service", "porch", "--", "--log", "/tmp/x\n[Service]"], "Error: The value '/tmp/x\\n[Service]' is invalid for '--log <file>': it holds a control character", 64),
        (["service", "a.b", "--", "--max", "1"], "Error: The value 'a.b' is invalid for '<name>': use 1 to 64 letters, digits, '-' or '_'", 64),
        (["service", "porch", "--", "--max", "abc"], "Error: The value 'abc' is invalid for '--max <duration>'", 64),
        (["service"], "Error: Missing expected argument '<name>'", 64),
        (["schedule", "*/5 * * * *", "--", "--name", "100\\%"], "Error: The value '100\\%' is invalid for '<start-options>': cron reads a backslash before '%' as an escape and drops it", 64),
        (start + ["--save", "--max-age", "106751991167301d"], "Error: The value '106751991167301d' is invalid for '--max-age <duration>'", 64),
        (start + ["--segment", "9223372036854775807d"], "Error: The value '9223372036854775807d' is invalid for '--segment <duration>'", 64),
        (start + ["--pre", "-9223372036854775808"], "Error: The value '-9223372036854775808' is invalid for '--pre <duration>'", 64),
        (start + ["--max", "9223372036854775807.9"], "Error: The value '9223372036854775807.9' is invalid for '--max <duration>'", 64),
        (start + ["--save", "--upload", ":s3,secret_access_key=HUSH"], "Error: The value ':s3,secret_access_key=***' is invalid for '--upload <remote:path>'", 64),
        (start + ["--save", "--upload", ":s3,provider=Minio,endpoint=http://nas:9000,access_key_id=AK1,secret_access_key=HUSH:bucket"],
         "Error: The value ':s3,provider=Minio,endpoint=http://nas:9000,access_key_id=***' is invalid for '--upload <remote:path>': the value of endpoint has a ':' in it, where rclone would end the remote and take the rest, keys included, as the path; quote it as rclone quotes values (and the whole destination in double quotes for the shell): :s3,provider=Minio,endpoint='http://nas:9000',access_key_id=***,secret_access_key=***:bucket", 64),
        (start + ["--save", "--upload", "s3,pass='a:b:bucket"], "Error: The value 's3,pass=***' is invalid for '--upload <remote:path>': the value of pass opens a quote it never closes", 64),
        (start + ["--live", "rtmp://cam:hunter2@127.0.0.1/live"], "Error: The value 'rtmp://cam:…@127.0.0.1/live' is invalid for '--live <url>': an RTMP URL names an application and a stream", 64),
        (start + ["--quality", "$HOME/tiny.json"], "Error: preset '$HOME/tiny.json': field 'width' must be an even whole number from 32 to 7680, not 16", 65),
        (start + ["--quality", "$HOME/rate.json"], "Error: preset '$HOME/rate.json': field 'frameRate' must be frames per second from 1 to 240", 65),
        (start + ["--quality", "$HOME/fifo.json"], "Error: cannot read preset '$HOME/fifo.json': Invalid argument", 65),
    ]

    static func prepare(_ home: Home) throws {
        let high = try String(contentsOfFile: VidrecProcess.presets + "/640x480.json", encoding: .utf8)
        let files = [
            "broken.json": "{ \"width\": ",
            "codec.json": high.replacingOccurrences(of: "libx264", with: "libx266"),
            "zero.json": high.replacingOccurrences(of: "\"width\": 640", with: "\"width\": 0"),
            "odd.json": high.replacingOccurrences(of: "\"height\": 480", with: "\"height\": 481"),
            "fps.json": high.replacingOccurrences(of: "\"frameRate\": 30", with: "\"frameRate\": 0"),
            "mpeg4crf.json": high.replacingOccurrences(of: "libx264", with: "mpeg4").replacingOccurrences(of: "\"speed\": \"veryfast\",", with: ""),
            "opus.json": high.replacingOccurrences(of: "\"aac\"", with: "\"libopus\"").replacingOccurrences(of: "\"mp4\"", with: "\"mkv\""),
            "statefile": "not a folder",
            "silent.json": String(high[..<high.range(of: ",\n  \"audio\"")!.lowerBound]) + "\n}\n",
            "tiny.json": high.replacingOccurrences(of: "\"width\": 640", with: "\"width\": 16"),
            "rate.json": high.replacingOccurrences(of: "\"frameRate\": 30", with: "\"frameRate\": \"2147483647/2147483646\""),
        ]
        for (name, text) in files { try text.write(toFile: home.path + "/" + name, atomically: true, encoding: .utf8) }
        // A FIFO where a preset is: read, it would wait for a writer for ever.
        try #require(mkfifo(home.path + "/fifo.json", 0o600) == 0)
        // Logs that are not the user's own: a link to a file of theirs (the target is
        // what another user could have planted it to overwrite), a file all may write,
        // a file of another user (root hands one to nobody).
        try "kept\n".write(toFile: home.path + "/precious.txt", atomically: true, encoding: .utf8)
        try #require(symlink(home.path + "/precious.txt", home.path + "/link.log") == 0)
        try #require(FileManager.default.createFile(atPath: home.path + "/shared.log", contents: nil) && chmod(home.path + "/shared.log", 0o666) == 0)
        try #require(FileManager.default.createFile(atPath: home.path + "/others.log", contents: nil))
        if geteuid() == 0 { try #require(chown(home.path + "/others.log", 65534, 65534) == 0) }
    }

    /// Every subcommand `vidrec --help` lists has rows in the table: a new subcommand
    /// fails here until its bad input is tried too.
    @Test func everySubcommandHasBadInputInTheTable() throws {
        let help = try VidrecProcess.run(["--help"], home: try Home().path).out
        let section = try #require(help.components(separatedBy: "SUBCOMMANDS:\n").last)
        let names = section.split(separator: "\n").prefix(while: { $0.hasPrefix("  ") && !$0.hasPrefix("  See ") })
            .compactMap { $0.split(separator: " ").first.map { String($0).trimmingCharacters(in: CharacterSet(charactersIn: ",")) } }
        #expect(names.count >= 20, "\(section)")
        let tried = Set(Self.table.compactMap { $0.0.first })
        for name in names where name != "help" {
            #expect(tried.contains(name), "no bad input for vidrec \(name)")
        }
    }

    @Test(arguments: table)
    func badInputGetsOneClearLineAndItsExitCode(arguments: [String], message: String, code: Int32) throws {
        let home = try Home()
        try Self.prepare(home)
        let expand = { (text: String) in text.replacingOccurrences(of: "$HOME", with: home.path) }
        let environment = arguments == ["pending"] ? ["XDG_STATE_HOME": home.path + "/statefile"] : [:]
        let result = try VidrecProcess.run(arguments.map(expand), home: home.path, environment: environment)
        let lines = result.err.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(result.code == code, "\(result.err)")
        #expect(lines.first.map { $0.hasPrefix(expand(message)) } == true, "\(result.err)")
        if code == 64 {
            #expect(lines.count == 3 && lines[1].hasPrefix("Usage: vidrec ") && lines[2].hasSuffix("for more information."))
        } else {
            #expect(lines.count == 1, "one line: \(result.err)")
        }
        #expect(!result.err.contains("Fatal error") && !result.err.contains("Stack dump"))
        #expect(result.out.isEmpty)
        #expect(home.files(in: home.pending, ending: "").isEmpty, "nothing left pending")
        #expect(home.files(in: home.album, ending: "").isEmpty, "nothing in the album")
    }
}
