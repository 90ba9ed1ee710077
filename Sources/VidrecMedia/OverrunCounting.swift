/// A source that can report how many overruns it recovered from (ALSA microphones).
public protocol OverrunCounting {
    /// Overruns so far.
    var overruns: Int { get }
}
