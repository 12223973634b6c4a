import BlueproofSpark
import BlueproofTransmitter
import BlueproofWire
import Foundation
import Synchronization

/// What serves the Spark commands of a server (control protocol 5): the subject each
/// `sparkStart` makes, whose every event goes to `forward`.
public protocol ControlSparkHost: Sendable {
    func subject(_ application: SparkApplication, registration: UInt64,
                 forward: @escaping @Sendable (SparkEvent) -> Void) async throws -> any SparkControl
}

/// The Spark subject a server holds, and a file arriving in pieces (`sparkPlaceFile` with `more`).
struct ControlSparkState {
    var subject: (any SparkControl)?
    /// Which `sparkStart` made `subject`: events of an earlier one are not sent on.
    var generation = 0
    var placing: (path: String, bytes: [UInt8])?
    /// A file being read back in pieces (`sparkReadFile` from offset 0 on), read once.
    var reading: (path: String, bytes: [UInt8])?

    /// Takes the subject out (to be closed) and starts a new generation.
    mutating func retire() -> (any SparkControl)? {
        defer { (subject, placing, reading, generation) = (nil, nil, nil, generation + 1) }
        return subject
    }
}

/// Bounds on the Spark file commands: a piece of a file in one line, and a whole file.
enum ControlSparkLimits {
    /// A `sparkReadFile` piece: 512 KiB, about 700 KB once base64'd, under `LineSplitter.maxLineBytes`.
    static let maxPieceBytes = 512 << 10
    /// A file placed or read back: as `ReferenceSparkControl.maxReadBytes`.
    static let maxFileBytes = ReferenceSparkControl.maxReadBytes
}

extension ControlServer {
    /// Code of a refusal by the Spark API (the `spark` fields name it) and of a Spark call that
    /// failed otherwise (no link, no file): neither is a transmitter error.
    static let sparkRefusalCode = 60_001
    static let sparkFailureCode = 60_000
    /// `sparkStart` on an implementation without Spark data connections: its SPK cases are
    /// not-applicable. Any other refusal of `sparkStart` makes them errors.
    static let sparkUnsupported: TransmitterError = .controlProtocol(code: 60_002, name: ControlSparkNames.unsupported, summary: "this implementation has no Spark data connections")

    func performSpark(_ request: ControlRequest) async -> ControlResponse {
        do {
            return try await spark(request)
        } catch let refusal as SparkError {
            var response = ControlResponse(id: request.id, ok: false)
            let fields = ControlSparkFields(refusal)
            response.error = ControlError(.controlProtocol(code: Self.sparkRefusalCode, name: fields.name, summary: "the Spark call was refused", detail: "\(refusal)"))
            response.spark = fields
            return response
        } catch let error as TransmitterError {
            return .refusal(id: request.id, error)
        } catch {
            return .refusal(id: request.id, .controlProtocol(code: Self.sparkFailureCode, name: "sparkFailure", summary: "the Spark call failed", detail: "\(error)"))
        }
    }

    private func spark(_ request: ControlRequest) async throws -> ControlResponse {
        var response = ControlResponse(id: request.id)
        if request.command == .sparkStart {
            guard let sparkHost else { throw Self.sparkUnsupported }
            guard let application = request.application.flatMap(SparkApplication.init(rawValue:)), let registration = request.registration else {
                throw TransmitterError.controlChannel("sparkStart needs application (sample or api) and registration")
            }
            await closeSpark()
            let generation = sparkState.withLock { $0.generation }
            let subject = try await sparkHost.subject(application, registration: registration) { [weak self] event in
                guard let self, sparkState.withLock({ $0.generation == generation }) else { return }
                broadcast(ControlSparkEvent(event))
            }
            // Another client's sparkStart may have come meanwhile: the later one wins, the other is ended.
            let (superseded, kept) = sparkState.withLock { state -> ((any SparkControl)?, Bool) in
                guard state.generation == generation else { return (subject, false) }
                defer { state.subject = subject }
                return (state.subject, true)
            }
            await superseded?.close()
            guard kept else { throw TransmitterError.controlChannel("another client's sparkStart came meanwhile") }
            response.keyID = Data(subject.keyID).base64EncodedString()
            response.cacheFolder = subject.cacheFolder
            return response
        }
        if request.command == .sparkStop {
            await closeSpark()
            return response
        }
        guard let subject = sparkState.withLock({ $0.subject }) else {
            throw TransmitterError.controlChannel("\(request.command.rawValue) before sparkStart")
        }
        func connection() throws(TransmitterError) -> SparkConnectionID { try request.need(request.connection, "connection").id }
        func bytes() throws(TransmitterError) -> [UInt8] { Array(try request.need(ControlCoding.binary(request.data), "data")) }
        switch request.command {
        case .sparkRecordKey:
            try await subject.recordKey(Array(try request.need(ControlCoding.binary(request.key), "key")), for: try request.need(request.peer, "peer"))
        case .sparkLink:
            guard let text = request.address, let address = BDAddress(text) else {
                throw TransmitterError.controlChannel("sparkLink needs address, a BD_ADDR (AA:BB:CC:DD:EE:FF)")
            }
            response.peer = try await subject.link(to: address)
        case .sparkListen: response.address = try await subject.listen().description
        case .sparkStartDataConnection:
            response.connection = ControlSparkConnection(try await subject.startDataConnection(to: try request.need(request.peer, "peer"), metadata: request.metadata ?? ""))
        case .sparkAccept: try await subject.accept(try connection())
        case .sparkDecline: try await subject.decline(try connection())
        case .sparkEnd: try await subject.end(try connection())
        case .sparkSetReceiveCallbacks:
            try await subject.setReceiveCallbacks(try connection(), data: request.dataCallback ?? false, file: request.fileCallback ?? false)
        case .sparkCreateDataChannel:
            response.channel = try await subject.createDataChannel(try connection(), description: try request.need(request.description, "description"))
        case .sparkCloseDataChannel: try await subject.closeDataChannel(try connection(), channel: try request.need(request.channel, "channel"))
        case .sparkSendStream: response.send = try await subject.send(try bytes(), toChannel: try request.need(request.channel, "channel"), on: try connection())
        case .sparkSendData:
            response.send = try await subject.send(try bytes(), description: try request.need(request.description, "description"), on: try connection())
        case .sparkSendFile: response.send = try await subject.sendFile(try request.need(request.path, "path"), on: try connection())
        case .sparkPlaceFile:
            let path = try request.need(request.path, "path")
            let piece = try bytes()
            let whole = try sparkState.withLock { state throws(TransmitterError) -> [UInt8]? in
                // Taken out, so the pieces held have one owner and grow in place.
                var held = state.placing.take().flatMap { $0.path == path ? $0.bytes : nil } ?? []
                guard held.count + piece.count <= ControlSparkLimits.maxFileBytes else {
                    state.placing = nil
                    throw .controlChannel("sparkPlaceFile: \(path) would pass \(ControlSparkLimits.maxFileBytes) bytes (maxFileBytes)")
                }
                held += piece
                state.placing = request.more == true ? (path, held) : nil
                return request.more == true ? nil : held
            }
            if let whole { response.path = try await subject.placeFile(whole, at: path) }
        case .sparkRemoveFile:
            try await subject.removeFile(at: try request.need(request.path, "path"), leavingFolder: request.folder == true)
            response.folder = request.folder == true ? true : nil
        case .sparkReadFile:
            let offset = max(0, request.offset ?? 0)
            let count = min(max(0, request.count ?? ControlSparkLimits.maxPieceBytes), ControlSparkLimits.maxPieceBytes)
            let path = try request.need(request.path, "path")
            // Later pieces come from the copy read for the first, not from the disk again.
            let held = offset == 0 ? nil : sparkState.withLock { $0.reading.flatMap { $0.path == path ? $0.bytes : nil } }
            let read: [UInt8]?
            if let held { read = held } else { read = try await subject.readFile(at: path) }
            if let file = read {
                let start = min(offset, file.count)
                let end = min(file.count, start + count)
                response.data = Data(file[start..<end]).base64EncodedString()
                response.size = file.count
                sparkState.withLock { $0.reading = end < file.count ? (path, file) : nil }
            }
        default:
            throw TransmitterError.controlChannel("\(request.command.rawValue) is not a Spark command")
        }
        return response
    }

    /// Ends the Spark subject, as the server does when it closes.
    func closeSpark() async {
        await sparkState.withLock { $0.retire() }?.close()
    }
}
