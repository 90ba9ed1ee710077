/// When a systemd timer fires for a ``CronSpec``: `OnCalendar=` lines, or once the
/// user's service manager has started (cron's `@reboot`).
public enum SystemdSchedule: Sendable, Equatable {
    /// `OnCalendar=` expressions; the timer fires when any of them matches.
    case calendar([String])
    /// `OnStartupSec=0`: when the user's service manager starts.
    case atStartup
}
