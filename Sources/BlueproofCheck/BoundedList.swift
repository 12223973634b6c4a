/// Numbers a check collects (frames, lengths) in the order they come: the first ``limit`` kept,
/// every one counted, so a capture of millions of offending packets costs a bounded list.
struct BoundedList: Hashable, Sendable {
    /// Entries kept per list.
    static let limit = 1_000

    /// The first ``limit`` entries (the smallest, for frames appended in capture order).
    private(set) var kept: [Int] = []
    /// Every entry appended, kept or not.
    private(set) var count = 0
    /// The last entry appended, kept or not.
    private(set) var last: Int?

    var isEmpty: Bool { count == 0 }

    mutating func append(_ value: Int) {
        if kept.count < Self.limit { kept.append(value) }
        count += 1
        last = value
    }

    /// Frame lists merged: every entry counted, the smallest ``limit`` kept in order. Exact
    /// when each list's frames were appended in capture order.
    static func merged(_ lists: some Sequence<BoundedList>) -> BoundedList {
        var merged = BoundedList()
        for list in lists {
            merged.kept = Array((merged.kept + list.kept).sorted().prefix(limit))
            merged.count += list.count
            merged.last = [merged.last, list.last].compactMap { $0 }.max()
        }
        return merged
    }
}
