import Glibc
import Testing
import VidrecMedia
import VidrecSystem

/// A thread blocked in `poll` on its device is woken by its worker's stop at once.
@Suite struct WakeSignalTests {
    /// A pipe standing in for a device that sends nothing.
    static func quietDevice() throws -> (read: FileDescriptor, write: FileDescriptor) {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        return (FileDescriptor(rawValue: ends[0]), FileDescriptor(rawValue: ends[1]))
    }

    @Test func aFiredSignalEndsAWaitOnAQuietDeviceAndStaysFiredUntilReset() throws {
        let (device, other) = try Self.quietDevice()
        defer { device.close(); other.close() }
        let wake = try WakeSignal()
        #expect(try wake.descriptor.poll(Int16(POLLIN), orWake: nil, milliseconds: 0, "test") == 0)
        wake.fire()
        // Without the signal this would wait a minute; the device itself has nothing.
        let started = MonotonicClock.now()
        #expect(try device.poll(Int16(POLLIN), orWake: wake, milliseconds: 60_000, "test") == 0)
        #expect(MonotonicClock.now() - started < 30 * Duration.nanosecondsPerSecond)
        #expect(try wake.descriptor.poll(Int16(POLLIN), orWake: nil, milliseconds: 0, "test") == Int16(POLLIN))
        wake.reset()
        #expect(try wake.descriptor.poll(Int16(POLLIN), orWake: nil, milliseconds: 0, "test") == 0)
    }

    @Test func theDeviceIsStillReportedBesideTheSignal() throws {
        let (device, other) = try Self.quietDevice()
        defer { device.close(); other.close() }
        let wake = try WakeSignal()
        var byte: UInt8 = 1
        #expect(write(other.rawValue, &byte, 1) == 1)
        #expect(try device.poll(Int16(POLLIN), orWake: wake, milliseconds: 60_000, "test") & Int16(POLLIN) != 0)
    }

    @Test(.timeLimit(.minutes(1)))
    func stoppingAWorkerWakesItsLoopBlockedOnTheDevice() throws {
        let (device, other) = try Self.quietDevice()
        defer { device.close(); other.close() }
        let worker = CaptureWorker()
        let wake = try #require(worker.wake)
        worker.start(name: "test.wake") {
            // A loop as a camera's: wait for the device, or for the stop.
            while worker.isRunning {
                _ = try? device.poll(Int16(POLLIN), orWake: wake, milliseconds: 600_000, "test")
            }
        }
        // Returns only once the loop has seen the stop: a lost wake-up would hang here
        // for ten minutes, past the test's time limit.
        #expect(worker.stop())
        // Started again, the signal is unfired until the next stop.
        worker.start(name: "test.wake") {}
        #expect(try wake.descriptor.poll(Int16(POLLIN), orWake: nil, milliseconds: 0, "test") == 0)
        worker.stop()
    }
}
