import Foundation
import VidrecMQTT

/// The messages that make a camera's entities appear in Home Assistant by themselves
/// (its MQTT discovery, under `homeassistant/`): a switch that records, a motion sensor,
/// the newest photo as a camera, a free-space sensor and a photo button, one device,
/// available while `vidrec serve` or a recording with `--mqtt` is connected.
///
/// `vidrec serve` announces all five; a recording alone the three that need no one to
/// take commands (motion, snapshot, free space), in the same words, so that either may
/// announce them without the other undoing it.
struct HomeAssistantDiscovery {
    let topics: MQTTTopics
    /// The device's name in Home Assistant.
    let name: String
    let version: String
    /// Whether commands are taken (serve): the switch and the button too.
    let takesCommands: Bool

    /// Each retained config message: its topic and JSON payload.
    var messages: [(topic: String, payload: String)] {
        let node = topics.node
        let device: [String: Any] = ["identifiers": ["vidrec_\(node)"], "name": name, "manufacturer": "vidrec",
                                     "model": "vidrec serve", "sw_version": version]
        let entities: [(component: String, object: String, config: [String: Any])] = [
            ("switch", "recording", ["name": "Recording", "command_topic": topics.command("recording"), "state_topic": topics.state,
                                     "value_template": "{{ 'ON' if value in ['recording', 'paused'] else 'OFF' }}", "icon": "mdi:record-rec"]),
            ("binary_sensor", "motion", ["name": "Motion", "device_class": "motion", "state_topic": topics.motion]),
            ("camera", "snapshot", ["name": "Snapshot", "topic": topics.snapshot]),
            ("sensor", "free_space", ["name": "Free space", "state_topic": topics.freeSpace, "unit_of_measurement": "GB",
                                      "device_class": "data_size", "state_class": "measurement", "icon": "mdi:harddisk"]),
            ("button", "snap", ["name": "Take a photo", "command_topic": topics.command("snap"), "icon": "mdi:camera"]),
        ]
        let commanded: Set = ["switch", "button"]
        return entities.filter { takesCommands || !commanded.contains($0.component) }.map { entity in
            var config = entity.config
            config["unique_id"] = "vidrec_\(node)_\(entity.object)"
            config["availability"] = [["topic": topics.availability], ["topic": topics.recordingAvailability]]
            config["availability_mode"] = "any"
            config["device"] = device
            let data = (try? JSONSerialization.data(withJSONObject: config, options: [.sortedKeys])) ?? Data()
            return ("homeassistant/\(entity.component)/vidrec_\(node)/\(entity.object)/config", String(decoding: data, as: UTF8.self))
        }
    }
}
