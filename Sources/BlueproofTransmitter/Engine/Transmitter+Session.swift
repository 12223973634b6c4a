import Foundation

/// Session, keys and saved state ("Session", "Export and import keys", "Save state").
extension Transmitter {
    public func localPublicKey() throws(TransmitterError) -> String {
        guard let record = try session.load() else { throw TransmitterError.notStarted.with(detail: "no session yet") }
        return record.identity.publicKeys.base64
    }

    public func savePublicKey(_ key: String, forUser user: UserID) throws(TransmitterError) {
        let bundle = try PublicKeyBundle(base64: key)
        let replace = defects.contains(.keyReplacedSilently)
        _ = try session.update { (record: inout SessionRecord) throws(TransmitterError) in
            if let known = record.knownKeys[user], known != bundle, !replace {
                throw TransmitterError.publicKeyConflict.with(detail: "user \(user)")
            }
            record.knownKeys[user] = bundle
        }
    }

    /// The key on record for `user` (nil when none is), or `nil` with the error logged when the
    /// session cannot be read, so that each caller refuses what it could not check (fails closed).
    /// `refused` names what was refused, for the log.
    func keyOnRecord(for user: UserID, refused: @autoclosure () -> String) -> PublicKeyBundle?? {
        do throws(TransmitterError) {
            return .some(try session.load()?.knownKeys[user])
        } catch {
            TransmitterLog.log(.error, "\(refused()): the key on record for \(user) could not be read (\(error))", user: identity?.userID)
            return nil
        }
    }

    public func existsKey(forUser user: UserID) -> Bool {
        (try? session.load())?.knownKeys[user] != nil
    }

    public func hasSession() -> Bool { session.exists }

    /// Stops, then removes the session: the next start creates a new identity.
    public func destroySession() async throws(TransmitterError) {
        await stop()
        try session.destroy()
        identity = nil
        router = nil
        hellos = [:]
    }

    /// Writes the packets held for forwarding to the session's "mesh-state" file; the next start
    /// on the same session offers them again until they expire.
    public func saveState() throws(TransmitterError) {
        guard let router else { throw .notStarted }
        try session.writeFile(named: MeshStateFile.name, contents: MeshStateFile.encode(router.heldPackets))
    }
}
