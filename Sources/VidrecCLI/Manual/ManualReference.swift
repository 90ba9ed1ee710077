/// The parts of the manual that are not a command's options: where vidrec keeps its
/// files, the environment it reads, and examples. The manual page renders them; the
/// README's "Where things go" table is the same text (a test keeps them the same).
/// Texts are Markdown: `code` spans become bold in the manual page.
enum ManualReference {
    /// What vidrec keeps where: (what, where).
    static let files: [(what: String, place: String)] = [
        ("pending recordings and photos", "`$XDG_STATE_HOME/vidrec/pending` (default `~/.local/state/vidrec/pending`, mode 0700; the state folders must be yours and not writable by others): `ID.partial.mp4` while recording, `ID.mp4` when finished (`ID.jpg` for a photo), `ID.json` sidecar"),
        ("album", "`--album DIR`, else `$VIDREC_ALBUM`, else `$XDG_VIDEOS_DIR/vidrec` (from `~/.config/user-dirs.dirs`), else `~/Videos/vidrec`"),
        ("photo album", "`--album DIR` (with `snap --save` or when saving a photo), else `$VIDREC_PHOTOS`, else `$XDG_PICTURES_DIR/vidrec`, else `~/Pictures/vidrec`"),
        ("poster frames", "`.thumbnails/NAME.jpg` inside the album folder, made at each save"),
        ("upload queue", "`$XDG_STATE_HOME/vidrec/uploads/ID.json` (mode 0700 folder), one file per upload until its copy is verified; `vidrec upload --list` shows them"),
        ("control socket", "`ID-PID.sock` in `$XDG_RUNTIME_DIR/vidrec` (else `/run/user/UID/vidrec`, else `$TMPDIR/vidrec-UID` or `/tmp/vidrec-UID`; a 0700 folder, the socket 0600, named in the sidecar) while a recording runs: how `vidrec snap`, `switch`, `trigger`, `pause`, `resume` and `serve` reach it. It never lives in the pending folder, which may be on a share (NFS, CIFS, 9p) that cannot hold a socket"),
        ("preview claim", "`preview-PID.claim` in the control sockets' folder while `vidrec serve`'s preview holds a camera: the camera's path, so that a recording or photo that finds the camera busy asks that server (SIGUSR1) to lend it"),
        ("serve token", "`$XDG_STATE_HOME/vidrec/serve-token` (mode 0600): the token `vidrec serve` asks every browser for, made at its first start; `vidrec serve --new-token` replaces it"),
        ("config file", "`$XDG_CONFIG_HOME/vidrec/config` (default `~/.config/vidrec/config`): `[start]`, `[serve]`, `[upload]` and `[mqtt]` sections of `key = value` lines, each key a long option without its dashes (`quality = low`, `save = yes`); the command line wins; a bad key or value, or a file others can write, is an error naming its line; `vidrec config` shows what each command gets from it"),
        ("your presets", "`$XDG_CONFIG_HOME/vidrec/presets/NAME.json` (default `~/.config/vidrec/presets`)"),
        ("systemd units", "`$XDG_CONFIG_HOME/systemd/user/vidrec-NAME.timer` and `vidrec-NAME.service` (default `~/.config/systemd/user`), written by `schedule --systemd --install` and `service --install`"),
        ("built-in presets", "`$VIDREC_PRESETS_DIR`, else `PREFIX/share/vidrec/presets` beside the installed binary, else the `presets/` folder of the source tree the binary was built in"),
    ]

    /// The environment variables vidrec reads: (name, meaning).
    static let environment: [(name: String, meaning: String)] = [
        ("VIDREC_ALBUM", "the album folder when `--album` is not given"),
        ("VIDREC_PHOTOS", "the photo album folder when `--album` is not given"),
        ("VIDREC_PRESETS_DIR", "a folder of built-in presets, searched before the installed ones"),
        ("VIDREC_FFMPEG_LOG", "`info`, `warning` or `debug` shows FFmpeg's own log, which is otherwise limited to errors"),
        ("VIDREC_CRONTAB", "the program `schedule --install` uses instead of `crontab`"),
        ("VIDREC_SOUND_TRACE", "`1` writes each of a sound server's first 2000 periods to standard error as it is read (frames, time, `snd_pcm_delay`), to see where its sound's timing comes from"),
        ("XDG_STATE_HOME, XDG_CONFIG_HOME, XDG_RUNTIME_DIR", "where the pending area, your presets and the control sockets go (see FILES)"),
        ("XDG_VIDEOS_DIR, XDG_PICTURES_DIR", "the default album folders (also read from `~/.config/user-dirs.dirs`)"),
    ]

    /// Examples: (what it does, the command line).
    static let examples: [(what: String, command: String)] = [
        ("Record up to 30 s with the high preset, then commit it to the album:", "vidrec start --quality high --max 30\nvidrec save"),
        ("Record from the built-in test camera and tone and save at once:", "vidrec start --camera test --mic test --max 5 --save"),
        ("Every 15 minutes from cron, a minute each, saved, with a quiet run mailing nothing:", "vidrec schedule '*/15 * * * *' --install -- --quality low --max 60 --save --quiet"),
        ("The same as a systemd user timer, then started:", "vidrec schedule '*/15 * * * *' --systemd --name door --install -- --quality low --max 60 --save\nsystemctl --user enable --now vidrec-door.timer"),
        ("Record continuously as a user service that restarts when the camera comes back:", "vidrec service porch --install -- --quality low --segment 10m --save --max-age 7d\nsystemctl --user enable --now vidrec-porch.service"),
        ("Record continuously in 5-minute files at the clock, keeping a week:", "vidrec start --segment 5m --segment-at-clock --save --name 'door-%Y%m%d-%H%M%S' --max-age 7d"),
        ("Keep 5 s before a trigger and 10 s after, triggered by motion:", "vidrec start --pre 5 --post 10 --trigger motion --save"),
        ("Take a photo, also while a recording runs:", "vidrec snap --save"),
        ("Store a webcam's own H.264 without re-encoding:", "vidrec start --camera c920 --video copy --max 60"),
        ("Watch the camera and record from a browser on this machine (open the address it prints):", "vidrec serve --quality medium"),
    ]
}
