/// One parser of untrusted bytes as a fuzz target: `run` must return for every input, whatever
/// the bytes, with at most a typed error inside; a trap, a hang or unbounded memory is a bug.
///
/// The same targets serve libFuzzer (`Fuzz/`, `scripts/fuzz`) and the regression test that
/// replays the committed corpora and crash inputs in every `swift test`.
public struct FuzzTarget: Sendable {
    /// The name used on the command line and as the corpus folder (`Fuzz/corpus/<name>/`).
    public let name: String
    /// What it feeds the bytes to.
    public let summary: String
    public let run: @Sendable ([UInt8]) -> Void

    public init(_ name: String, _ summary: String, run: @escaping @Sendable ([UInt8]) -> Void) {
        self.name = name
        self.summary = summary
        self.run = run
    }
}

public enum FuzzTargets {
    /// Every target, in the order `scripts/fuzz` runs them.
    public static let all: [FuzzTarget] = wire + captures + transmitter + text + bluenet

    public static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name } }
}
