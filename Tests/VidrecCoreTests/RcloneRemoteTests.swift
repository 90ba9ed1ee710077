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

    @Test(arguments: ["nocolon", "-flag:path", ":", "/", "a/b:c", ":s3,=x:bucket", ":s3,k=\"open:bucket", ":s3,bad-key=1:b",
                      ":s3,k='v'x:b", "s3,k=v", ":/x:y", "re\u{301}mote:b", ":s3,k=v,:b", ":s3,k"])
    func whatIsNotADestinationIsRefused(text: String) {
        #expect(RcloneRemote(parsing: text) == nil)
    }

    /// rclone's grammar (fs/fspath): names of letters, digits, `_`, `-` and spaces;
    /// option names of letters, digits and `_`; a value quoted only at its start, a
    /// doubled quote standing for itself; a bare option is `true`.
    @Test func optionsAreReadAsRcloneReadsThem() throws {
        let remote = try #require(RcloneRemote(parsing: #":s3,a=it's,b='x''y:z',c="q""r",d,e=:my/path"#))
        #expect(remote.options.map(\.key) == ["a", "b", "c", "d", "e"])
        #expect(remote.options.map(\.value) == ["it's", "x'y:z", "q\"r", "true", ""])
        #expect(remote.path == "my/path")
        #expect(RcloneRemote(parsing: "my remote_2:b")?.name == "my remote_2")
        #expect(RcloneRemote(parsing: "/srv/a:b,c=d")?.localFolder == "/srv/a:b,c=d", "a '/' before any ':' makes a path")
    }

    /// The GUIDE's old example: rclone ends an unquoted value at its first `:`, so the
    /// keys after `http` would be the path. Refused, with the quoted form and no secret.
    @Test func anUnquotedValueThatRcloneWouldSplitIsRefusedWithTheQuotedForm() {
        let text = ":s3,provider=Minio,endpoint=http://nas:9000,access_key_id=AKIA1,secret_access_key=S3CR3T:bucket/videos"
        #expect(throws: RcloneRemote.Problem.splitValue(
            option: "the value of endpoint",
            quoted: ":s3,provider=Minio,endpoint='http://nas:9000',access_key_id=***,secret_access_key=***:bucket/videos")) {
            try RcloneRemote(checking: text)
        }
        #expect(throws: RcloneRemote.Problem.self) { try RcloneRemote(checking: "s3,pass=ab:cd:bucket") }
        #expect(!RcloneRemote.redact(text).contains("AKIA1") && !RcloneRemote.redact(text).contains("S3CR3T"), "\(RcloneRemote.redact(text))")
        // Quoted, it is what was meant.
        let quoted = try? RcloneRemote(checking: ":s3,endpoint='http://nas:9000',secret_access_key=S3CR3T:bucket")
        #expect(quoted?.options.first?.value == "http://nas:9000" && quoted?.path == "bucket")
        #expect(quoted?.redacted == ":s3,endpoint='http://nas:9000',secret_access_key=***:bucket")
    }

    /// Fail closed: only the values of options known to be harmless are shown, and not
    /// even those with an `@` (a URL's password); the names of options not known at all
    /// are hidden with their values (they may be pieces of a secret with a `,` in it); a
    /// `name=value` in a path is hidden too; in a text that is no destination, everything
    /// from the first option that is not harmless on.
    @Test func redactionShowsOnlyWhatIsKnownToBeHarmless() throws {
        #expect(RcloneRemote(parsing: ":s3,provider=AWS,sse_customer_key=K1,endpoint='http://u:p@h',env_auth,piece,x=y:b")?.redacted
                == ":s3,provider=AWS,sse_customer_key=***,***,env_auth,***,***:b")
        #expect(RcloneRemote(parsing: "s3:b/token=abc/x.mp4")?.redacted == "s3:b/token=***")
        #expect(RcloneRemote.redact("not a remote, password=hunter2:x,region=eu") == "not a remote,***")
        #expect(RcloneRemote.redact(":s3,region=eu,pass='a,b:c',user=u") == ":s3,region=eu,pass=***")
    }

    /// Where the secrets are in the text, for overwriting them in argv: each hidden
    /// value's bytes, quotes included; none for harmless values or bare options.
    @Test func secretOffsetsCoverExactlyTheHiddenValues() throws {
        let text = ":s3,provider=AWS,access_key_id=AKIAé1,secret_access_key='a:b',env_auth:bucket"
        let remote = try #require(RcloneRemote(parsing: text))
        let bytes = Array(text.utf8)
        let hidden = remote.secretOffsets.map { String(decoding: bytes[$0], as: UTF8.self) }
        #expect(hidden == ["AKIAé1", "'a:b'"])
    }
}
