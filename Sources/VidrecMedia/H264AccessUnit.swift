/// One H.264 access unit in Annex B byte-stream form (NAL units after `00 00 01` or
/// `00 00 00 01` start codes), as an H.264 camera delivers it in one buffer: what vidrec
/// needs to know to store it as it is, read without decoding it.
///
/// The access unit is the buffer's first picture with the units before it: a buffer
/// may hold more than its frame (a driver that reports its whole buffer as used, with
/// the rest of an older frame after it), and what follows the picture is not part of it
/// (ITU-T H.264, 7.4.1.2.3: after a picture's slices, a delimiter, parameter set,
/// SEI or the first slice of another picture begins the next access unit).
public struct H264AccessUnit: Sendable {
    /// NAL unit types vidrec looks at (ITU-T H.264, table 7-1).
    public enum NALType: UInt8, Sendable {
        case slice = 1
        case idrSlice = 5
        case supplementalInfo = 6
        case sequenceParameterSet = 7
        case pictureParameterSet = 8
        case accessUnitDelimiter = 9
    }

    /// One NAL unit: its type (the header's low five bits) and where its bytes lie in the
    /// access unit, header included, start code excluded.
    public struct NALUnit: Sendable, Equatable {
        /// `nal_unit_type`.
        public var type: UInt8
        /// The unit's bytes within the access unit.
        public var range: Range<Int>

        /// Whether it is a slice of a picture (an IDR picture or another).
        public var isSlice: Bool { type == NALType.slice.rawValue || type == NALType.idrSlice.rawValue }
    }

    /// The NAL units, in order.
    public let units: [NALUnit]
    /// The bytes the access unit takes from the start of the buffer: up to the end of
    /// its last unit.
    public let byteCount: Int
    /// Whether it holds a picture (a slice): a decoder shows a frame for it.
    public let hasPicture: Bool
    /// Whether the access unit holds an IDR picture: a decoder can start here.
    public let isKeyframe: Bool
    /// Whether it holds both a sequence and a picture parameter set.
    public let hasParameterSets: Bool
    /// Whether one of its slices is a B slice (the camera reorders pictures).
    public let hasBSlices: Bool
    /// The sequence and picture parameter sets it holds, each after a four-byte start
    /// code: the stream header a muxer needs (`extradata`). Empty when it holds none.
    public let parameterSets: [UInt8]

    /// Reads the access unit in `bytes`.
    public init(_ bytes: UnsafeRawBufferPointer) {
        let units = H264AccessUnit.firstPicture(H264AccessUnit.nalUnits(in: bytes), in: bytes)
        self.units = units
        byteCount = units.last?.range.upperBound ?? 0
        hasPicture = units.contains { $0.isSlice }
        isKeyframe = units.contains { $0.type == NALType.idrSlice.rawValue }
        let sps = units.filter { $0.type == NALType.sequenceParameterSet.rawValue }
        let pps = units.filter { $0.type == NALType.pictureParameterSet.rawValue }
        hasParameterSets = !sps.isEmpty && !pps.isEmpty
        var header: [UInt8] = []
        for unit in sps + pps {
            header += [0, 0, 0, 1]
            header += bytes[unit.range]
        }
        parameterSets = header
        hasBSlices = units.contains { unit in
            guard unit.isSlice else { return false }
            return H264AccessUnit.sliceType(UnsafeRawBufferPointer(rebasing: bytes[unit.range])).map { $0 % 5 == 1 } ?? false
        }
    }

    /// The units up to the end of the first picture: what follows its slices and begins
    /// another access unit, and anything that is not a NAL unit (the forbidden bit set,
    /// type 0), ends it.
    static func firstPicture(_ units: [NALUnit], in bytes: UnsafeRawBufferPointer) -> [NALUnit] {
        var sawSlice = false
        for (n, unit) in units.enumerated() {
            if bytes[unit.range.lowerBound] & 0x80 != 0 || unit.type == 0 { return Array(units[..<n]) }
            guard sawSlice else { sawSlice = unit.isSlice; continue }
            let beginsAnother: Bool = switch unit.type {
            case 6...9, 14...18: true
            // A slice with first_mb_in_slice 0 (`ue(v)` 0 is a single 1 bit) is another
            // picture's first.
            case 1, 5: unit.range.count > 1 && bytes[unit.range.lowerBound + 1] & 0x80 != 0
            default: false
            }
            if beginsAnother { return Array(units[..<n]) }
        }
        return units
    }

    /// Reads the access unit in `bytes`.
    public init(_ bytes: [UInt8]) {
        self = bytes.withUnsafeBytes { H264AccessUnit($0) }
    }

    /// The NAL units of an Annex B byte stream. Bytes before the first start code are
    /// not a unit; the zero bytes before a start code belong to none.
    public static func nalUnits(in bytes: UnsafeRawBufferPointer) -> [NALUnit] {
        var starts: [(codeStart: Int, payload: Int)] = []
        var i = 0
        let count = bytes.count
        while i + 2 < count {
            if bytes[i + 2] > 1 { i += 3; continue }
            if bytes[i] == 0, bytes[i + 1] == 0, bytes[i + 2] == 1 {
                let codeStart = i > 0 && bytes[i - 1] == 0 ? i - 1 : i
                starts.append((codeStart, i + 3))
                i += 3
            } else {
                i += 1
            }
        }
        var units: [NALUnit] = []
        for (n, start) in starts.enumerated() {
            var end = n + 1 < starts.count ? starts[n + 1].codeStart : count
            // Trailing zero bytes (before a four-byte start code, or padding) are not data.
            while end > start.payload, bytes[end - 1] == 0 { end -= 1 }
            guard end > start.payload else { continue }
            units.append(NALUnit(type: bytes[start.payload] & 0x1F, range: start.payload..<end))
        }
        return units
    }

    /// A slice's `slice_type` (0–9; B slices are 1 and 6), read from its header after
    /// `first_mb_in_slice`; `nil` when the bytes end too soon.
    static func sliceType(_ unit: UnsafeRawBufferPointer) -> UInt32? {
        // The header's first bytes without emulation-prevention bytes (00 00 03).
        var rbsp: [UInt8] = []
        var zeros = 0
        for byte in unit.dropFirst().prefix(16) {
            if zeros >= 2, byte == 3 { zeros = 0; continue }
            zeros = byte == 0 ? zeros + 1 : 0
            rbsp.append(byte)
        }
        var reader = ExpGolombReader(rbsp)
        guard reader.unsigned() != nil else { return nil }
        return reader.unsigned()
    }

    /// Reads unsigned Exp-Golomb codes (`ue(v)`), most significant bit first.
    struct ExpGolombReader {
        private let bytes: [UInt8]
        private var bit = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }

        private mutating func next() -> UInt32? {
            guard bit < bytes.count * 8 else { return nil }
            defer { bit += 1 }
            return UInt32(bytes[bit / 8] >> (7 - UInt8(bit % 8)) & 1)
        }

        mutating func unsigned() -> UInt32? {
            var zeros = 0
            while true {
                guard let b = next() else { return nil }
                if b == 1 { break }
                zeros += 1
                if zeros > 31 { return nil }
            }
            var value: UInt32 = 0
            for _ in 0..<zeros {
                guard let b = next() else { return nil }
                value = value << 1 | b
            }
            return (UInt32(1) << UInt32(zeros)) - 1 + value
        }
    }
}
