import Foundation

/// Waiting for a condition that no file descriptor signals (a field in a state file,
/// a device's status in /proc): checked again and again until it holds. The pause
/// between checks only paces the polling; the test waits for the condition, however
/// long a slow or busy machine takes. The deadline only keeps a broken run from hanging.
enum Poll {
    /// Checks `condition` until it returns a value, or `timeout` seconds pass.
    static func until<T>(timeout: Double = 180, _ condition: () throws -> T?) rethrows -> T? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        repeat {
            if let value = try condition() { return value }
            Thread.sleep(forTimeInterval: 0.05)
        } while Date() < deadline
        return try condition()
    }
}
