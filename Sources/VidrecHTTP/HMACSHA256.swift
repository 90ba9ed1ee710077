/// HMAC with SHA-256 (RFC 2104): what `vidrec serve` derives from its token for one port,
/// so that what a browser keeps for one server is worth nothing at another.
public enum HMACSHA256 {
    /// The authentication code of `message` under `key`, 32 bytes.
    public static func code(key: some Sequence<UInt8>, message: some Sequence<UInt8>) -> [UInt8] {
        var block = Array(key)
        if block.count > 64 { block = SHA256.hash(block) }
        block += [UInt8](repeating: 0, count: 64 - block.count)
        var inner = SHA256()
        inner.update(block.map { $0 ^ 0x36 })
        inner.update(message)
        var outer = SHA256()
        outer.update(block.map { $0 ^ 0x5c })
        outer.update(inner.finalize())
        return outer.finalize()
    }

    /// ``code(key:message:)`` of two strings' UTF-8, as lowercase hex.
    public static func hex(key: String, message: String) -> String {
        code(key: key.utf8, message: message.utf8).map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
        }.joined()
    }
}
