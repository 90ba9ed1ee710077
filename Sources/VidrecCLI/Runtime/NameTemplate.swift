import Foundation
import VidrecCore

/// `--name 'door-%Y%m%d-%H%M%S'`: a file name with `strftime` fields, expanded at the
/// recording's start time.
enum NameTemplate {
    /// Expands `template` for `date` in local time. The corresponding C function is
    /// `strftime`.
    static func expand(_ template: String, at date: Date) -> String {
        DateText.local(template, date) ?? template
    }
}
