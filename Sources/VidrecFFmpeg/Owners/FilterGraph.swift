import CFFmpeg
import CFFmpegFilters

/// Owns a libavfilter graph and the filters in it.
///
/// vidrec does not link libavfilter (its dependencies alone are about 12 MB of every
/// recording's memory): the first graph loads it (``CFFmpegFilters``).
///
/// The corresponding C functions are `avfilter_graph_alloc`, `avfilter_graph_alloc_filter`,
/// `avfilter_init_str` and `avfilter_graph_free`.
final class FilterGraph {
    /// The graph; valid while this owner lives.
    let pointer: UnsafeMutablePointer<AVFilterGraph>

    /// Loads libavfilter if need be and allocates an empty graph; `subject` names it in
    /// errors.
    ///
    /// - Throws: ``FFmpegError`` when libavfilter cannot be loaded (naming the library
    ///   and the package that has it) or the graph cannot be allocated.
    init(subject: String) throws(FFmpegError) {
        if let failure = cffmpeg_filters_load() {
            let library = String(cString: cffmpeg_filters_library_name())
            throw FFmpegError("dlopen \(library)", subject, code: cffmpeg_averror(ENOSYS),
                              hint: "\(String(cString: failure)); install FFmpeg's filter library with "
                                  + "'apt-get install \(library.replacingOccurrences(of: ".so.", with: ""))'")
        }
        pointer = try allocated(cffmpeg_filters_graph_alloc(), "avfilter_graph_alloc", subject)
    }

    /// Adds the filter `name`, with `options` set one by one (no filtergraph syntax, so
    /// file names and texts need no escaping), and initializes it.
    ///
    /// - Throws: ``FFmpegError`` naming the filter and the option it refused.
    func add(_ name: String, _ options: [(String, String)] = [], subject: String) throws(FFmpegError) -> UnsafeMutablePointer<AVFilterContext> {
        guard let filter = cffmpeg_filters_get_by_name(name) else {
            throw FFmpegError("avfilter_get_by_name", name, code: cffmpeg_averror(ENOSYS), hint: "this FFmpeg has no '\(name)' filter")
        }
        let context = try allocated(cffmpeg_filters_graph_alloc_filter(pointer, filter, nil), "avfilter_graph_alloc_filter", name)
        for (key, value) in options {
            try check(av_opt_set(context, key, value, AV_OPT_SEARCH_CHILDREN), "av_opt_set \(key)=\(value) on \(name)", subject)
        }
        try check(cffmpeg_filters_init_str(context, nil), "avfilter_init_str", "\(name) for \(subject)")
        return context
    }

    /// Links `source`'s output `output` to `destination`'s input `input`.
    func link(_ source: UnsafeMutablePointer<AVFilterContext>, _ output: UInt32 = 0,
              to destination: UnsafeMutablePointer<AVFilterContext>, _ input: UInt32 = 0) throws(FFmpegError) {
        try check(cffmpeg_filters_link(source, output, destination, input), "avfilter_link", "filter graph")
    }

    deinit {
        var graph: UnsafeMutablePointer<AVFilterGraph>? = pointer
        cffmpeg_filters_graph_free(&graph)
    }
}
