import Glibc
import Testing
@testable import VidrecCLI

/// How stop signals are read: the first stops, repeats within half a second are the
/// same request (GNU timeout sends SIGINT to the child and to its group), and only a
/// later SIGINT aborts.
@Suite struct StopSignalsTests {
    static let second: Int64 = 1_000_000_000

    @Test func theFirstSignalStopsWhicheverItIs() {
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            var stops = StopSignals()
            #expect(stops.take(signal, at: 7 * Self.second) == .stop)
        }
    }

    @Test func aSIGINTWithinHalfASecondOfTheFirstIsTheSameRequest() {
        var stops = StopSignals()
        #expect(stops.take(SIGINT, at: 10 * Self.second) == .stop)
        #expect(stops.take(SIGINT, at: 10 * Self.second) == .repeated)
        #expect(stops.take(SIGINT, at: 10 * Self.second + StopSignals.window - 1) == .repeated)
    }

    @Test func aSIGINTHalfASecondOrMoreAfterTheFirstAborts() {
        var stops = StopSignals()
        #expect(stops.take(SIGTERM, at: 10 * Self.second) == .stop)
        #expect(stops.take(SIGINT, at: 10 * Self.second + StopSignals.window) == .abort)
    }

    @Test func aLaterSIGTERMOrSIGHUPNeverAborts() {
        var stops = StopSignals()
        #expect(stops.take(SIGINT, at: 0) == .stop)
        #expect(stops.take(SIGTERM, at: 5 * Self.second) == .repeated)
        #expect(stops.take(SIGHUP, at: 6 * Self.second) == .repeated)
    }
}
