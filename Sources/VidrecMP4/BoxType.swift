/// An ISO base media file format box type (a four-character code), such as `moov`.
public struct BoxType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The four characters, big-endian.
    public let rawValue: UInt32

    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The type spelled by four ASCII characters.
    public init(_ code: StaticString) {
        precondition(code.utf8CodeUnitCount == 4, "a box type has four characters")
        let bytes = code.utf8Start
        rawValue = UInt32(bytes[0]) << 24 | UInt32(bytes[1]) << 16 | UInt32(bytes[2]) << 8 | UInt32(bytes[3])
    }

    public var description: String {
        String(decoding: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: rawValue >> $0) }, as: UTF8.self)
    }

    static let ftyp = BoxType("ftyp"), moov = BoxType("moov"), moof = BoxType("moof"), mdat = BoxType("mdat")
    static let free = BoxType("free"), skip = BoxType("skip"), mfra = BoxType("mfra")
    static let mvhd = BoxType("mvhd"), trak = BoxType("trak"), tkhd = BoxType("tkhd"), edts = BoxType("edts")
    static let elst = BoxType("elst"), mdia = BoxType("mdia"), mdhd = BoxType("mdhd"), hdlr = BoxType("hdlr")
    static let minf = BoxType("minf"), stbl = BoxType("stbl"), stsd = BoxType("stsd"), stts = BoxType("stts")
    static let ctts = BoxType("ctts"), stss = BoxType("stss"), stsz = BoxType("stsz"), stsc = BoxType("stsc")
    static let stco = BoxType("stco"), co64 = BoxType("co64"), sgpd = BoxType("sgpd"), sbgp = BoxType("sbgp")
    static let mvex = BoxType("mvex"), trex = BoxType("trex"), mfhd = BoxType("mfhd"), traf = BoxType("traf")
    static let tfhd = BoxType("tfhd"), tfdt = BoxType("tfdt"), trun = BoxType("trun")
    static let vide = BoxType("vide"), soun = BoxType("soun")
}
