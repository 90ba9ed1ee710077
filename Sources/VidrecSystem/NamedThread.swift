import CSystemShims
import Glibc

/// A joinable thread with a name that shows in `top -H`, `ps -L` and debuggers.
///
/// Blocking device reads run on these, never on Dispatch's shared pool.
public final class NamedThread: Sendable {
    private let handle: pthread_t

    /// Starts `body` on a new thread called `name` (at most 15 bytes are kept).
    ///
    /// The thread inherits the faults a test injects around its creation
    /// (``SyscallFaults``), as a child task inherits task-local values.
    ///
    /// The corresponding C functions are `pthread_create` and `pthread_setname_np`.
    public init(name: String, _ run: @escaping @Sendable () -> Void) {
        var body = run
        #if DEBUG
        let faults = SyscallFaults.switches
        if !faults.isEmpty { body = { SyscallFaults.withSwitches(faults, run) } }
        #endif
        final class Box { let name: String; let body: @Sendable () -> Void
            init(_ n: String, _ b: @escaping @Sendable () -> Void) { name = n; body = b } }
        let box = Unmanaged.passRetained(Box(name, body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { raw in
            let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
            csystem_set_thread_name(box.name)
            box.body()
            return nil
        }, box)
        precondition(result == 0, "pthread_create: \(SystemError.describe(result))")
        handle = thread
    }

    /// Waits for the thread to return. Call exactly once. The corresponding C function
    /// is `pthread_join`.
    public func join() {
        let result = pthread_join(handle, nil)
        precondition(result == 0, "pthread_join: \(SystemError.describe(result))")
    }
}
