import VidrecCore

/// The features of `vidrec start` that plug in, in the order their options are listed:
/// the one place a feature is registered (docs/ARCHITECTURE.md walks through adding one).
enum StartFeatures {
    static let all: [StartFeature] = []

    /// The options of every feature, for `start`'s spec.
    static var arguments: [ArgumentSpec] { all.flatMap(\.arguments) }
}
