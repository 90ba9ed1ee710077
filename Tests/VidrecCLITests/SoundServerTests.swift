import Foundation
import Glibc
import Testing
@testable import VidrecALSA

/// What vidrec tells a user about a sound server it cannot reach and a card someone
/// holds, from the environment and `/proc/asound` as given.
@Suite struct SoundServerTests {
    let pipewire = SoundServer(name: "PipeWire", pluginType: "pipewire")
    let pulse = SoundServer(name: "PulseAudio", pluginType: "pulse")

    @Test func withoutARuntimeFolderTheServerIsOutOfReach() {
        let reason = pipewire.unreachableReason(environment: ["HOME": "/root"])
        #expect(reason == "XDG_RUNTIME_DIR is not set: this runs outside a desktop session, as under cron or a system service")
        #expect(pulse.unreachableReason(environment: [:]) == reason)
        #expect(pulse.unreachableReason(environment: ["PULSE_SERVER": "tcp:host"]) == nil)
    }

    @Test func theServersSocketDecides() throws {
        let folder = NSTemporaryDirectory() + "runtime-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(pipewire.unreachableReason(environment: ["XDG_RUNTIME_DIR": folder])
                == "no PipeWire socket at \(folder)/pipewire-0: PipeWire is not running for this user")
        // A plain file is not a server's socket.
        FileManager.default.createFile(atPath: folder + "/pipewire-0", contents: Data())
        #expect(pipewire.unreachableReason(environment: ["XDG_RUNTIME_DIR": folder]) != nil)
        unlink(folder + "/pipewire-0")
        let socket = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            _ = (folder + "/pipewire-0").utf8CString.withUnsafeBytes { raw.copyMemory(from: $0) }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0)
        #expect(pipewire.unreachableReason(environment: ["XDG_RUNTIME_DIR": folder]) == nil)
        #expect(pipewire.unreachableReason(environment: ["XDG_RUNTIME_DIR": folder, "PIPEWIRE_REMOTE": "other"]) != nil)
    }

    @Test func aHeldCardNamesItsHolder() throws {
        let proc = NSTemporaryDirectory() + "proc-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: proc) }
        for (substream, owner) in [("sub0", "closed"), ("sub1", "state: RUNNING\nowner_pid   : 4242\ntrigger_time: 1.0")] {
            try FileManager.default.createDirectory(atPath: "\(proc)/asound/card2/pcm1c/\(substream)", withIntermediateDirectories: true)
            try owner.write(toFile: "\(proc)/asound/card2/pcm1c/\(substream)/status", atomically: true, encoding: .utf8)
        }
        try FileManager.default.createDirectory(atPath: "\(proc)/4242", withIntermediateDirectories: true)
        try "pipewire\n".write(toFile: "\(proc)/4242/comm", atomically: true, encoding: .utf8)
        let index: (String) -> Int32? = { ["Loopback": 2, "2": 2][$0] }
        for name in ["hw:2,1", "hw:Loopback,1,0", "plughw:CARD=Loopback,DEV=1", "hw:CARD=2,DEV=1"] {
            #expect(CaptureDeviceHolder.holder(ofPCM: name, procRoot: proc, cardIndex: index) == "pipewire (pid 4242)", "\(name)")
        }
        // Device 0 is free; not a card's name; no such card.
        #expect(CaptureDeviceHolder.holder(ofPCM: "hw:2,0", procRoot: proc, cardIndex: index) == nil)
        #expect(CaptureDeviceHolder.holder(ofPCM: "default", procRoot: proc, cardIndex: index) == nil)
        #expect(CaptureDeviceHolder.holder(ofPCM: "hw:USB,0", procRoot: proc, cardIndex: index) == nil)
    }

    @Test func theServersPeriodIsAPowerOfTwoOfAbout21Milliseconds() {
        #expect(ALSAMicrophone.serverPeriod(rate: 48000) == 1024)
        #expect(ALSAMicrophone.serverPeriod(rate: 44100) == 1024)
        #expect(ALSAMicrophone.serverPeriod(rate: 16000) == 256)
        #expect(ALSAMicrophone.serverPeriod(rate: 96000) == 2048)
    }
}
