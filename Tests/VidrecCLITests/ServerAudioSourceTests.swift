import Foundation
import Testing
@testable import VidrecCLI

/// The sources `vidrec devices` lists from `pw-dump`'s JSON: a desktop's PipeWire with a
/// card's input, a sink (whose monitor is not a source), a virtual source and the
/// `default` metadata, as Debian 12's pw-dump prints them (trimmed).
@Suite struct PipeWireSourceTests {
    static let dump = #"""
    [
      { "id": 0, "type": "PipeWire:Interface:Core", "info": { "name": "pipewire-0" } },
      { "id": 34, "type": "PipeWire:Interface:Metadata",
        "props": { "metadata.name": "settings" }, "metadata": [] },
      { "id": 35, "type": "PipeWire:Interface:Metadata",
        "props": { "metadata.name": "default" },
        "metadata": [
          { "subject": 0, "key": "default.audio.sink", "type": "Spa:String:JSON",
            "value": { "name": "alsa_output.pci-0000_00_1f.3.analog-stereo" } },
          { "subject": 0, "key": "default.audio.source", "type": "Spa:String:JSON",
            "value": { "name": "alsa_input.usb-046d_HD_Pro_Webcam_C920-02.analog-stereo" } }
        ] },
      { "id": 48, "type": "PipeWire:Interface:Node",
        "info": { "props": { "media.class": "Audio/Sink", "node.name": "alsa_output.pci-0000_00_1f.3.analog-stereo",
                             "node.description": "Built-in Audio Analog Stereo" } } },
      { "id": 49, "type": "PipeWire:Interface:Node",
        "info": { "props": { "media.class": "Audio/Source", "node.name": "alsa_input.pci-0000_00_1f.3.analog-stereo",
                             "node.description": "Built-in Audio Analog Stereo" } } },
      { "id": 57, "type": "PipeWire:Interface:Node",
        "info": { "props": { "media.class": "Audio/Source", "node.name": "alsa_input.usb-046d_HD_Pro_Webcam_C920-02.analog-stereo",
                             "node.description": "HD Pro Webcam C920 Analog Stereo" } } },
      { "id": 60, "type": "PipeWire:Interface:Node",
        "info": { "props": { "media.class": "Audio/Source/Virtual", "node.name": "echo-cancel-source",
                             "node.nick": "Echo-Cancel Source" } } },
      { "id": 61, "type": "PipeWire:Interface:Node",
        "info": { "props": { "media.class": "Video/Source", "node.name": "v4l2_input.pci-0000_00_14.0-usb-0_1_1.0" } } },
      { "id": 70, "type": "PipeWire:Interface:Node",
        "info": { "props": { "media.class": "Stream/Input/Audio", "node.name": "vidrec" } } }
    ]
    """#

    @Test func audioSourcesAreListedWithTheDefaultMarkedAndTheirMicValue() throws {
        let sources = try #require(PipeWireSource.sources(inDump: Data(Self.dump.utf8)))
        #expect(sources.map(\.name) == ["alsa_input.pci-0000_00_1f.3.analog-stereo",
                                        "alsa_input.usb-046d_HD_Pro_Webcam_C920-02.analog-stereo", "echo-cancel-source"])
        #expect(sources.map(\.description) == ["Built-in Audio Analog Stereo", "HD Pro Webcam C920 Analog Stereo", "Echo-Cancel Source"])
        #expect(sources.map(\.isDefault) == [false, true, false])
        #expect(sources[1].mic == "pipewire:NODE=alsa_input.usb-046d_HD_Pro_Webcam_C920-02.analog-stereo")
    }

    @Test func aDefaultGivenAsAStringAndOutputThatIsNotADumpAreRead() throws {
        let stringValue = Self.dump.replacingOccurrences(
            of: #"{ "name": "alsa_input.usb-046d_HD_Pro_Webcam_C920-02.analog-stereo" }"#,
            with: #""{\"name\":\"alsa_input.pci-0000_00_1f.3.analog-stereo\"}""#)
        let sources = try #require(PipeWireSource.sources(inDump: Data(stringValue.utf8)))
        #expect(sources.map(\.isDefault) == [true, false, false])
        #expect(PipeWireSource.sources(inDump: Data("pw-dump: can't connect: Host is down\n".utf8)) == nil)
        #expect(PipeWireSource.sources(inDump: Data(#"{"type": "PipeWire:Interface:Node"}"#.utf8)) == nil)
    }

    /// A `pw-dump` that never answers (a server that hangs) costs `devices` the timeout,
    /// not forever; one that fails gives no list.
    @Test func aPwDumpThatHangsOrFailsGivesNoList() throws {
        let folder = NSTemporaryDirectory() + "vidrec-pwdump-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let script = folder + "/pw-dump"
        try "#!/bin/sh\nexec /bin/sleep 30\n".write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        let started = Date()
        #expect(PipeWireSource.list(environment: ["PATH": folder], timeout: 0.5) == nil)
        #expect(Date().timeIntervalSince(started) < 10)
        try "#!/bin/sh\necho 'pw-dump: error' >&2; exit 1\n".write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        #expect(PipeWireSource.list(environment: ["PATH": folder]) == nil)
        try "#!/bin/sh\n/bin/cat <<'END'\n\(Self.dump)\nEND\n".write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        #expect(PipeWireSource.list(environment: ["PATH": folder])?.count == 3)
    }
}
