import CFFmpeg
import CFFmpegFilters
import VidrecMedia

/// One JPEG of many pictures with a label under each (`vidrec sheet`), drawn with
/// libavfilter: each picture is scaled into a tile, labelled with `drawtext`, and the
/// tiles are laid out in rows with `xstack`.
public struct ContactSheet: Sendable {
    /// A tile's picture area, in pixels.
    public static let tileWidth = 320, tileHeight = 180
    /// The band under each picture for its label.
    public static let labelHeight = 24
    /// Tiles a row at most.
    public let columns: Int

    /// A sheet with at most `columns` tiles a row.
    public init(columns: Int = 4) {
        precondition(columns >= 1)
        self.columns = columns
    }

    /// Draws the tiles whose pictures can be read, as ``render(_:)`` does; one that
    /// cannot (a damaged poster frame, a file that is not a picture) is left out and
    /// returned with its error, so one bad file never costs the whole sheet.
    ///
    /// - Returns: the JPEG, and the pictures left out.
    /// - Throws: ``FFmpegError`` when no picture can be read.
    public func renderSkippingUnreadable(_ tiles: [(picture: String, label: String)]) throws
        -> (jpeg: [UInt8], skipped: [(picture: String, error: FFmpegError)]) {
        do {
            return (try render(tiles), [])
        } catch let whole as FFmpegError {
            // Only now, each picture alone, to find the ones at fault.
            var good: [(picture: String, label: String)] = []
            var skipped: [(picture: String, error: FFmpegError)] = []
            for tile in tiles {
                do {
                    _ = try render([tile])
                    good.append(tile)
                } catch let error as FFmpegError {
                    skipped.append((tile.picture, error))
                }
            }
            guard !good.isEmpty, !skipped.isEmpty else { throw whole }
            return (try render(good), skipped)
        }
    }

    /// Draws `tiles` (a picture or movie file, whose first picture is used, and its
    /// label), in order, left to right and top to bottom.
    ///
    /// - Returns: the JPEG.
    /// - Throws: ``FFmpegError`` naming the file or filter that failed.
    public func render(_ tiles: [(picture: String, label: String)]) throws -> [UInt8] {
        precondition(!tiles.isEmpty, "a contact sheet needs at least one picture")
        let subject = "the contact sheet"
        let graph = try FilterGraph(subject: subject)
        let (width, height) = (ContactSheet.tileWidth, ContactSheet.tileHeight)
        var ends: [UnsafeMutablePointer<AVFilterContext>] = []
        for (picture, label) in tiles {
            var chain = [
                // "file:" so that a name with a colon is never taken for a protocol.
                try graph.add("movie", [("filename", "file:" + picture)], subject: picture),
                try graph.add("trim", [("end_frame", "1")], subject: picture),
                try graph.add("scale", [("w", "\(width)"), ("h", "\(height)"), ("force_original_aspect_ratio", "decrease")], subject: picture),
                try graph.add("format", [("pix_fmts", "yuv420p")], subject: picture),
                try graph.add("pad", [("width", "\(width)"), ("height", "\(height + ContactSheet.labelHeight)"),
                                      ("x", "(ow-iw)/2"), ("y", "(\(height)-ih)/2"), ("color", "black")], subject: picture),
            ]
            chain.append(try graph.add("drawtext", [("text", label), ("expansion", "none"), ("fontcolor", "white"),
                                                    ("fontsize", "15"), ("x", "6"), ("y", "\(height + 5)")], subject: picture))
            for (from, to) in zip(chain, chain.dropFirst()) { try graph.link(from, to: to) }
            ends.append(chain.last!)
        }
        let sink = try graph.add("buffersink", subject: subject)
        if ends.count == 1 {
            try graph.link(ends[0], to: sink)
        } else {
            let layout = ends.indices.map { index in
                "\(index % columns * width)_\(index / columns * (height + ContactSheet.labelHeight))"
            }.joined(separator: "|")
            let stack = try graph.add("xstack", [("inputs", "\(ends.count)"), ("layout", layout), ("fill", "black")], subject: subject)
            for (index, end) in ends.enumerated() { try graph.link(end, to: stack, UInt32(index)) }
            try graph.link(stack, to: sink)
        }
        try check(cffmpeg_filters_graph_config(graph.pointer, nil), "avfilter_graph_config", subject)
        let frame = try OwnedFrame(subject: subject)
        try check(cffmpeg_filters_buffersink_get_frame(sink, frame.pointer), "av_buffersink_get_frame", subject)
        return try JPEGEncoder.encode(frame.pointer, width: Int(frame.pointer.pointee.width), subject: subject)
    }
}
