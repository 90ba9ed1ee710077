import Foundation
import VidrecCore
import VidrecMQTT

/// What `vidrec start --mqtt` and `vidrec serve --mqtt` both publish, written once.
extension MQTTClient {
    /// The largest photo published as the snapshot, in bytes (brokers refuse large
    /// messages; a 1080p JPEG is a few hundred KB).
    static let largestSnapshot = 8 << 20

    /// Publishes `object` as JSON, its keys sorted, on `topic`.
    func publish(_ topic: String, json object: [String: Any], retain: Bool) {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return }
        publish(topic, String(decoding: data, as: UTF8.self), retain: retain)
    }

    /// Publishes the photo at `path`, retained, as the snapshot on `topics`; nothing for
    /// a file it cannot read or one over ``largestSnapshot``.
    func publishSnapshot(_ path: String, topics: MQTTTopics) {
        guard let picture = FileManager.default.contents(atPath: path), picture.count <= Self.largestSnapshot else { return }
        publish(topics.snapshot, bytes: Array(picture), retain: true)
    }

    /// The free space on the file system of `path` as `P/free_space` says it: GB to
    /// a tenth (`12.3`); `nil` when it cannot be read.
    static func freeSpaceText(at path: String) -> String? {
        guard let bytes = try? FreeSpace.available(at: path) else { return nil }
        return String(format: "%.1f", Double(bytes) / 1e9)
    }
}
