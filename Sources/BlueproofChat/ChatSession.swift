import BlueproofTransmitter
import Foundation

/// The chat app of bridgefy-chat-app-tutorial.md over any transmitter: a list of peers
/// online/offline with their names, direct messages sent Encrypted + Full, broadcasts sent
/// Full + Broadcast, and every connection made secure.
public actor ChatSession {
    /// What the chat shows, in order.
    public enum Update: Sendable, Equatable {
        case online(ChatPeer)
        case offline(ChatPeer)
        case renamed(ChatPeer)
        case message(from: ChatPeer, text: String, broadcast: Bool)
        case delivery(PacketID, String)
    }

    public let name: String
    public let deviceType: String
    private let transmitter: any TransmitterControl
    private var peers: [UserID: ChatPeer] = [:]
    private let updates: AsyncStream<Update>.Continuation
    /// Everything the chat shows, in order.
    public nonisolated let stream: AsyncStream<Update>

    /// The options of a direct message and of a broadcast (the tutorial's; profile
    /// `bridgefy.chat.direct_options` and `broadcast_options`).
    public static let directOptions: SendingOptions = [.encrypted, .fullTransmission]
    public static let broadcastOptions: SendingOptions = [.fullTransmission, .broadcastReceiver]

    /// Deliberate faults (broken variants of the CHAT cases); empty for the tutorial's app.
    public let defects: ChatDefects

    public init(transmitter: any TransmitterControl, name: String, deviceType: String = "terminal", defects: ChatDefects = []) {
        self.transmitter = transmitter
        self.name = name
        self.deviceType = deviceType
        self.defects = defects
        (stream, updates) = AsyncStream.makeStream()
    }

    /// Follows the transmitter's events until they end. The transmitter must ask for a secure
    /// connection on every new connection (`shouldConnectSecurely` true, as the tutorial does).
    public func run() async {
        await run(events: await transmitter.events())
    }

    /// Follows `events`, a stream the caller took from the transmitter already (so no event
    /// between subscribing and running is missed), until it ends.
    public func run(events: AsyncStream<TransmitterEvent>) async {
        for await event in events {
            await handle(event)
        }
        updates.finish()
    }

    /// The peers met so far, online first, then by name.
    public func roster() -> [ChatPeer] {
        peers.values.sorted { ($0.online ? 0 : 1, $0.name) < ($1.online ? 0 : 1, $1.name) }
    }

    /// The peer whose name or id starts with `prefix`, if exactly one does.
    public func peer(matching prefix: String) -> ChatPeer? {
        let matches = peers.values.filter { $0.name.hasPrefix(prefix) || $0.user.description.hasPrefix(prefix.lowercased()) }
        return matches.count == 1 ? matches.first : nil
    }

    public func sendDirect(_ text: String, to user: UserID) async throws(TransmitterError) -> PacketID {
        try await transmitter.send(dictionary: ChatMessage.text(text, sender: nil).dictionary, data: nil, to: user, options: Self.directOptions)
    }

    public func broadcast(_ text: String) async throws(TransmitterError) -> PacketID {
        let sender = defects.contains(.broadcastWithoutSender) ? nil : (name: name, deviceType: deviceType)
        return try await transmitter.send(dictionary: ChatMessage.text(text, sender: sender).dictionary, data: nil,
                                   to: nil, options: Self.broadcastOptions)
    }

    private func handle(_ event: TransmitterEvent) async {
        switch event {
        case .connected(let user):
            set(user, online: true)
        case .secureConnection(let user):
            set(user, online: true)
            // The tutorial sends its name and device type once the connection is secure.
            guard !defects.contains(.identityNotSent) else { break }
            _ = try? await transmitter.send(dictionary: ChatMessage.identity(name: name, deviceType: deviceType).dictionary,
                                            data: nil, to: user, options: Self.directOptions)
        case .disconnected(let user) where !defects.contains(.disconnectionIgnored):
            set(user, online: false)
        case .received(let packet):
            // The tutorial's check: a peer's name-and-device-type dictionary or a chat message.
            switch ChatMessage(packet.dictionary) {
            case .identity(let name, let deviceType)? where defects.contains(.peerInfoShownAsMessage):
                let peer = peers[packet.sender] ?? newPeer(packet.sender, online: false)
                updates.yield(.message(from: peer, text: "\(name) \(deviceType)", broadcast: packet.broadcast))
            case .identity(let name, let deviceType)?:
                rename(packet.sender, name: name, deviceType: deviceType)
            case .text(_, let sender?)? where defects.contains(.messageTakenAsPeerInfo):
                rename(packet.sender, name: sender.name, deviceType: sender.deviceType)
            case .text(let text, let sender)?:
                if let sender, peers[packet.sender]?.name != sender.name { rename(packet.sender, name: sender.name, deviceType: sender.deviceType) }
                let peer = peers[packet.sender] ?? newPeer(packet.sender, online: false)
                peers[packet.sender] = peer
                updates.yield(.message(from: peer, text: text, broadcast: packet.broadcast))
            case nil:
                break
            }
        case .sentDirect(let id): updates.yield(.delivery(id, "sent direct"))
        case .addedToMesh(let id): updates.yield(.delivery(id, "added to the mesh"))
        case .fellBackToMesh(let id): updates.yield(.delivery(id, "receiver away: sent through the mesh"))
        case .failed(let id, let error): updates.yield(.delivery(id, "failed: \(error)"))
        default:
            break
        }
    }

    /// A peer met for the first time: named by the first characters of its id, device unknown.
    private func newPeer(_ user: UserID, online: Bool) -> ChatPeer {
        let length = ChatPeer.defaultNameLength + (defects.contains(.nameLengthWrong) ? 1 : 0)
        return ChatPeer(user: user, name: ChatPeer.defaultName(of: user, length: length), online: online)
    }

    private func set(_ user: UserID, online: Bool) {
        var peer = peers[user] ?? newPeer(user, online: online)
        let changed = peers[user] == nil || peer.online != online
        peer.online = online
        peers[user] = peer
        if changed { updates.yield(online ? .online(peer) : .offline(peer)) }
    }

    private func rename(_ user: UserID, name: String, deviceType: String) {
        var peer = peers[user] ?? newPeer(user, online: false)
        peer.name = name
        peer.deviceType = deviceType
        peers[user] = peer
        updates.yield(.renamed(peer))
    }
}
