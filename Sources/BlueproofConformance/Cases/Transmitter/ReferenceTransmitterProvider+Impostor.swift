import BlueproofTransmitter

extension ReferenceTransmitterProvider {
    /// Replaces tester `index`'s session with a fresh identity under `user`: same id, keys of
    /// its own (on the simulated link over the shared RSA key, see `SimulatedIdentities`).
    public func impersonate(_ user: UserID, onTester index: Int, for context: CaseContext) async throws {
        guard index != 0, let session = testerSessions.withLock({ $0[ObjectIdentifier(context)]?[index] }) else {
            throw TransmitterUnavailable("node \(index) is not a tester of this case")
        }
        let identity: TransmitterIdentity
        if case .simulated = link {
            identity = try Self.simulatedIdentities().make(user)
        } else {
            identity = try TransmitterIdentity.generate(userID: user)
        }
        _ = try session.update { $0 = SessionRecord(identity: identity) }
    }
}
