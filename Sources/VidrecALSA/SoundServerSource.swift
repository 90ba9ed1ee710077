/// What `vidrec devices` shows of a sound server: the ALSA PCM that records from its
/// default source, and why that cannot work from here, if it cannot.
public struct SoundServerSource: Sendable, Equatable {
    /// The server.
    public var server: SoundServer
    /// The PCM name to pass to `--mic`: `default` when it is the server's, else the
    /// server's own (`pipewire`, `pulse`).
    public var pcm: String
    /// Why this process cannot reach the server (``SoundServer/unreachableReason(environment:)``).
    public var problem: String?

    /// The server ALSA's `default`, `pipewire` or `pulse` PCM goes through, the first
    /// that is a server's; `nil` when none is.
    public static func find(environment: [String: String]) -> SoundServerSource? {
        for pcm in ["default", "pipewire", "pulse"] {
            if let server = SoundServer.behind(pcm: pcm) {
                return SoundServerSource(server: server, pcm: pcm, problem: server.unreachableReason(environment: environment))
            }
        }
        return nil
    }
}
