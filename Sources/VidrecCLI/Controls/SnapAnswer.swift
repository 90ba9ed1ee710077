import VidrecCore
import VidrecSystem

/// `snap` (`vidrec snap` while the camera records): the photo output takes the next
/// frame into the pending folder, and nowhere else.
enum SnapAnswer {
    /// The answer for a recording whose photos `output` takes.
    static func answer(_ output: PhotoOutput) -> ControlAnswer {
        ControlAnswer(name: .snap) { request, recording in
            guard let target = request.path else { return ControlAnswer.unknown(request.command) }
            guard isPendingPhoto(target, in: recording.photos) else {
                return ControlReply(error: "a photo goes only into the pending folder \(recording.photos), as ID.partial.jpg",
                                    exitCode: ExitCode.usage.rawValue)
            }
            let taken = try output.capture(to: target, width: request.width, timeout: 10)
            return ControlReply(width: taken.width, height: taken.height, camera: recording.camera)
        }
    }

    /// Whether `path` names a photo being taken in the pending folder `folder`:
    /// `<folder>/ID.partial.jpg`, with a plain recording ID (no `/`, no `..`).
    static func isPendingPhoto(_ path: String, in folder: String) -> Bool {
        guard path.hasPrefix(folder + "/"), path.hasSuffix(".partial.jpg") else { return false }
        let id = String(path.dropFirst(folder.count + 1).dropLast(".partial.jpg".count))
        return RecordingStore.isValidID(id)
    }
}
