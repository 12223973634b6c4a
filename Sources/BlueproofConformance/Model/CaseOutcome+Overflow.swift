import BlueproofAsync

extension CaseOutcome {
    /// This outcome, or an error naming the limit when the event log of a node (`overflows`,
    /// by node) dropped events: a case cannot judge what its log did not keep.
    func unlessOverflowed(_ overflows: [EventLogOverflow?]) -> CaseOutcome {
        guard let (node, overflow) = overflows.enumerated().compactMap({ node, overflow in overflow.map { (node, $0) } }).first else {
            return self
        }
        return .error("node \(node): \(overflow) (the check's own verdict, \(verdict.rawValue): \(reason))")
    }
}
