import Testing
import VidrecFFmpeg

/// `--live` URLs: which are taken, and how they read in messages and logs (with their
/// secrets shortened, since cron mails what vidrec prints).
@Suite struct LiveDestinationTests {
    @Test(arguments: [
        ("rtmp://127.0.0.1/live/cam", "rtmp://127.0.0.1/live/cam"),
        ("rtmp://a.rtmp.youtube.com/live2/abcd-efgh-ijkl-mnop", "rtmp://a.rtmp.youtube.com/live2/abcd…"),
        ("rtmps://user:secret@example.com:443/app/key12345", "rtmps://user:…@example.com:443/app/key12345"),
        ("srt://10.0.0.2:9000?mode=caller&passphrase=topsecret99", "srt://10.0.0.2:9000?mode=…&passphrase=…"),
        ("rtsp://cam:pw@nvr.local:8554/door", "rtsp://cam:…@nvr.local:8554/door"),
    ])
    func messagesShowTheServerButNotTheSecrets(url: String, shown: String) throws {
        let destination = try LiveDestination(parsing: url)
        #expect(destination.url == url, "libavformat gets the URL as given")
        #expect(destination.description == shown)
    }

    @Test func unsupportedOrIncompleteURLsAreRefusedWithTheReason() {
        #expect(throws: LiveDestination.Problem.unsupportedScheme("udp")) { try LiveDestination(parsing: "udp://1.2.3.4:5000") }
        #expect(throws: LiveDestination.Problem.noStreamName) { try LiveDestination(parsing: "rtmp://host/live") }
        #expect(throws: LiveDestination.Problem.noStreamName) { try LiveDestination(parsing: "rtmp://host/live/?x=1") }
        #expect(throws: LiveDestination.Problem.noHost) { try LiveDestination(parsing: "srt://:9000") }
        #expect(throws: LiveDestination.Problem.noHost) { try LiveDestination(parsing: "rtsp://user@/path") }
        #expect(throws: LiveDestination.Problem.notAURL) { try LiveDestination(parsing: "localhost:1935") }
        #expect((try? LiveDestination(parsing: "SRT://host:9000"))?.scheme == .srt, "schemes are case-insensitive")
    }
}
