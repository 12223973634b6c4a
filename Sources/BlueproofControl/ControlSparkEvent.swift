import BlueproofSpark
import Foundation

/// One Spark event line, server to client: a `SparkEvent` case named with the prefix `spark`
/// and its fields (docs/control-protocol.md, "Spark data connections"). A transfer's failure is
/// `failure` (not `error`, which transmitter events hold in another shape).
struct ControlSparkEvent: Codable, Sendable, Equatable {
    var event: String
    var connection: ControlSparkConnection?
    var metadata: String?
    /// `sparkEnded`: the `SparkEndReason` by name.
    var reason: String?
    /// `local` or `remote`.
    var by: String?
    var channel: UInt32?
    var description: String?
    var send: UInt64?
    var fraction: Double?
    var done: Bool?
    var failure: ControlSparkFields?
    /// `sparkDataAvailable`: `stream` or `data`, the channel or transfer id, the bytes (base64).
    var kind: String?
    var id: UInt32?
    var data: String?
    var progress: Double?
    var transferComplete: Bool?
    /// `sparkFileAvailable`: the transfer, the file's name and, once complete, its path.
    var transfer: UInt32?
    var name: String?
    var path: String?
    /// `sparkIgnored`: the peer whose frame it was, and why.
    var peer: UInt64?
    var ignored: ControlSparkFields?

    init(event: String) { self.event = event }

    init(_ event: SparkEvent) {
        switch event {
        case let .offering(id, metadata): self.init(event: "sparkOffering", id); self.metadata = metadata
        case let .offered(id, metadata): self.init(event: "sparkOffered", id); self.metadata = metadata
        case let .available(id): self.init(event: "sparkAvailable", id)
        case let .accepted(id): self.init(event: "sparkAccepted", id)
        case let .ended(id, reason, side):
            self.init(event: "sparkEnded", id); self.reason = ControlSparkNames.name(reason); by = ControlSparkNames.name(side)
        case let .channelOpened(id, channel, description, side):
            self.init(event: "sparkChannelOpened", id)
            self.channel = channel; self.description = description; by = ControlSparkNames.name(side)
        case let .channelClosed(id, channel, side):
            self.init(event: "sparkChannelClosed", id); self.channel = channel; by = ControlSparkNames.name(side)
        case let .sendProgress(id, send, progress):
            self.init(event: "sparkSendProgress", id)
            self.send = send; fraction = progress.fraction; done = progress.done; failure = progress.error.map(ControlSparkFields.init)
        case let .dataAvailable(id, block):
            self.init(event: "sparkDataAvailable", id)
            kind = ControlSparkNames.name(block.kind); self.id = block.id; description = block.description
            data = Data(block.data).base64EncodedString(); progress = block.progress; transferComplete = block.transferComplete
            failure = block.error.map(ControlSparkFields.init)
        case let .fileAvailable(id, file):
            self.init(event: "sparkFileAvailable", id)
            transfer = file.transfer; name = file.name; progress = file.progress; transferComplete = file.transferComplete
            path = file.path; failure = file.error.map(ControlSparkFields.init)
        case let .ignored(peer, why):
            self.init(event: "sparkIgnored"); self.peer = peer; ignored = ControlSparkFields(why)
        }
    }

    private init(event: String, _ id: SparkConnectionID) {
        self.init(event: event)
        connection = ControlSparkConnection(id)
    }

    /// The event this line stands for; a `spark…` name this version does not know is refused.
    func sparkEvent() throws(ControlSparkDecoding) -> SparkEvent {
        func id() throws(ControlSparkDecoding) -> SparkConnectionID {
            guard let connection else { throw ControlSparkDecoding("\(event) needs connection") }
            return connection.id
        }
        func need<T>(_ value: T?, _ field: String) throws(ControlSparkDecoding) -> T {
            guard let value else { throw ControlSparkDecoding("\(event) needs \(field)") }
            return value
        }
        func side() throws(ControlSparkDecoding) -> SparkSide { try ControlSparkNames.value(by, of: SparkSide.self, field: "by") }
        let error = try failure.map { fields throws(ControlSparkDecoding) in try fields.transferError() }
        switch event {
        case "sparkOffering": return .offering(try id(), metadata: try need(metadata, "metadata"))
        case "sparkOffered": return .offered(try id(), metadata: try need(metadata, "metadata"))
        case "sparkAvailable": return .available(try id())
        case "sparkAccepted": return .accepted(try id())
        case "sparkEnded": return .ended(try id(), try ControlSparkNames.value(reason, of: SparkEndReason.self, field: "reason"), by: try side())
        case "sparkChannelOpened":
            return .channelOpened(try id(), channel: try need(channel, "channel"), description: try need(description, "description"), by: try side())
        case "sparkChannelClosed": return .channelClosed(try id(), channel: try need(channel, "channel"), by: try side())
        case "sparkSendProgress":
            return .sendProgress(try id(), send: try need(send, "send"), SparkProgress(fraction: fraction, done: try need(done, "done"), error: error))
        case "sparkDataAvailable":
            guard let bytes = Data(base64Encoded: try need(data, "data")) else { throw ControlSparkDecoding("sparkDataAvailable: data is not base64") }
            return .dataAvailable(try id(), SparkChannelData(
                kind: try ControlSparkNames.value(kind, of: SparkChannelData.Kind.self, field: "kind"), id: try need(self.id, "id"),
                description: try need(description, "description"), data: Array(bytes), progress: progress,
                transferComplete: try need(transferComplete, "transferComplete"), error: error))
        case "sparkFileAvailable":
            return .fileAvailable(try id(), SparkFileData(
                transfer: try need(transfer, "transfer"), name: try need(name, "name"), progress: try need(progress, "progress"),
                transferComplete: try need(transferComplete, "transferComplete"), path: path, error: error))
        case "sparkIgnored": return .ignored(peer: try need(peer, "peer"), try need(ignored, "ignored").ignored())
        // Version 5 names every event; an unknown one could be a misnamed report the cases would miss.
        default: throw ControlSparkDecoding("\(event) is not a Spark event of control protocol \(controlProtocolSpark)")
        }
    }
}
