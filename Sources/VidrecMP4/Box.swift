/// Where one box lies: in a file (offsets from its start) or in bytes read into memory.
struct Box: Sendable, Equatable {
    let type: BoxType
    /// Where the box starts.
    let offset: Int64
    /// 8, or 16 with a 64-bit size.
    let headerSize: Int
    /// The whole box, header included.
    let size: Int64

    /// Where the box's contents start.
    var payloadOffset: Int64 { offset + Int64(headerSize) }
    /// Where the next box starts.
    var end: Int64 { offset + size }
}
