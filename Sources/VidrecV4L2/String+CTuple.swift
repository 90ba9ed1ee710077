import Foundation

extension String {
    /// A C `char[N]` field imported as a tuple, up to its first NUL.
    init<T>(cTuple: T) {
        self = withUnsafeBytes(of: cTuple) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
