import Synchronization

/// Where a transmitter keeps its session ("Session" in bridgefy-ios-sdk-readme.md): the on-disk
/// `SessionStore`, shared by every instance and process using the same directory, or an
/// `InMemorySession` for simulations and tests.
public protocol TransmitterSessionBacking: Sendable {
    var exists: Bool { get }
    func load() throws(TransmitterError) -> SessionRecord?
    func loadOrCreate() throws(TransmitterError) -> SessionRecord
    func update(_ change: (inout SessionRecord) throws(TransmitterError) -> Void) throws(TransmitterError) -> SessionRecord
    func destroy() throws(TransmitterError)
    func writeFile(named name: String, contents: [UInt8]) throws(TransmitterError)
    func readFile(named name: String) throws(TransmitterError) -> [UInt8]?
}

extension SessionStore: TransmitterSessionBacking {}

/// A session held in memory: nothing survives the process. Give it an identity to skip RSA key
/// generation (see `SimulatedIdentities`); without one, the first start generates one.
public final class InMemorySession: TransmitterSessionBacking {
    private struct State {
        var record: SessionRecord?
        var pending: TransmitterIdentity?
        var files: [String: [UInt8]] = [:]
    }

    private let state: Mutex<State>

    public init(identity: TransmitterIdentity? = nil) {
        state = Mutex(State(pending: identity))
    }

    public var exists: Bool { state.withLock { $0.record != nil } }

    public func load() throws(TransmitterError) -> SessionRecord? { state.withLock { $0.record } }

    public func loadOrCreate() throws(TransmitterError) -> SessionRecord {
        try update { _ in }
    }

    public func update(_ change: (inout SessionRecord) throws(TransmitterError) -> Void) throws(TransmitterError) -> SessionRecord {
        try state.withLock { state throws(TransmitterError) -> SessionRecord in
            var record: SessionRecord
            if let existing = state.record {
                record = existing
            } else {
                if let pending = state.pending {
                    record = SessionRecord(identity: pending)
                    state.pending = nil
                } else {
                    record = SessionRecord(identity: try TransmitterIdentity.generate())
                }
            }
            try change(&record)
            state.record = record
            return record
        }
    }

    public func destroy() throws(TransmitterError) { state.withLock { $0.record = nil } }

    public func writeFile(named name: String, contents: [UInt8]) throws(TransmitterError) {
        state.withLock { $0.files[name] = contents }
    }

    public func readFile(named name: String) throws(TransmitterError) -> [UInt8]? {
        state.withLock { $0.files[name] }
    }
}
