import Foundation
import Testing
@testable import VidrecCLI
import VidrecCore

/// The requests a running recording answers come from one list (``ControlName``): each
/// has one answer, from the built-in ones or a feature's parts, the subcommands are
/// named after theirs, and serve's page posts exactly the actions serve's routes take.
@Suite struct ControlRegistryTests {
    /// The answers a `vidrec start` with `arguments` registers on its control socket.
    static func answers(_ arguments: [String]) throws -> [ControlAnswer] {
        let home = try TemporaryHome()
        let parsed = try CommandLineParser(spec: StartOptions.spec).parse(arguments)
        let options = try StartOptions(parsed)
        let context = CommandContext(paths: VidrecPaths(environment: ["HOME": home.path]), executable: "/nonexistent/bin/vidrec",
                                     out: { _ in }, err: { _ in }, errIsTerminal: false)
        let setup = StartFeature.Setup(context: context, options: options, saved: { _ in }, warn: { _ in }, failure: { _ in }, log: { _ in })
        var features: [ControlAnswer] = []
        for feature in StartFeatures.all {
            guard let make = try feature.parse(parsed, options) else { continue }
            features += try make(setup).requests
        }
        return RecordingControls.answers + features
    }

    @Test func everyRequestHasExactlyOneAnswer() throws {
        for arguments in [["--camera", "test"], ["--camera", "none", "--mic", "test"], ["--camera", "test", "--pre", "2", "--post", "2"]] {
            let names = try Self.answers(arguments).map(\.name)
            #expect(names.sorted { $0.rawValue < $1.rawValue } == ControlName.allCases.sorted { $0.rawValue < $1.rawValue },
                    "\(arguments): \(names)")
        }
    }

    @Test func eachControlSubcommandIsNamedAfterItsRequest() {
        for control in RecordingControls.all {
            #expect(control.spec.name == control.request.rawValue)
            #expect(control.controlAnswer.name == control.request)
        }
    }

    /// The page's buttons post the actions serve's routes take, every one of them, and
    /// its list of buttons for a running recording names only those.
    @Test func thePagePostsExactlyTheActionsServeTakes() throws {
        let script = ServePage.script
        let posted = try NSRegularExpression(pattern: #"post\("([a-z]+)""#)
            .matches(in: script, range: NSRange(script.startIndex..., in: script))
            .map { (script as NSString).substring(with: $0.range(at: 1)) }
        let lists = try NSRegularExpression(pattern: #"for \(const (?:id|action) of \[([^\]]*)\]\)"#)
            .matches(in: script, range: NSRange(script.startIndex..., in: script))
            .map { (script as NSString).substring(with: $0.range(at: 1)) }
        try #require(lists.count == 2, "the page's two loops over buttons")
        let names = { (list: String) in list.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " \"")) } }
        // The loop that posts its buttons' names: `post(action, {})`.
        let loopPosted = names(lists[1])
        #expect(Set(posted + loopPosted) == Set(ServeRoutes.actions), "\(posted) + \(loopPosted) vs \(ServeRoutes.actions)")
        #expect(Set(names(lists[0])).isSubset(of: Set(ServeRoutes.actions)), "\(lists[0])")
    }
}
