import Foundation
import Testing
import VidrecALSA
@testable import VidrecCLI

/// The sources `vidrec devices` lists from a sound server's tool: `pw-dump`'s JSON for a
/// desktop's PipeWire with a card's input, a sink (whose monitor is not a source), a
/// virtual source and the `default` metadata, as Debian 12's pw-dump prints them
/// (trimmed); `pactl --format=json` for a PulseAudio with a card's input, a webcam's and
/// a sink's monitor, as Debian 12's pactl 16.1 prints them (trimmed).
@Suite struct ServerAudioSourceTests {
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
        let sources = try #require(ServerAudioSource.pipeWire(dump: Data(Self.dump.utf8)))
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
        let sources = try #require(ServerAudioSource.pipeWire(dump: Data(stringValue.utf8)))
        #expect(sources.map(\.isDefault) == [true, false, false])
        #expect(ServerAudioSource.pipeWire(dump: Data("pw-dump: can't connect: Host is down\n".utf8)) == nil)
        #expect(ServerAudioSource.pipeWire(dump: Data(#"{"type": "PipeWire:Interface:Node"}"#.utf8)) == nil)
    }

    static let pactlSources = #"""
    [{"index":0,"state":"SUSPENDED","name":"alsa_input.pci-0000_00_1f.3.analog-stereo","description":"Built-in Audio Analog Stereo",
      "driver":"module-alsa-card.c","sample_specification":"s16le 2ch 44100Hz","monitor_source":"",
      "properties":{"device.class":"sound","device.description":"Built-in Audio Analog Stereo"},"ports":[],"active_port":null},
     {"index":1,"state":"IDLE","name":"alsa_output.pci-0000_00_1f.3.analog-stereo.monitor","description":"Monitor of Built-in Audio Analog Stereo",
      "driver":"module-alsa-card.c","monitor_source":"alsa_output.pci-0000_00_1f.3.analog-stereo",
      "properties":{"device.class":"monitor"},"ports":[],"active_port":null},
     {"index":2,"state":"RUNNING","name":"alsa_input.usb-046d_HD_Pro_Webcam_C920-02.analog-stereo","description":"HD Pro Webcam C920 Analog Stereo",
      "driver":"module-alsa-card.c","monitor_source":"","properties":{"device.class":"sound"},"ports":[],"active_port":null}]
    """#
    static let pactlInfo = #"""
    {"server_string":"/run/user/1000/pulse/native","server_name":"pulseaudio","server_version":"16.1",
     "default_sink_name":"alsa_output.pci-0000_00_1f.3.analog-stereo",
     "default_source_name":"alsa_input.usb-046d_HD_Pro_Webcam_C920-02.analog-stereo"}
    """#

    @Test func pulseAudiosSourcesAreListedWithoutMonitorsWithTheDefaultMarked() throws {
        let sources = try #require(ServerAudioSource.pulseAudio(sources: Data(Self.pactlSources.utf8), info: Data(Self.pactlInfo.utf8)))
        #expect(sources.map(\.name) == ["alsa_input.pci-0000_00_1f.3.analog-stereo",
                                        "alsa_input.usb-046d_HD_Pro_Webcam_C920-02.analog-stereo"])
        #expect(sources.map(\.description) == ["Built-in Audio Analog Stereo", "HD Pro Webcam C920 Analog Stereo"])
        #expect(sources.map(\.isDefault) == [false, true])
        #expect(sources[1].mic == "pulse:DEVICE=alsa_input.usb-046d_HD_Pro_Webcam_C920-02.analog-stereo")
        // Without the server's information, nothing is marked; pactl's text output is not read.
        #expect(ServerAudioSource.pulseAudio(sources: Data(Self.pactlSources.utf8), info: Data())?.map(\.isDefault) == [false, false])
        #expect(ServerAudioSource.pulseAudio(sources: Data("Source #0\n\tState: SUSPENDED\n".utf8), info: Data(Self.pactlInfo.utf8)) == nil)
    }

    /// pactl is asked twice (the sources, then the server's default); both answers are read.
    @Test func pactlIsRunForTheSourcesAndTheDefault() throws {
        let folder = NSTemporaryDirectory() + "vidrec-pactl-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let script = folder + "/pactl"
        try """
        #!/bin/sh
        [ "$1" = --format=json ] || exit 2
        case "$2 $3" in
        "list sources") /bin/cat <<'END'
        \(Self.pactlSources)
        END
        ;;
        "info ") /bin/cat <<'END'
        \(Self.pactlInfo)
        END
        ;;
        *) exit 2 ;;
        esac
        """.write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        let sources = ServerAudioSource.list(.pulseAudio, environment: ["PATH": folder])
        #expect(sources?.map(\.isDefault) == [false, true])
        try "#!/bin/sh\nexec /bin/sleep 30\n".write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        let started = Date()
        #expect(ServerAudioSource.list(.pulseAudio, environment: ["PATH": folder], timeout: 0.5) == nil)
        #expect(Date().timeIntervalSince(started) < 10)
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
        #expect(ServerAudioSource.list(.pipeWire, environment: ["PATH": folder], timeout: 0.5) == nil)
        #expect(Date().timeIntervalSince(started) < 10)
        try "#!/bin/sh\necho 'pw-dump: error' >&2; exit 1\n".write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        #expect(ServerAudioSource.list(.pipeWire, environment: ["PATH": folder]) == nil)
        try "#!/bin/sh\n/bin/cat <<'END'\n\(Self.dump)\nEND\n".write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        #expect(ServerAudioSource.list(.pipeWire, environment: ["PATH": folder])?.count == 3)
    }
}
