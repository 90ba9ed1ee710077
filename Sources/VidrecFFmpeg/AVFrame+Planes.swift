import CFFmpeg

/// An `AVFrame`'s planes by index: `data` and `linesize` are C arrays, which Swift
/// imports as tuples.
extension UnsafeMutablePointer where Pointee == AVFrame {
    /// Plane `index`'s first byte (`data[index]`); `nil` for a plane the format lacks.
    func plane(_ index: Int) -> UnsafeMutablePointer<UInt8>? {
        withUnsafeBytes(of: &pointee.data) {
            $0.load(fromByteOffset: index * MemoryLayout<UnsafeMutablePointer<UInt8>?>.stride, as: UnsafeMutablePointer<UInt8>?.self)
        }
    }

    /// Plane `index`'s bytes per row (`linesize[index]`).
    func linesize(_ index: Int) -> Int32 {
        withUnsafeBytes(of: &pointee.linesize) { $0.load(fromByteOffset: index * MemoryLayout<Int32>.stride, as: Int32.self) }
    }

    /// Points plane `index` at `start`, `linesize` bytes per row (the buffer that holds
    /// it is the caller's to reference in `buf`).
    func setPlane(_ index: Int, _ start: UnsafeMutablePointer<UInt8>?, linesize: Int32) {
        withUnsafeMutableBytes(of: &pointee.data) { $0.bindMemory(to: UnsafeMutablePointer<UInt8>?.self)[index] = start }
        withUnsafeMutableBytes(of: &pointee.linesize) { $0.bindMemory(to: Int32.self)[index] = linesize }
    }
}
