import Foundation
import Testing
import VidrecCore

/// The dates a recording writes, against Foundation's own formatters, which they replace.
@Suite struct DateTextTests {
    static let dates: [Date] = [
        Date(timeIntervalSince1970: 0),
        Date(timeIntervalSince1970: 1_796_083_815.25),      // 2026-12-01T…
        Date(timeIntervalSince1970: 951_782_400.999),       // 2000-02-29T00:00:00.999Z
        Date(timeIntervalSince1970: 4_102_444_799.5),       // 2099-12-31T23:59:59.5Z
        Date(timeIntervalSince1970: -1.5),                  // before 1970: the second below
    ]

    @Test(arguments: dates)
    func iso8601IsWhatISO8601DateFormatterWrites(date: Date) {
        #expect(DateText.iso8601(date) == ISO8601DateFormatter().string(from: date))
        let withFraction = ISO8601DateFormatter()
        withFraction.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        #expect(DateText.iso8601(date, milliseconds: true) == withFraction.string(from: date))
    }

    @Test(arguments: dates.dropLast())
    func recordingIDIsTheLocalTimeToTheSecond(date: Date) {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        formatter.locale = Locale(identifier: "en_US_POSIX")
        #expect(DateText.recordingID(date) == formatter.string(from: date))
    }

    @Test func anEmptyTemplateHasNoText() {
        #expect(DateText.local("", Date()) == nil)
        #expect(DateText.local("%Y/%m/door", Date(timeIntervalSince1970: 1_796_083_815))?.hasSuffix("/12/door") == true)
    }
}
