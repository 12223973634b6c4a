/// The middle value of `values`, the mean of the two middle ones for an even count; nil for none.
public func median<T: Comparable>(_ values: [T], mean: (T, T) -> T) -> T? {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return nil }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : mean(sorted[middle - 1], sorted[middle])
}

/// ``median(_:mean:)`` of numbers.
public func median(_ values: [Double]) -> Double? { median(values) { ($0 + $1) / 2 } }

/// ``median(_:mean:)`` of durations.
public func median(_ values: [Duration]) -> Duration? { median(values) { ($0 + $1) / 2 } }
