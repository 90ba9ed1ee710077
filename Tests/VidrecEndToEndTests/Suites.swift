import Foundation
import Testing

/// The end-to-end tests that record in real time. One at a time: side by side on two
/// cores, the encoder would fall behind and drop frames that the tests count.
@Suite(.serialized) struct EndToEndTests {}

/// The tests against real kernel drivers (vivid, snd-aloop), run in the VM that
/// `vm/device-tests` boots; CI runs them. One at a time, since they share the devices.
/// On the host, where those drivers are not loaded, they are reported as skipped.
/// The time limit only ends a test that hangs: beside two busy loops the guest runs at
/// a third of its speed, and the USB unplug test with segments took over 7 minutes there.
@Suite(.serialized, .timeLimit(.minutes(10)),
       .enabled(if: ProcessInfo.processInfo.environment["VIDREC_VM"] == "1", "needs vivid, snd-aloop and root: run vm/device-tests"))
struct KernelDriverTests {}
