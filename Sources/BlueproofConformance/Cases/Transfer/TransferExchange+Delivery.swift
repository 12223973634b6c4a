extension TransferExchange {
    /// Why `payload` did not reach the central byte-exact, nil when it did: an error when the
    /// central never subscribed (nothing was judged), a failure when it never completed the
    /// message or completed other bytes. `what` names the payload, in front of each reason.
    func deliveryVerdict(of payload: [UInt8], what: String) -> CaseOutcome? {
        guard centralReady != nil else { return .error("\(what): the central never subscribed: \(centralText)") }
        guard case let .success(received) = central else {
            return .fail("\(what) never completed at the central: \(centralText)")
        }
        return Self.difference(sent: payload, received: received.payload ?? []).map { .fail("\(what): \($0)") }
    }
}
