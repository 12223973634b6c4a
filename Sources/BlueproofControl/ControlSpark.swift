import BlueproofSpark
import Foundation

/// A data connection on the control protocol: `{"peer", "number", "outgoing"}`
/// (docs/control-protocol.md, "Spark data connections").
struct ControlSparkConnection: Codable, Sendable, Equatable {
    var peer: UInt64
    var number: UInt32
    var outgoing: Bool

    init(_ id: SparkConnectionID) {
        peer = id.peer
        number = id.number
        outgoing = id.outgoing
    }

    var id: SparkConnectionID { SparkConnectionID(peer: peer, number: number, outgoing: outgoing) }
}

/// A named value with its fields: a Spark refusal (`SparkError`), a transfer's failure
/// (`SparkTransferError`) or why a frame was ignored (`SparkIgnored`), each case by its name.
struct ControlSparkFields: Codable, Sendable, Equatable {
    var name: String
    var peer: UInt64?
    var bytes: Int?
    var limit: Int?
    var connection: ControlSparkConnection?
    var state: String?
    var channel: UInt32?
    var transfer: UInt32?
    var number: UInt32?
    var kind: UInt8?
    /// An end reason (`SparkEndReason`) or a remote failure (`SparkTransferFailure`), by name.
    var reason: String?
    var declared: UInt64?
    var received: UInt64?
    var path: String?
    var detail: String?

    init(_ name: String) { self.name = name }
}

/// Names of the wire enums both sides share, and their reading back.
enum ControlSparkNames {
    /// The refusal of `sparkStart` by an implementation without Spark data connections.
    static let unsupported = "sparkUnsupported"

    static func name<T>(_ value: T) -> String { "\(value)" }

    static func value<T: CaseIterable>(_ name: String?, of type: T.Type, field: String) throws(ControlSparkDecoding) -> T {
        guard let name, let value = T.allCases.first(where: { "\($0)" == name }) else {
            throw ControlSparkDecoding("\(field) must name a \(T.self) (\(T.allCases.map { "\($0)" }.joined(separator: ", "))), got \(name ?? "nothing")")
        }
        return value
    }
}

/// A Spark line the runner cannot read: the channel is no longer trusted.
struct ControlSparkDecoding: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

// MARK: SparkError

extension ControlSparkFields {
    init(_ error: SparkError) {
        switch error {
        case .keyError(let peer): self.init("keyError"); self.peer = peer
        case .metadataTooLarge(let bytes, let limit): self.init("metadataTooLarge"); self.bytes = bytes; self.limit = limit
        case .tooManyConnections(let limit): self.init("tooManyConnections"); self.limit = limit
        case .unknownConnection(let id): self.init("unknownConnection"); connection = ControlSparkConnection(id)
        case .wrongState(let id, let state):
            self.init("wrongState"); connection = ControlSparkConnection(id); self.state = ControlSparkNames.name(state)
        case .channelLimit(let limit): self.init("channelLimit"); self.limit = limit
        case .unknownChannel(let channel): self.init("unknownChannel"); self.channel = channel
        case .queueFull(let bytes, let limit): self.init("queueFull"); self.bytes = bytes; self.limit = limit
        case .invalid(let reason):
            self.init("invalid")
            if case .invalidField(let what) = reason { detail = what } else { detail = "\(reason)" }
        case .file(let failure): self.init("file"); path = failure.path; detail = failure.reason
        }
    }

    /// The refusal these fields name. `invalid` comes back as `invalidField` with the detail.
    func sparkError() throws(ControlSparkDecoding) -> SparkError {
        func need<T>(_ value: T?, _ field: String) throws(ControlSparkDecoding) -> T {
            guard let value else { throw ControlSparkDecoding("the \(name) refusal needs \(field)") }
            return value
        }
        switch name {
        case "keyError": return .keyError(peer: try need(peer, "peer"))
        case "metadataTooLarge": return .metadataTooLarge(bytes: try need(bytes, "bytes"), limit: try need(limit, "limit"))
        case "tooManyConnections": return .tooManyConnections(limit: try need(limit, "limit"))
        case "unknownConnection": return .unknownConnection(try need(connection, "connection").id)
        case "wrongState":
            return .wrongState(try need(connection, "connection").id, try ControlSparkNames.value(state, of: SparkConnectionState.self, field: "state"))
        case "channelLimit": return .channelLimit(limit: try need(limit, "limit"))
        case "unknownChannel": return .unknownChannel(try need(channel, "channel"))
        case "queueFull": return .queueFull(bytes: try need(bytes, "bytes"), limit: try need(limit, "limit"))
        case "invalid": return .invalid(.invalidField(detail ?? ""))
        case "file": return .file(SparkFileFailure(path: path ?? "", reason: detail ?? ""))
        default: throw ControlSparkDecoding("\(name) is not a Spark refusal")
        }
    }
}

// MARK: SparkTransferError

extension ControlSparkFields {
    init(_ error: SparkTransferError) {
        switch error {
        case .sourceUnavailable(let what): self.init("sourceUnavailable"); detail = what
        case .channelClosed(let channel): self.init("channelClosed"); self.channel = channel
        case .connectionEnded(let reason): self.init("connectionEnded"); self.reason = ControlSparkNames.name(reason)
        case .remote(let failure): self.init("remote"); reason = ControlSparkNames.name(failure)
        case .sizeMismatch(let declared, let received): self.init("sizeMismatch"); self.declared = declared; self.received = received
        case .digestMismatch: self.init("digestMismatch")
        case .storage(let failure): self.init("storage"); path = failure.path; detail = failure.reason
        case .refused(let what): self.init("refused"); detail = what
        }
    }

    func transferError() throws(ControlSparkDecoding) -> SparkTransferError {
        switch name {
        case "sourceUnavailable": return .sourceUnavailable(detail ?? "")
        case "channelClosed":
            guard let channel else { throw ControlSparkDecoding("channelClosed needs channel") }
            return .channelClosed(channel)
        case "connectionEnded": return .connectionEnded(try ControlSparkNames.value(reason, of: SparkEndReason.self, field: "reason"))
        case "remote": return .remote(try ControlSparkNames.value(reason, of: SparkTransferFailure.self, field: "reason"))
        case "sizeMismatch":
            guard let declared, let received else { throw ControlSparkDecoding("sizeMismatch needs declared and received") }
            return .sizeMismatch(declared: declared, received: received)
        case "digestMismatch": return .digestMismatch
        case "storage": return .storage(SparkFileFailure(path: path ?? "", reason: detail ?? ""))
        case "refused": return .refused(detail ?? "")
        default: throw ControlSparkDecoding("\(name) is not a transfer failure")
        }
    }
}

// MARK: SparkIgnored

extension ControlSparkFields {
    init(_ ignored: SparkIgnored) {
        switch ignored {
        case .noReceiveCallback(let id): self.init("noReceiveCallback"); connection = ControlSparkConnection(id)
        case .unknownConnection(let number, let kind): self.init("unknownConnection"); self.number = number; self.kind = kind
        case .unknownChannel(let id, let channel, let kind): self.init("unknownChannel"); connection = ControlSparkConnection(id); self.channel = channel; self.kind = kind
        case .unknownTransfer(let id, let transfer, let failure):
            self.init("unknownTransfer"); connection = ControlSparkConnection(id); self.transfer = transfer
            reason = failure.map { ControlSparkNames.name($0) }
        case .malformed(let error): self.init("malformed"); detail = error.description
        case .unexpected(let id, let kind): self.init("unexpected"); connection = ControlSparkConnection(id); self.kind = kind
        }
    }

    /// Why a frame was ignored. `malformed` comes back with its text as an `invalidField`.
    func ignored() throws(ControlSparkDecoding) -> SparkIgnored {
        func id() throws(ControlSparkDecoding) -> SparkConnectionID {
            guard let connection else { throw ControlSparkDecoding("ignored \(name) needs connection") }
            return connection.id
        }
        switch name {
        case "noReceiveCallback": return .noReceiveCallback(try id())
        case "unknownConnection":
            guard let number else { throw ControlSparkDecoding("ignored unknownConnection needs number") }
            return .unknownConnection(number: number, kind: kind)
        case "unknownChannel":
            guard let channel else { throw ControlSparkDecoding("ignored unknownChannel needs channel") }
            return .unknownChannel(try id(), channel, kind: kind)
        case "unknownTransfer":
            guard let transfer else { throw ControlSparkDecoding("ignored unknownTransfer needs transfer") }
            let failure = try reason.map { (reason) throws(ControlSparkDecoding) in try ControlSparkNames.value(reason, of: SparkTransferFailure.self, field: "reason") }
            return .unknownTransfer(try id(), transfer, failure: failure)
        case "malformed": return .malformed(SparkWireError(offset: 0, reason: .invalidField(detail ?? "")))
        case "unexpected":
            guard let kind else { throw ControlSparkDecoding("ignored unexpected needs kind") }
            return .unexpected(try id(), kind: kind)
        default: throw ControlSparkDecoding("\(name) is not a reason to ignore a frame")
        }
    }
}
