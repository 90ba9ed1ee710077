import Testing
import VidrecMedia

/// Annex B access units as cameras send them, built byte by byte.
@Suite struct H264AccessUnitTests {
    static let sps: [UInt8] = [0x67, 0x42, 0xC0, 0x1E, 0xDA, 0x02, 0x80, 0xBF, 0xE5, 0x84]
    static let pps: [UInt8] = [0x68, 0xCE, 0x3C, 0x80]
    /// An IDR slice: first_mb 0 (`1`), slice_type 7 (I, `0001000`).
    static let idr: [UInt8] = [0x65, 0x88, 0x84, 0x00, 0x33]
    /// A P slice: first_mb 0, slice_type 5 (`00110`).
    static let p: [UInt8] = [0x41, 0x9A, 0x02, 0x04]
    /// A B slice: first_mb 0, slice_type 6 (`00111`).
    static let b: [UInt8] = [0x41, 0x9E, 0x02, 0x04]
    static func annexB(_ units: [[UInt8]], longCodes: Bool = true) -> [UInt8] {
        units.flatMap { (longCodes ? [0, 0, 0, 1] : [0, 0, 1]) + $0 }
    }

    @Test func aKeyframeWithItsParameterSetsGivesTheHeader() {
        let unit = H264AccessUnit(Self.annexB([[0x09, 0xF0], Self.sps, Self.pps, Self.idr]))
        #expect(unit.units.map(\.type) == [9, 7, 8, 5])
        #expect(unit.isKeyframe && unit.hasParameterSets && !unit.hasBSlices)
        #expect(unit.parameterSets == [0, 0, 0, 1] + Self.sps + [0, 0, 0, 1] + Self.pps)
    }

    @Test func threeByteStartCodesAndTrailingZerosAreRead() {
        let bytes = Self.annexB([Self.sps, Self.pps], longCodes: false) + [0, 0, 0, 1] + Self.idr + [0, 0]
        let unit = H264AccessUnit(bytes)
        #expect(unit.units.map(\.type) == [7, 8, 5])
        #expect(Array(bytes[unit.units[2].range]) == Self.idr)
    }

    @Test func predictedAndBidirectionalSlicesAreTold() {
        let predicted = H264AccessUnit(Self.annexB([Self.p]))
        #expect(!predicted.isKeyframe && !predicted.hasParameterSets && !predicted.hasBSlices && predicted.parameterSets.isEmpty)
        #expect(H264AccessUnit(Self.annexB([Self.b])).hasBSlices)
    }

    @Test func bytesWithoutStartCodesHoldNoUnits() {
        for bytes: [UInt8] in [[0x12, 0x34, 0x56], [], [0, 0, 1]] {
            let unit = H264AccessUnit(bytes)
            #expect(unit.units.isEmpty && !unit.hasPicture && unit.byteCount == 0)
        }
    }

    /// v4l2loopback reports a buffer written before the reader asked for buffers as
    /// wholly used: the frame, then the rest of older frames, then what the memory held.
    @Test func whatFollowsTheFirstPictureIsNotPartOfIt() {
        let frame = Self.annexB([Self.sps, Self.pps, Self.idr])
        for tail in [Self.annexB([Self.p, Self.p]) + [0x12, 0, 0],
                     Self.annexB([[0x09, 0xF0], Self.b]),
                     Self.annexB([Self.sps, Self.pps, Self.idr]),
                     [UInt8](repeating: 0, count: 4096),
                     Self.annexB([[0xE5, 0x11], Self.p]),
                     Self.annexB([[0x00, 0x11]])] {
            let unit = H264AccessUnit(frame + tail)
            #expect(unit.byteCount == frame.count, "tail \(tail.prefix(8))")
            #expect(unit.units.map(\.type) == [7, 8, 5])
            #expect(unit.isKeyframe && unit.hasPicture && !unit.hasBSlices)
        }
    }

    @Test func aPictureInSeveralSlicesIsOneAccessUnit() {
        /// A second slice of the same picture: first_mb_in_slice 40 (`00000101001`).
        let secondSlice: [UInt8] = [0x65, 0x05, 0x28, 0x84]
        let bytes = Self.annexB([Self.sps, Self.pps, Self.idr, secondSlice, [0x0A]])
        let unit = H264AccessUnit(bytes)
        #expect(unit.units.map(\.type) == [7, 8, 5, 5, 10])
        #expect(unit.byteCount == bytes.count)
    }

    @Test func theGateHoldsFramesUntilTheFirstKeyframeAndKeepsItsHeader() throws {
        let gate = KeyframeGate(format: .h264)
        func admit(_ bytes: [UInt8]) -> KeyframeGate.Verdict { bytes.withUnsafeBytes { gate.admit($0.baseAddress!, byteCount: $0.count) } }
        #expect(admit(Self.annexB([Self.p])) == .hold)
        #expect(throws: DeviceError.self) { try gate.header(timeout: 0.01, device: "camera /dev/video9") }
        // Parameter sets sent on their own before the keyframe count for it.
        #expect(admit(Self.annexB([Self.sps, Self.pps])) == .hold)
        let idr = Self.annexB([Self.idr])
        #expect(admit(idr + Self.annexB([Self.p])) == .deliver(byteCount: idr.count, isKeyframe: true))
        #expect(admit(Self.annexB([Self.p])) == .deliver(byteCount: 4 + Self.p.count, isKeyframe: false))
        // A buffer with no picture is not a frame.
        #expect(admit(Self.annexB([Self.sps, Self.pps])) == .hold)
        #expect(admit([0x12, 0x34]) == .hold)
        #expect(gate.heldFrames == 4)
        #expect(try gate.header(timeout: 0, device: "camera") == [0, 0, 0, 1] + Self.sps + [0, 0, 0, 1] + Self.pps)
        if case .refuse(let reason) = admit(Self.annexB([Self.b])) {
            #expect(reason.contains("--video encode"))
        } else {
            Issue.record("a B slice is refused")
        }
    }

    @Test func jpegFramesPassTheGateAtOnce() throws {
        let gate = KeyframeGate(format: .mjpeg)
        #expect([UInt8]([0xFF, 0xD8]).withUnsafeBytes { gate.admit($0.baseAddress!, byteCount: 2) } == .deliver(byteCount: 2, isKeyframe: true))
        #expect(try gate.header(timeout: 0, device: "camera").isEmpty)
    }
}
