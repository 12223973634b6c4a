/// What a profile declares about how a run is judged (docs/runner.md, "Verdict policy").
extension Profile {
    /// The key listing the preconditions whose failure makes a case `not-applicable` instead of
    /// `error`.
    public static let optionalPreconditionsKey = "runner.optional_preconditions"

    /// `runner.optional_preconditions`, as checked at load (`ProfileRanges.problem`).
    public var optionalPreconditions: Set<Precondition> {
        Set(((try? strings(Self.optionalPreconditionsKey)) ?? []).compactMap(Precondition.init(rawValue:)))
    }

    /// This profile with `preconditions` added to its optional ones (`--optional-precondition`).
    public func declaringOptional(_ preconditions: [Precondition]) -> Profile {
        guard !preconditions.isEmpty else { return self }
        var copy = self
        let names = (optionalPreconditions.union(preconditions)).map(\.rawValue).sorted()
        let line = values[Self.optionalPreconditionsKey]?.line ?? 0
        copy.values[Self.optionalPreconditionsKey] = Entry(value: .list(names.map { .string($0) }), line: line)
        return copy
    }
}
