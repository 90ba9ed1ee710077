extension String {
    /// The text a C call wrote into `buffer`, up to its terminating NUL.
    init(cBuffer buffer: [CChar]) {
        self = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
