/// How a camera picture of another aspect ratio is fitted into the movie's size, like
/// AVFoundation's `AVLayerVideoGravity`.
public enum VideoFit: String, Sendable, Equatable, CaseIterable {
    /// Fill the movie, cutting the picture's overflowing edges (`resizeAspectFill`).
    case crop
    /// Show the whole picture, with black bars where it does not reach (`resizeAspect`).
    case pad
    /// Fill the movie by squeezing the picture out of shape (`resize`).
    case stretch

    /// The part of a `sourceWidth × sourceHeight` picture that is used, and the part of
    /// the `width × height` movie frame it goes to, both as `(x, y, width, height)`, with
    /// even coordinates and sizes (chroma planes are subsampled by two).
    public func rectangles(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int)
        -> (source: (x: Int, y: Int, width: Int, height: Int), destination: (x: Int, y: Int, width: Int, height: Int)) {
        let full = (x: 0, y: 0, width: sourceWidth, height: sourceHeight)
        let whole = (x: 0, y: 0, width: width, height: height)
        // Compare aspect ratios exactly: sourceWidth / sourceHeight against width / height.
        let left = sourceWidth * height, right = width * sourceHeight
        guard left != right, self != .stretch else { return (full, whole) }
        func even(_ value: Int) -> Int { max(2, value & ~1) }
        switch self {
        case .crop:
            if left > right {
                // The picture is wider: use its middle.
                let used = even(sourceHeight * width / height)
                return (((sourceWidth - used) / 2 & ~1, 0, used, sourceHeight), whole)
            }
            let used = even(sourceWidth * height / width)
            return ((0, (sourceHeight - used) / 2 & ~1, sourceWidth, used), whole)
        case .pad:
            if left > right {
                // The picture is wider: bars above and below.
                let used = even(width * sourceHeight / sourceWidth)
                return (full, (0, (height - used) / 2 & ~1, width, used))
            }
            let used = even(height * sourceWidth / sourceHeight)
            return (full, ((width - used) / 2 & ~1, 0, used, height))
        case .stretch:
            return (full, whole)
        }
    }
}
