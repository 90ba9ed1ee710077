import Foundation

/// A line of text burned into every picture of a movie (`--overlay`), at a corner.
public struct TextOverlay: Sendable, Equatable {
    /// Where the text goes.
    public enum Corner: String, Sendable, CaseIterable {
        case topLeft = "top-left"
        case topRight = "top-right"
        case bottomLeft = "bottom-left"
        case bottomRight = "bottom-right"
    }

    /// The text, with `strftime` fields (`%F %T`, `%z`) filled in from each picture's
    /// capture time in local time, and `{camera}` and `{name}` (this machine's name).
    public var template: String
    public var corner: Corner

    /// Creates an overlay of `template` at `corner`.
    public init(template: String, corner: Corner = .topLeft) {
        self.template = template
        self.corner = corner
    }

    /// The fields in braces the template may hold.
    public static let fields = ["{camera}", "{name}"]

    /// The template with `{camera}` and `{name}` filled in (the `%` in them kept as
    /// text), leaving the `strftime` fields.
    public func naming(camera: String? = nil, name: String? = nil) -> TextOverlay {
        var filled = self
        for (field, value) in [("{camera}", camera), ("{name}", name)] {
            guard let value else { continue }
            filled.template = filled.template.replacingOccurrences(of: field, with: value.replacingOccurrences(of: "%", with: "%%"))
        }
        return filled
    }
}
