import Glibc

/// This machine's name, as `hostname` prints it.
public enum HostName {
    /// The name, or `localhost` when it cannot be read. The corresponding C function is
    /// `gethostname`.
    public static func current() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        let name = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return name.isEmpty ? "localhost" : name
    }
}
