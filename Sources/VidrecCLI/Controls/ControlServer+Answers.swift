import VidrecSystem

extension ControlServer {
    /// The recording's control socket, through which other vidrecs reach it: each
    /// request is answered by its ``ControlAnswer`` (`snap`, `switch`, `viewfinder`,
    /// `trigger`, `pause`, `resume`). A socket that cannot be made costs only that: the
    /// recording goes on, and says so.
    static func answering(at path: String, answers: [ControlAnswer], recording: ControlledRecording) -> ControlServer? {
        let byName = Dictionary(answers.map { ($0.name, $0) }) { first, _ in first }
        do {
            return try ControlServer(path: path) { request in
                guard let answer = request.name.flatMap({ byName[$0] }) else { return ControlAnswer.unknown(request.command) }
                do {
                    return try answer.answer(request, recording)
                } catch {
                    let (message, code) = RuntimeFailure.classify(error)
                    return ControlReply(error: message, exitCode: code.rawValue)
                }
            }
        } catch {
            recording.warn("vidrec: no control socket (\(error)); 'vidrec snap', 'switch', 'trigger', 'pause' and 'resume' cannot reach this recording\n")
            return nil
        }
    }
}
