import BlueproofAsync
import BlueproofChat
import BlueproofTransmitter
import Synchronization

/// Behaviours of the chat app of bridgefy-chat-app-tutorial.md ("Creating an offline messaging
/// app with the Bridgefy SDK"), judged on the app (`ChatSession`) running over the subject: it
/// tells a peer's name-and-device-type dictionary from a chat message, and names a peer it has
/// just met after the first characters of its id. The tester is a bare transmitter sending the
/// app's dictionaries.
enum ChatCases {
    static func all() -> [ScriptCase] {
        [
            ScriptCase("CHAT/APP/BV-07", nodes: 2, brokenBy: [.chatPeerInfoShownAsMessage]) { stage in
                try await peerInfoOrMessage(stage)
            },
            ScriptCase("CHAT/APP/BV-08", nodes: 2, brokenBy: [.chatNameLengthWrong]) { stage in
                let length = try stage.context.profile.int("bridgefy.chat.name_prefix_chars")
                let (chat, watcher) = await ChatUnderTest.start(on: stage)
                defer { watcher.cancel() }
                let (_, tester) = try await stage.connectedPair()
                guard let update = await chat.updates(within: stage.airTimeout, until: { if case .online(let peer) = $0 { peer.user == tester } else { false } }).match,
                      case .online(let peer) = update else {
                    throw StageFailure(.connection, "the chat never showed the tester \(tester.shortName) online")
                }
                let expected = String(tester.description.prefix(length))
                guard peer.name.lowercased() == expected.lowercased() else {
                    return .fail("a peer met for the first time is named \"\(peer.name)\", not the first \(length) characters of its id (\"\(expected)\")")
                }
                return .pass("the new peer is named \"\(peer.name)\": the first \(length) characters of its id \(tester)")
            },
        ]
    }

    /// CHAT/APP/BV-07: the tester sends the app its name and device type, then a direct chat
    /// message, then a broadcast chat message that carries its name and device type too (the
    /// tutorial's broadcast). The app must rename the peer without showing the first as a
    /// message, and show both messages as messages. Each is reported by the subject before the
    /// next is sent, so once the broadcast is shown every earlier dictionary has been judged.
    static func peerInfoOrMessage(_ stage: TransmitterStage) async throws -> CaseOutcome {
        let (chat, watcher) = await ChatUnderTest.start(on: stage)
        defer { watcher.cancel() }
        let (subject, _) = try await stage.connectedPair()
        // The subject reports each direct packet before the next is sent, so the app gets the
        // three in the order sent even from an implementation that handles frames concurrently.
        let info = ChatMessage.identity(name: "blueproof-tester", deviceType: "probe")
        for dictionary in [info.dictionary, ChatMessage.text("direct hello", sender: nil).dictionary] {
            try await stage.sendReported(from: 1, dictionary, to: subject, options: .directTransmission, reportedBy: 0,
                                         within: stage.preconditionTimeout, precondition: .connection, unproven: "its app never had it to judge")
        }
        let broadcast = ChatMessage.text("broadcast hello", sender: (name: "blueproof-tester", deviceType: "probe"))
        _ = try await stage.send(from: 1, dictionary: broadcast.dictionary, to: nil, options: .broadcastReceiver)
        let (seen, last) = await chat.updates(within: stage.airTimeout) { update in
            if case .message(_, "broadcast hello", true) = update { true } else { false }
        }
        let messages: [String] = seen.compactMap { if case .message(_, let text, _) = $0 { text } else { nil } }
        guard last != nil else {
            return .fail("the broadcast chat message (with the sender's name and type) was never shown as a message; shown: \(messages)")
        }
        guard messages == ["direct hello", "broadcast hello"] else {
            return .fail("the app showed \(messages) as messages; expected only the two chat messages, not the peer's name-and-type dictionary")
        }
        guard seen.contains(where: { if case .renamed(let peer) = $0 { peer.name == "blueproof-tester" && peer.deviceType == "probe" } else { false } }) else {
            return .fail("the peer's name-and-type dictionary did not rename the peer")
        }
        return .pass("the name-and-type dictionary renamed the peer and was not shown; both chat messages were shown as messages")
    }
}

/// The chat app over the subject, with the variant's chat defects, and its updates as read.
final class ChatUnderTest: Sendable {
    let chat: ChatSession
    private let seen = Mutex<[ChatSession.Update]>([])

    private init(chat: ChatSession) { self.chat = chat }

    /// Starts the app on node `node` (0: the subject's, with the variant's chat defects) before
    /// the node starts, so it sees every event.
    static func start(on stage: TransmitterStage, node: Int = 0, name: String = "blueproof-subject") async -> (ChatUnderTest, Task<Void, Never>) {
        let defects = (stage.nodes[node] as? DefectiveTransmitter)?.defects.chat ?? []
        let under = ChatUnderTest(chat: ChatSession(transmitter: stage.nodes[node], name: name, defects: defects))
        let events = await stage.nodes[node].events()
        let running = Task { await under.chat.run(events: events) }
        return (under, running)
    }

    /// Reads the app's updates until one `matches` or `timeout` passes; returns every update
    /// read and the match. Called once per case (the updates are one stream).
    func updates(within timeout: Duration, until matches: @escaping @Sendable (ChatSession.Update) -> Bool)
        async -> (seen: [ChatSession.Update], match: ChatSession.Update?) {
        let stream = chat.stream
        let match = try? await withTimeout(timeout, what: "a matching chat update") { () -> ChatSession.Update? in
            for await update in stream {
                self.seen.withLock { $0.append(update) }
                if matches(update) { return update }
            }
            return nil
        }
        return (seen.withLock { $0 }, match ?? nil)
    }
}
