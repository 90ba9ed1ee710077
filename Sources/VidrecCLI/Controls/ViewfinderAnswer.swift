import VidrecCore

/// `viewfinder` (`vidrec serve`): the newest small picture of the recorded frames, with
/// the recording's progress.
enum ViewfinderAnswer {
    /// The answer for a recording whose viewfinder pictures `feed` holds.
    static func answer(_ feed: ViewfinderFeed) -> ControlAnswer {
        ControlAnswer(name: .viewfinder) { request, recording in
            // Within the socket's wait for a reply.
            let picture = request.watch == false ? nil : feed.picture(after: request.after, timeout: 1)
            return ControlReply(camera: recording.camera, picture: picture?.jpeg, number: picture?.number, captured: picture?.capturedAt,
                                progress: recording.progress())
        }
    }
}
