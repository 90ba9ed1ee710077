import Foundation
import CALSA

/// Who holds a sound card's capture device open, read from `/proc/asound`: the answer
/// to "in use by another program" that a user needs (often the desktop's sound server).
public enum CaptureDeviceHolder {
    /// The program holding the capture device that the ALSA name `pcm` opens
    /// (`hw:0,0`, `plughw:CARD=Loopback,DEV=1`), as `name (pid N)`; `nil` when the name
    /// is not a card's device or nobody can be found. `procRoot` and `cardIndex` (a card
    /// name or number to its index) are the system's unless a test gives others.
    public static func holder(ofPCM pcm: String, procRoot: String = "/proc",
                              cardIndex: (String) -> Int32? = systemCardIndex) -> String? {
        guard let (card, device) = cardAndDevice(pcm, cardIndex: cardIndex) else { return nil }
        let folder = "\(procRoot)/asound/card\(card)/pcm\(device)c"
        let substreams = (try? FileManager.default.contentsOfDirectory(atPath: folder))?.filter { $0.hasPrefix("sub") }.sorted() ?? []
        for substream in substreams {
            guard let status = try? String(contentsOfFile: "\(folder)/\(substream)/status", encoding: .utf8) else { continue }
            for line in status.split(separator: "\n") where line.hasPrefix("owner_pid") {
                guard let pid = line.split(separator: ":").last.flatMap({ Int32($0.trimmingCharacters(in: .whitespaces)) }), pid > 0
                else { continue }
                let name = (try? String(contentsOfFile: "\(procRoot)/\(pid)/comm", encoding: .utf8))?
                    .trimmingCharacters(in: .whitespacesAndNewlines)
                return "\(name.map { $0.isEmpty ? "pid \(pid)" : "\($0) (pid \(pid))" } ?? "pid \(pid)")"
            }
        }
        return nil
    }

    /// The card index and device of `hw:`/`plughw:` names: `hw:1,0`, `hw:Loopback,1,0`,
    /// `hw:CARD=Loopback,DEV=1`.
    static func cardAndDevice(_ pcm: String, cardIndex: (String) -> Int32?) -> (card: Int32, device: Int)? {
        guard let colon = pcm.firstIndex(of: ":"), ["hw", "plughw"].contains(String(pcm[..<colon])) else { return nil }
        var card: String?, device = 0
        for (position, field) in pcm[pcm.index(after: colon)...].split(separator: ",").enumerated() {
            let parts = field.split(separator: "=", maxSplits: 1).map(String.init)
            let key = parts.count == 2 ? parts[0].uppercased() : ["CARD", "DEV", "SUBDEV"][min(position, 2)]
            let value = parts.last ?? ""
            if key == "CARD" { card = value }
            if key == "DEV" { device = Int(value) ?? 0 }
        }
        guard let card, let index = cardIndex(card) else { return nil }
        return (index, device)
    }

    /// The index of the card named or numbered `card`, if there is one. The corresponding
    /// C function is `snd_card_get_index`.
    public static func systemCardIndex(_ card: String) -> Int32? {
        let index = snd_card_get_index(card)
        return index >= 0 ? index : nil
    }
}
