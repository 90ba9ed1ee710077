import Testing
import VidrecCore

/// Destinations for `--upload`, taken apart as rclone reads them: their keys never
/// reach a message, and reach rclone through its environment, never its argv.
@Suite struct RcloneRemoteTests {
    @Test func onTheFlyRemotesAreRedactedAndHandedOverInTheEnvironment() throws {
        let remote = try #require(RcloneRemote(parsing: ":s3,provider=AWS,access_key_id=AKIA,secret_access_key='se,cr:et':bucket/videos"))
        #expect(remote.backend == "s3" && remote.path == "bucket/videos")
        #expect(remote.redacted == ":s3,provider=AWS,access_key_id=***,secret_access_key=***:bucket/videos")
        let (target, environment) = remote.invocation
        #expect(target == "vidrecupload:bucket/videos")
        #expect(environment == ["RCLONE_CONFIG_VIDRECUPLOAD_TYPE": "s3", "RCLONE_CONFIG_VIDRECUPLOAD_PROVIDER": "AWS",
                                "RCLONE_CONFIG_VIDRECUPLOAD_ACCESS_KEY_ID": "AKIA", "RCLONE_CONFIG_VIDRECUPLOAD_SECRET_ACCESS_KEY": "se,cr:et"])
    }

    @Test func aNamedRemoteWithOptionsOverridesItsConfigurationThroughTheEnvironment() throws {
        let remote = try #require(RcloneRemote(parsing: "my-s3,secret_access_key=x:bucket"))
        #expect(remote.name == "my-s3" && remote.redacted == "my-s3,secret_access_key=***:bucket")
        #expect(remote.invocation.target == "my-s3:bucket")
        #expect(remote.invocation.environment == ["RCLONE_CONFIG_MY_S3_SECRET_ACCESS_KEY": "x"])
        #expect(RcloneRemote(parsing: "s3:bucket")?.invocation.environment == [:])
    }

    @Test func aColonJoinedToACombiningMarkIsStillAColon() throws {
        // One Swift Character, two scalars: rclone ends the value at the ':'.
        let remote = try #require(RcloneRemote(parsing: ":s3,secret_access_key=SECRET:\u{301}bucket"))
        #expect(!remote.redacted.contains("SECRET"))
    }

    @Test func foldersOnThisMachineAreKnown() {
        #expect(RcloneRemote(parsing: "/srv/videos")?.localFolder == "/srv/videos")
        #expect(RcloneRemote(parsing: ":local:/srv/videos")?.localFolder == "/srv/videos")
        #expect(RcloneRemote(parsing: "s3:bucket")?.localFolder == nil)
    }

    @Test(arguments: ["nocolon", "-flag:path", ":", "/", "a/b:c", ":s3,=x:bucket", ":s3,k=\"open:bucket"])
    func whatIsNotADestinationIsRefused(text: String) {
        #expect(RcloneRemote(parsing: text) == nil)
    }
}
