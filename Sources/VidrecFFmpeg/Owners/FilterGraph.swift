import CFFmpeg

/// Owns a libavfilter graph and the filters in it.
///
/// The corresponding C functions are `avfilter_graph_alloc`, `avfilter_graph_alloc_filter`,
/// `avfilter_init_str` and `avfilter_graph_free`.
final class FilterGraph {
    /// The graph; valid while this owner lives.
    let pointer: UnsafeMutablePointer<AVFilterGraph>

    /// Allocates an empty graph; `subject` names it in errors.
    init(subject: String) throws(FFmpegError) {
        pointer = try allocated(avfilter_graph_alloc(), "avfilter_graph_alloc", subject)
    }

    /// Adds the filter `name`, with `options` set one by one (no filtergraph syntax, so
    /// file names and texts need no escaping), and initializes it.
    ///
    /// - Throws: ``FFmpegError`` naming the filter and the option it refused.
    func add(_ name: String, _ options: [(String, String)] = [], subject: String) throws(FFmpegError) -> UnsafeMutablePointer<AVFilterContext> {
        guard let filter = avfilter_get_by_name(name) else {
            throw FFmpegError("avfilter_get_by_name", name, code: cffmpeg_averror(ENOSYS), hint: "this FFmpeg has no '\(name)' filter")
        }
        let context = try allocated(avfilter_graph_alloc_filter(pointer, filter, nil), "avfilter_graph_alloc_filter", name)
        for (key, value) in options {
            try check(av_opt_set(context, key, value, AV_OPT_SEARCH_CHILDREN), "av_opt_set \(key)=\(value) on \(name)", subject)
        }
        try check(avfilter_init_str(context, nil), "avfilter_init_str", "\(name) for \(subject)")
        return context
    }

    /// Links `source`'s output `output` to `destination`'s input `input`.
    func link(_ source: UnsafeMutablePointer<AVFilterContext>, _ output: UInt32 = 0,
              to destination: UnsafeMutablePointer<AVFilterContext>, _ input: UInt32 = 0) throws(FFmpegError) {
        try check(avfilter_link(source, output, destination, input), "avfilter_link", "filter graph")
    }

    deinit {
        var graph: UnsafeMutablePointer<AVFilterGraph>? = pointer
        avfilter_graph_free(&graph)
    }
}
