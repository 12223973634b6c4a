import BlueproofSpark
import BlueproofTransmitter
import BlueproofWire
import Foundation

/// A Spark implementation under test driven over the control protocol (version 5,
/// docs/control-protocol.md, "Spark data connections"): every `SparkControl` call is a `spark…`
/// command, and the `spark…` events fill ``events`` as they arrive. A refusal by the Spark API
/// is thrown as the `SparkError` it names; anything else the implementation or the channel
/// fails with is thrown as a `TransmitterError`.
public final class ControlSparkSubject: SparkControl {
    public let registrationID: UInt64
    public let keyID: [UInt8]
    public let events: SparkEventLog
    public let cacheFolder: String
    public let client: ControlClient

    private init(client: ControlClient, registrationID: UInt64, keyID: [UInt8], cacheFolder: String, events: SparkEventLog) {
        self.client = client
        self.registrationID = registrationID
        self.keyID = keyID
        self.cacheFolder = cacheFolder
        self.events = events
    }

    /// `sparkStart`: the implementation's subject for one case, running `application` under `registration`.
    public static func start(_ client: ControlClient, application: SparkApplication, registration: UInt64) async throws -> ControlSparkSubject {
        let response = try await client.sparkAnswer(.sparkStart) {
            $0.application = application.rawValue
            $0.registration = registration
        }
        guard response.ok else {
            let error = response.refusal(of: .sparkStart)
            // Only the dedicated refusal says "no Spark here"; any other is a failure to start.
            guard error.name == ControlSparkNames.unsupported else { throw TransmitterError.controlChannel("sparkStart refused: \(error)") }
            throw SparkStartRefused(error: error)
        }
        // From the answer on: nothing an earlier subject of the implementation said is this one's.
        let events = SparkEventLog()
        await client.collectSpark(into: events)
        guard let text = response.keyID, let key = Data(base64Encoded: text), !key.isEmpty, let cacheFolder = response.cacheFolder else {
            throw TransmitterError.controlChannel("sparkStart answered without keyID (base64) and cacheFolder")
        }
        return ControlSparkSubject(client: client, registrationID: registration, keyID: Array(key), cacheFolder: cacheFolder, events: events)
    }

    public func recordKey(_ key: [UInt8], for peer: UInt64) async throws {
        _ = try await client.spark(.sparkRecordKey) {
            $0.key = Data(key).base64EncodedString()
            $0.peer = peer
        }
    }

    public func link(to address: BDAddress) async throws -> UInt64 {
        try Self.need(try await client.spark(.sparkLink) { $0.address = address.description }.peer, "peer", of: .sparkLink)
    }

    public func listen() async throws -> BDAddress {
        let text = try Self.need(try await client.spark(.sparkListen) { _ in }.address, "address", of: .sparkListen)
        guard let address = BDAddress(text) else { throw TransmitterError.controlChannel("sparkListen answered address \(text), not a BD_ADDR") }
        return address
    }

    public func startDataConnection(to peer: UInt64, metadata: String) async throws -> SparkConnectionID {
        let response = try await client.spark(.sparkStartDataConnection) {
            $0.peer = peer
            $0.metadata = metadata
        }
        return try Self.need(response.connection, "connection", of: .sparkStartDataConnection).id
    }

    public func accept(_ id: SparkConnectionID) async throws { try await call(.sparkAccept, id) }
    public func decline(_ id: SparkConnectionID) async throws { try await call(.sparkDecline, id) }
    public func end(_ id: SparkConnectionID) async throws { try await call(.sparkEnd, id) }

    public func setReceiveCallbacks(_ id: SparkConnectionID, data: Bool, file: Bool) async throws {
        try await call(.sparkSetReceiveCallbacks, id) {
            $0.dataCallback = data
            $0.fileCallback = file
        }
    }

    public func createDataChannel(_ id: SparkConnectionID, description: String) async throws -> UInt32 {
        try Self.need(try await call(.sparkCreateDataChannel, id) { $0.description = description }.channel, "channel", of: .sparkCreateDataChannel)
    }

    public func closeDataChannel(_ id: SparkConnectionID, channel: UInt32) async throws {
        try await call(.sparkCloseDataChannel, id) { $0.channel = channel }
    }

    public func send(_ bytes: [UInt8], toChannel channel: UInt32, on id: SparkConnectionID) async throws -> UInt64 {
        let response = try await call(.sparkSendStream, id) {
            $0.channel = channel
            $0.data = Data(bytes).base64EncodedString()
        }
        return try Self.need(response.send, "send", of: .sparkSendStream)
    }

    public func send(_ bytes: [UInt8], description: String, on id: SparkConnectionID) async throws -> UInt64 {
        let response = try await call(.sparkSendData, id) {
            $0.description = description
            $0.data = Data(bytes).base64EncodedString()
        }
        return try Self.need(response.send, "send", of: .sparkSendData)
    }

    public func sendFile(_ path: String, on id: SparkConnectionID) async throws -> UInt64 {
        try Self.need(try await call(.sparkSendFile, id) { $0.path = path }.send, "send", of: .sparkSendFile)
    }

    /// Sends the file in pieces of `ControlSparkLimits.maxPieceBytes`, each line under the limit.
    public func placeFile(_ bytes: [UInt8], at relativePath: String) async throws -> String {
        var start = 0
        while true {
            let end = min(bytes.count, start + ControlSparkLimits.maxPieceBytes)
            let more = end < bytes.count
            let piece = Data(bytes[start..<end]).base64EncodedString()
            let response = try await client.spark(.sparkPlaceFile) {
                $0.path = relativePath
                $0.data = piece
                $0.more = more
            }
            if !more {
                let path = try Self.need(response.path, "path", of: .sparkPlaceFile)
                // Where it says the file is must be that file: absolute, ending in the path asked.
                guard path.hasPrefix("/"), path.hasSuffix("/" + relativePath) else {
                    throw TransmitterError.controlChannel("sparkPlaceFile of \(relativePath) answered the path \(path), not an absolute path ending in it")
                }
                return path
            }
            start = end
        }
    }

    public func removeFile(at path: String, leavingFolder: Bool) async throws {
        let response = try await client.spark(.sparkRemoveFile) { request in
            request.path = path
            request.folder = leavingFolder ? true : nil
        }
        guard !leavingFolder || response.folder == true else {
            throw TransmitterError.controlChannel("sparkRemoveFile with folder true was answered without folder true: the implementation only removed \(path), no folder took its place (docs/control-protocol.md)")
        }
    }

    /// Reads the file back in pieces; a size over `ControlSparkLimits.maxFileBytes` is refused.
    public func readFile(at path: String) async throws -> [UInt8]? {
        var bytes: [UInt8] = []
        while true {
            let offset = bytes.count
            let response = try await client.spark(.sparkReadFile) {
                $0.path = path
                $0.offset = offset
                $0.count = ControlSparkLimits.maxPieceBytes
            }
            // "No file" only as the first answer, with neither part: any other gap is the implementation's.
            if offset == 0, response.data == nil, response.size == nil { return nil }
            guard let text = response.data, let size = response.size, (0...ControlSparkLimits.maxFileBytes).contains(size),
                  let piece = Data(base64Encoded: text) else {
                throw TransmitterError.controlChannel("sparkReadFile at offset \(offset) answered without base64 data and a size up to \(ControlSparkLimits.maxFileBytes)")
            }
            bytes += piece
            guard bytes.count <= size, !piece.isEmpty || bytes.count == size else {
                throw TransmitterError.controlChannel("sparkReadFile gave \(bytes.count) bytes of a file of \(size)")
            }
            if bytes.count == size { return bytes }
        }
    }

    /// `sparkStop` while the testers are still there (the implementation ends its links to
    /// them), then the channel.
    public func close() async {
        if await client.failure == nil { _ = try? await client.spark(.sparkStop) { _ in } }
        await client.close()
    }

    @discardableResult
    private func call(_ command: ControlCommand, _ id: SparkConnectionID, _ build: @Sendable (inout ControlRequest) -> Void = { _ in }) async throws -> ControlResponse {
        try await client.spark(command) {
            $0.connection = ControlSparkConnection(id)
            build(&$0)
        }
    }

    private static func need<T>(_ value: T?, _ field: String, of command: ControlCommand) throws -> T {
        guard let value else { throw TransmitterError.controlChannel("\(command.rawValue) answered without \(field)") }
        return value
    }
}

/// The implementation answered `sparkStart` with `sparkUnsupported`: it offers no Spark subject.
public struct SparkStartRefused: Error, CustomStringConvertible {
    public var error: TransmitterError
    public var description: String { "\(error)" }
}

extension ControlClient {
    /// Spark events from now on go to `log`.
    func collectSpark(into log: SparkEventLog) { sparkLog = log }

    /// A Spark command's answer, refusal or not; throws when the channel fails.
    func sparkAnswer(_ command: ControlCommand, _ build: @Sendable (inout ControlRequest) -> Void) async throws -> ControlResponse {
        try await answer(command, since: controlProtocolSpark, for: "Spark", build)
    }

    /// A Spark command's answer; a refusal naming a `SparkError` is thrown as that error.
    func spark(_ command: ControlCommand, _ build: @Sendable (inout ControlRequest) -> Void) async throws -> ControlResponse {
        let response = try await sparkAnswer(command, build)
        guard !response.ok else { return response }
        if let fields = response.spark {
            do { throw try fields.sparkError() } catch let unreadable as ControlSparkDecoding {
                throw TransmitterError.controlChannel("\(command.rawValue) was refused with a Spark error the runner cannot read: \(unreadable)")
            }
        }
        throw response.refusal(of: command)
    }
}
