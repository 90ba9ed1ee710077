import Foundation
import Glibc

/// `--name 'door-%Y%m%d-%H%M%S'`: a file name with `strftime` fields, expanded at the
/// recording's start time.
enum NameTemplate {
    /// Expands `template` for `date` in local time. The corresponding C function is
    /// `strftime`.
    static func expand(_ template: String, at date: Date) -> String {
        var time = time_t(date.timeIntervalSince1970)
        var parts = tm()
        localtime_r(&time, &parts)
        var buffer = [CChar](repeating: 0, count: 512)
        let count = strftime(&buffer, buffer.count, template, &parts)
        return count == 0 && !template.isEmpty ? template : buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}
