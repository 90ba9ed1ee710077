import Glibc

/// The process's resource limits.
public enum ProcessLimits {
    /// Raises the soft limit on open files to the hard limit, so that a server can hold
    /// as many connections as it allows; a soft limit already there is left.
    ///
    /// - Returns: the soft limit now.
    /// - Throws: ``SystemError`` of `getrlimit` or `setrlimit`.
    /// The corresponding C functions are `getrlimit` and `setrlimit` (`RLIMIT_NOFILE`).
    @discardableResult
    public static func raiseOpenFiles() throws(SystemError) -> UInt64 {
        var limit = rlimit()
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        try systemCall(.getrlimit, "open files") { getrlimit(resource, &limit) }
        guard limit.rlim_cur < limit.rlim_max else { return UInt64(limit.rlim_cur) }
        limit.rlim_cur = limit.rlim_max
        try systemCall(.setrlimit, "open files") { setrlimit(resource, &limit) }
        return UInt64(limit.rlim_cur)
    }
}
