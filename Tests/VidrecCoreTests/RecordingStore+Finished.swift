import Foundation
import Glibc
import VidrecCore

extension RecordingStore {
    /// Makes a finished pending recording whose movie holds `bytes`, started at `date`.
    func makeFinishedRecording(holding bytes: Data, at date: Date = Date()) throws -> Entry {
        let (entry, lock) = try create(at: date) { id in
            RecordingSidecar(id: id, preset: "low", presetFile: "/p/low.json", camera: "test pattern", microphone: nil,
                             container: .mp4, startTime: date, pid: getpid(), maxDuration: 3)
        }
        try bytes.write(to: URL(fileURLWithPath: entry.mediaPath))
        var sidecar = entry.sidecar
        sidecar.state = .finished
        try write(sidecar)
        withExtendedLifetime(lock) {}
        return try self.entry(id: entry.id)
    }
}
