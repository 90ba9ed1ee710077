/// The requests a running recording answers over its control socket: the one list of
/// their names, which the recording's control server (``ControlAnswer``), the clients
/// (`vidrec snap`, `switch`, `trigger`, `pause`, `resume`, serve's viewfinder) and
/// serve's page use.
enum ControlName: String, CaseIterable, Sendable {
    /// Take a photo from the running camera into the pending folder.
    case snap
    /// Go on recording from another camera.
    case `switch`
    /// The newest small picture of the recorded frames, with the recording's progress.
    case viewfinder
    /// Something happened (a recording waiting for triggers).
    case trigger
    /// Leave out what comes until `resume`.
    case pause
    /// Go on after `pause`.
    case resume
}
