/// A hook's output cut into lines for the log: each complete line is told as it comes,
/// a line longer than 1000 bytes in pieces, and what is left at the end once.
struct HookOutputLines {
    private var pending: [UInt8] = []
    private let tell: (String) -> Void

    /// - Parameter tell: hears each line, without its newline.
    init(_ tell: @escaping (String) -> Void) { self.tell = tell }

    /// Takes more of the output.
    mutating func add(_ bytes: ArraySlice<UInt8>) {
        pending.append(contentsOf: bytes)
        while true {
            if let newline = pending.firstIndex(of: 10) {
                emit(pending[..<newline])
                pending.removeFirst(newline + 1)
            } else if pending.count > 1000 {
                emit(pending[..<1000])
                pending.removeFirst(1000)
            } else {
                break
            }
        }
    }

    /// Tells the last line, if the output did not end with a newline.
    mutating func end() {
        if !pending.isEmpty { emit(pending[...]) }
        pending.removeAll()
    }

    private func emit(_ line: ArraySlice<UInt8>) {
        // Control characters would reach a terminal; they are shown as '?'.
        let text = String(decoding: line, as: UTF8.self).map { $0.isASCII && ($0.asciiValue! < 32 || $0.asciiValue! == 127) && $0 != "\t" ? "?" : String($0) }.joined()
        tell(text)
    }
}
