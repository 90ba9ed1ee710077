import Foundation
import VidrecCore

/// The live one-line status on a terminal (`● REC 00:05.5 / 00:30.0  30.0 fps  1.2 MB`,
/// `❚❚ PAUSED 00:05.5 …` while paused; `CAMERA GONE 4 s` while the camera is gone; no
/// rate for a sound recording);
/// without a terminal it prints nothing, so cron logs get no control characters.
struct StatusLine {
    let enabled: Bool
    let maxDuration: DurationLimit?
    let write: @Sendable (String) -> Void

    func update(_ progress: SessionProgress) {
        guard enabled else { return }
        var line = (progress.isPaused ? "❚❚ PAUSED " : "● REC ") + StatusLine.clock(progress.elapsed)
        if let maxDuration { line += " / \(StatusLine.clock(maxDuration.seconds.doubleValue))" }
        if !progress.isAudioOnly { line += String(format: "  %.1f fps", progress.framesPerSecond) }
        line += "  " + ByteCount.format(progress.bytes)
        if progress.droppedFrames > 0 { line += "  \(progress.droppedFrames) dropped" }
        if let gone = progress.cameraGone { line += String(format: "  CAMERA GONE %.0f s", gone) }
        if let gone = progress.microphoneGone { line += String(format: "  MICROPHONE GONE %.0f s", gone) }
        write("\r\u{1B}[K" + line)
    }

    func clear() {
        if enabled { write("\r\u{1B}[K") }
    }

    /// `01:02.5`, or `1:02:03.0` past an hour.
    static func clock(_ seconds: Double) -> String {
        let tenths = Int((seconds * 10).rounded(.down))
        let (h, m, s, t) = (tenths / 36000, tenths / 600 % 60, tenths / 10 % 60, tenths % 10)
        return h > 0 ? String(format: "%d:%02d:%02d.%d", h, m, s, t) : String(format: "%02d:%02d.%d", m, s, t)
    }
}
