/// Failures that tests inject into the ``systemCall(_:_:_:)`` seam: operation name →
/// errno. Scoped to the calling task, so tests running side by side never see each
/// other's faults, and empty outside tests.
public enum SyscallFaults {
    @TaskLocal static var injected: [String: Int32] = [:]

    /// Runs `body` with every call named in `faults` failing with its errno (the call is
    /// not made), for example `["renameat2": EINVAL, "linkat": EPERM]`.
    public static func injecting<T>(_ faults: [String: Int32], _ body: () throws -> T) rethrows -> T {
        try $injected.withValue(injected.merging(faults) { $1 }, operation: body)
    }
}
