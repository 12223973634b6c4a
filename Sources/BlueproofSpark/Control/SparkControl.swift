import BlueproofWire

/// Which application the subject runs ("Listening For Data Connections"): the sample's
/// user interface holds one data connection at a time; the API is capable of several.
public enum SparkApplication: String, Hashable, Sendable {
    case sample
    case api
}

/// What a Spark case drives and observes of the subject: the calls of the sample's
/// `BBMMediaManager` data-connection API and its delegate callbacks as timestamped events.
/// Implemented by the reference (``ReferenceSparkControl``, broken variants with
/// `SparkDefects`) and, later, by an implementation under test over the control protocol
/// (docs/control-protocol.md, "Spark"). Refusals throw ``SparkError``; a harness failure
/// throws anything else.
public protocol SparkControl: Sendable {
    /// The subject's registration id (peers address it by this).
    var registrationID: UInt64 { get }
    /// The subject's key id, which peers must hold before their offers pass.
    var keyID: [UInt8] { get }
    /// Every callback of the subject, as it came.
    var events: SparkEventLog { get }
    /// The folder received files are written to ("saved in the cache directory").
    var cacheFolder: String { get }

    /// Keys exchanged first ("Starting A Data Connection"): the subject records `peer`'s key.
    func recordKey(_ key: [UInt8], for peer: UInt64) async throws
    /// Connects over LE to the device at `address` and opens the Spark channel; returns the
    /// peer's registration id from its hello.
    func link(to address: BDAddress) async throws -> UInt64
    /// Listens for Spark channels and advertises connectable, so that a peer can connect and
    /// open the channel ("Listening For Data Connections"); returns the subject's public address.
    func listen() async throws -> BDAddress
    /// `startDataConnection(regId, metaData:)`.
    func startDataConnection(to peer: UInt64, metadata: String) async throws -> SparkConnectionID
    /// `accept(_ connection:)`.
    func accept(_ id: SparkConnectionID) async throws
    /// Declines an incoming connection not yet accepted.
    func decline(_ id: SparkConnectionID) async throws
    /// `end(_ connection:)`.
    func end(_ id: SparkConnectionID) async throws
    /// Sets (or clears) `dataAvailableCallback` and `fileAvailableCallback`.
    func setReceiveCallbacks(_ id: SparkConnectionID, data: Bool, file: Bool) async throws
    /// `createDataChannel(description)`.
    func createDataChannel(_ id: SparkConnectionID, description: String) async throws -> UInt32
    /// `closeDataChannel(channelId)`.
    func closeDataChannel(_ id: SparkConnectionID, channel: UInt32) async throws
    /// A stream send; returns the send's id (its progress events name it).
    func send(_ bytes: [UInt8], toChannel channel: UInt32, on id: SparkConnectionID) async throws -> UInt64
    /// `send(data, description:)`; returns the send's id.
    func send(_ bytes: [UInt8], description: String, on id: SparkConnectionID) async throws -> UInt64
    /// `sendFile(filePath)`; returns the send's id.
    func sendFile(_ path: String, on id: SparkConnectionID) async throws -> UInt64

    /// Puts a file with `bytes` at `relativePath` on the subject's side; returns its path there.
    func placeFile(_ bytes: [UInt8], at relativePath: String) async throws -> String
    /// Removes a file on the subject's side; with `leavingFolder`, a folder takes its place in
    /// the same step, so the path opens but cannot be read and is never missing.
    func removeFile(at path: String, leavingFolder: Bool) async throws
    /// A file on the subject's side, whole; nil when it is not there.
    func readFile(at path: String) async throws -> [UInt8]?
    /// Ends what the subject holds for the case.
    func close() async
}
