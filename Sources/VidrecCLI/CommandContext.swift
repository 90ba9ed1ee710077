import Foundation
import VidrecCore
import VidrecMedia
import VidrecFFmpeg

/// What every command runs with: the environment, where things live, and the two
/// output streams. Tests run commands in-process with their own context.
public struct CommandContext: Sendable {
    /// Paths resolved from the environment.
    public var paths: VidrecPaths
    /// The running executable, for finding built-in presets.
    public var executable: String
    /// Writes to standard output.
    public var out: @Sendable (String) -> Void
    /// Writes to standard error.
    public var err: @Sendable (String) -> Void
    /// Whether standard error is a terminal (for the live status line).
    public var errIsTerminal: Bool

    /// Creates a context.
    public init(paths: VidrecPaths, executable: String, out: @escaping @Sendable (String) -> Void,
                err: @escaping @Sendable (String) -> Void, errIsTerminal: Bool) {
        self.paths = paths
        self.executable = executable
        self.out = out
        self.err = err
        self.errIsTerminal = errIsTerminal
    }

    /// The preset library: the user's folder first, then the built-in folders, with
    /// codec names checked against this FFmpeg.
    public var presetLibrary: PresetLibrary {
        PresetLibrary(directories: [paths.userPresetDirectory] + paths.builtinPresetDirectories(executable: executable),
                      parser: presetParser)
    }

    /// The built-in presets alone (what the manual page lists).
    public var builtinPresetLibrary: PresetLibrary {
        PresetLibrary(directories: paths.builtinPresetDirectories(executable: executable), parser: presetParser)
    }

    private var presetParser: PresetParser {
        let catalog = EncoderCatalog()
        return PresetParser(encoderExists: { catalog.has($0, kind: $1) },
                            pixelFormatExists: { catalog.hasPixelFormat($0) })
    }

    /// Where the config file is: `$XDG_CONFIG_HOME/vidrec/config`.
    var configPath: String { paths.configDirectory + "/config" }

    /// The config file (``ConfigFile``); `nil` when there is none.
    func configFile() throws(ConfigProblem) -> ConfigFile? { try ConfigFile.load(configPath) }

    /// The pending area.
    public func store() throws -> RecordingStore {
        try RecordingStore(stateDirectory: paths.stateDirectory)
    }

    /// The record of the files vidrec saved to albums.
    public var manifest: AlbumManifest { AlbumManifest(stateDirectory: paths.stateDirectory) }

    /// The album: `--album`, else `VIDREC_ALBUM`, else the XDG videos folder.
    public func album(_ option: String?) -> Album {
        Album(path: option.map { ($0 as NSString).expandingTildeInPath } ?? paths.defaultAlbum)
    }

    /// The photo album (`vidrec snap`): `--album`, else `VIDREC_PHOTOS`, else the XDG
    /// pictures folder.
    public func photoAlbum(_ option: String?) -> Album {
        Album(path: option.map { ($0 as NSString).expandingTildeInPath } ?? paths.defaultPhotoAlbum)
    }

    /// The album a pending item is saved to: the photo album for a photo, else the album.
    func album(_ option: String?, for entry: RecordingStore.Entry) -> Album {
        entry.isPhoto ? photoAlbum(option) : album(option)
    }

    /// What to browse, its items described by libavformat: the folder `--album` names,
    /// else the album and the photo album together.
    func albumCatalog(_ option: String?, describer: any MovieDescribing = MovieProbe()) -> AlbumCatalog {
        let albums = option != nil ? [album(option)] : [album(nil), photoAlbum(nil)]
        return AlbumCatalog(albums: albums, manifest: manifest, describer: describer)
    }

    /// Prints `object` (arrays, dictionaries, strings, numbers) as JSON for scripts:
    /// indented, keys sorted, one newline at the end.
    func printJSON(_ object: Any) throws {
        let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
        out(String(decoding: data, as: UTF8.self) + "\n")
    }
}
