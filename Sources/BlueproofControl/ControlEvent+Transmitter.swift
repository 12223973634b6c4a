import BlueproofTransmitter
import Foundation

extension ControlEvent {
    /// The line for a transmitter event.
    init(_ event: TransmitterEvent) {
        switch event {
        case .started(let mode): self.init(event: "started"); self.mode = mode.rawValue
        case .alreadyStarted: self.init(event: "alreadyStarted")
        case .startFailed(let error): self.init(event: "startFailed"); self.error = ControlError(error)
        case .bluetoothUnavailable: self.init(event: "bluetoothUnavailable")
        case .licenceNeedsNetwork: self.init(event: "licenceNeedsNetwork")
        case .stopped: self.init(event: "stopped")
        case .nearbyUser(let user): self.init(event: "nearbyUser"); self.user = user.description
        case .connected(let user): self.init(event: "connected"); self.user = user.description
        case .disconnected(let user): self.init(event: "disconnected"); self.user = user.description
        case .secureConnection(let user): self.init(event: "secureConnection"); self.user = user.description
        case .keyConflict(let user): self.init(event: "keyConflict"); self.user = user.description
        case .sentDirect(let id): self.init(event: "sentDirect"); packetID = id.uuidString
        case .addedToMesh(let id): self.init(event: "addedToMesh"); packetID = id.uuidString
        case .fellBackToMesh(let id): self.init(event: "fellBackToMesh"); packetID = id.uuidString
        case .failed(let id, let error):
            self.init(event: "failed"); packetID = id.uuidString; self.error = ControlError(error)
        case .discarded(let id, let reason): self.init(event: "discarded"); packetID = id.uuidString; self.reason = reason
        case .rejectedBySize(let id, let size, let limit):
            self.init(event: "rejectedBySize"); packetID = id.uuidString; self.size = size; self.limit = limit
        case .log(let level, let line):
            self.init(event: "log"); self.level = level.name; self.line = line
        case .received(let packet):
            self.init(event: "received")
            packetID = packet.packetID.uuidString
            sender = packet.sender.description
            dictionary = ControlJSON.wrap(packet.dictionary)
            data = packet.data?.base64EncodedString()
            broadcast = packet.broadcast
            mesh = packet.mesh
            encrypted = packet.encrypted
        }
    }

    /// The transmitter event this line stands for; nil for `hello` and for names this version
    /// does not know (a newer implementation may send more). An `error` event (the server
    /// could not write an event) is thrown: the client cannot trust what it saw after it.
    func transmitterEvent() throws(TransmitterError) -> TransmitterEvent? {
        func user() throws(TransmitterError) -> UserID { try ControlCoding.userID(self.user, field: "user") }
        func packet() throws(TransmitterError) -> PacketID {
            guard let text = packetID, let id = UUID(uuidString: text) else {
                throw .controlChannel("\(event): packetID must be a UUID")
            }
            return id
        }
        func failure() -> TransmitterError { error?.transmitterError ?? .controlChannel("\(event) without an error") }
        switch event {
        case "started":
            guard let mode = mode.flatMap(ConnectionMode.init(rawValue:)) else { throw .controlChannel("started: bad mode") }
            return .started(mode)
        case "alreadyStarted": return .alreadyStarted
        case "startFailed": return .startFailed(failure())
        case "bluetoothUnavailable": return .bluetoothUnavailable
        case "licenceNeedsNetwork": return .licenceNeedsNetwork
        case "stopped": return .stopped
        case "nearbyUser": return .nearbyUser(try user())
        case "connected": return .connected(try user())
        case "disconnected": return .disconnected(try user())
        case "secureConnection": return .secureConnection(try user())
        case "keyConflict": return .keyConflict(try user())
        case "sentDirect": return .sentDirect(try packet())
        case "addedToMesh": return .addedToMesh(try packet())
        case "fellBackToMesh": return .fellBackToMesh(try packet())
        case "failed": return .failed(try packet(), failure())
        case "discarded": return .discarded(try packet(), reason: reason ?? "")
        case "rejectedBySize": return .rejectedBySize(try packet(), size: size ?? 0, limit: limit ?? 0)
        case "received":
            return .received(ReceivedPacket(
                packetID: try packet(), sender: try ControlCoding.userID(sender, field: "sender"),
                dictionary: ControlJSON.unwrap(dictionary), data: try ControlCoding.binary(data),
                broadcast: broadcast ?? false, mesh: mesh ?? false, encrypted: encrypted ?? false))
        case "log":
            guard let level = TransmitterLogLevel.named(level), let line else { throw .controlChannel("log: needs a level name and a line") }
            return .log(level, line)
        case "error": throw failure()
        default: return nil
        }
    }
}
