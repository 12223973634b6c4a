import BlueproofChat
import BlueproofTransmitter

/// What the chat app of bridgefy-chat-app-tutorial.md ("Creating an offline messaging app with
/// the Bridgefy SDK") relies on, judged over two chat sessions: the app on the subject (with
/// the variant's chat defects) and the same app on the tester. Names and device types on a
/// secure connection and in broadcasts, peers going offline, direct messages crossing the mesh,
/// broadcast and direct told apart.
enum ChatAppCases {
    static let testerName = "blueproof-tester"

    static func all() -> [any TransmitterCase] {
        [
            ScriptCase("CHAT/APP/BV-01", nodes: 2, brokenBy: [.chatIdentityNotSent]) { stage in
                let (_, tester, running) = await twoChats(stage)
                defer { running.forEach { $0.cancel() } }
                let subject = try await securedPair(stage)
                let renamed = await tester.updates(within: stage.airTimeout) { update in
                    if case .renamed(let peer) = update { peer.user == subject } else { false }
                }.match
                guard case .renamed(let peer)? = renamed else {
                    return .fail("on the secure connection the subject's app never sent its name and device type: the tester still shows it by its id")
                }
                guard peer.name == "blueproof-subject", peer.deviceType == "terminal" else {
                    return .fail("the tester's app renamed the subject \"\(peer.name)\" (\(peer.deviceType)), not \"blueproof-subject\" (terminal)")
                }
                return .pass("on the secure connection the subject's name and device type arrived: shown as \"\(peer.name)\" (\(peer.deviceType))")
            },
            ScriptCase("CHAT/APP/BV-02", nodes: 2, brokenBy: [.chatBroadcastWithoutSender]) { stage in
                let (chat, tester, running) = await twoChats(stage)
                defer { running.forEach { $0.cancel() } }
                let (subject, _) = try await stage.connectedPair()
                // No secure connection: the tester never got the subject's name any other way.
                do { _ = try await chat.chat.broadcast("hello everyone") } catch { return .fail("the app's broadcast was refused: \(error)") }
                let shown = await tester.updates(within: stage.airTimeout) { update in
                    if case .message(_, "hello everyone", true) = update { true } else { false }
                }.match
                guard case .message(let peer, _, _)? = shown else { return .fail("the subject's broadcast was never shown by the tester's app") }
                guard peer.user == subject, peer.name == "blueproof-subject" else {
                    return .fail("a stranger shows the subject's broadcast from \"\(peer.name)\", not its name \"blueproof-subject\"")
                }
                return .pass("a stranger showed the subject's broadcast from \"\(peer.name)\" (\(peer.deviceType)), named by the broadcast itself")
            },
            ScriptCase("CHAT/APP/BV-03", nodes: 2, brokenBy: [.chatDisconnectionIgnored]) { stage in
                let (chat, running) = await ChatUnderTest.start(on: stage)
                defer { running.cancel() }
                let (_, tester) = try await stage.connectedPair()
                await stage.nodes[1].stop()
                let (seen, offline) = await chat.updates(within: stage.airTimeout) { update in
                    if case .offline(let peer) = update { peer.user == tester } else { false }
                }
                guard offline != nil else { return .fail("the tester left, but the app never moved it out of range") }
                let onlineShown = seen.filter { if case .online(let peer) = $0 { peer.user == tester } else { false } }.count
                guard onlineShown == 1 else { return .fail("the app showed the tester in range \(onlineShown) times before it left") }
                guard let peer = await chat.chat.roster().first(where: { $0.user == tester }), !peer.online else {
                    return .fail("the app reported the tester out of range but still lists it in range")
                }
                return .pass("the tester left: shown in range once, then out of range once, and listed out of range")
            },
            MeshLineCase(id: "CHAT/APP/BV-04", role: .sender, brokenBy: [.fullNeverFallsBack], script: directOverMesh),
            ScriptCase("CHAT/APP/BV-05", nodes: 2, brokenBy: [.broadcastFlagDropped]) { stage in
                let (chat, tester, running) = await twoChats(stage)
                defer { running.forEach { $0.cancel() } }
                let subject = try await securedPair(stage)
                // The direct one is on the link before the broadcast is made: they arrive in order.
                let direct: PacketID
                do { direct = try await tester.chat.sendDirect("just for you", to: subject) } catch {
                    throw StageFailure(.tester, "the tester's app could not send a direct message: \(error)")
                }
                _ = try await stage.wait(1, for: "the tester's direct message sent") { $0 == .sentDirect(direct) }
                do { _ = try await tester.chat.broadcast("for everyone") } catch {
                    throw StageFailure(.tester, "the tester's app could not broadcast: \(error)")
                }
                let seen = await chat.updates(within: stage.airTimeout) { update in
                    if case .message(_, "for everyone", _) = update { true } else { false }
                }.seen
                let flags = seen.reduce(into: [String: Bool]()) { flags, update in
                    if case .message(_, let text, let broadcast) = update { flags[text] = broadcast }
                }
                guard flags["just for you"] == false, flags["for everyone"] == true else {
                    return .fail("the app showed the direct message with broadcast \(flags["just for you"].map { "\($0)" } ?? "never shown") and the broadcast with broadcast \(flags["for everyone"].map { "\($0)" } ?? "never shown")")
                }
                return .pass("the direct message came with broadcast false, the broadcast with broadcast true")
            },
        ]
    }

    /// The app on the subject and on the tester at node `node`, each following its node's events.
    static func twoChats(_ stage: TransmitterStage, tester node: Int = 1) async -> (subject: ChatUnderTest, tester: ChatUnderTest, running: [Task<Void, Never>]) {
        let (subject, subjectRunning) = await ChatUnderTest.start(on: stage)
        let (tester, testerRunning) = await ChatUnderTest.start(on: stage, node: node, name: testerName)
        return (subject, tester, [subjectRunning, testerRunning])
    }

    /// A connected pair whose tester makes a secure connection (the tutorial secures every
    /// connection: both apps then send their names); returns the subject's id.
    static func securedPair(_ stage: TransmitterStage) async throws -> UserID {
        let (subject, _) = try await stage.connectedPair()
        try await stage.secure(1, with: subject)
        return subject
    }

    /// CHAT/APP/BV-04, on three nodes in a line (MeshLineCase): the subject's app sends a direct
    /// message (Encrypted + Full) to the far end, out of its range, whose key it imported
    /// ("Export and import keys"); the message must cross the relay and be shown by the far
    /// end's app, encrypted and through the mesh.
    @Sendable static func directOverMesh(_ stage: TransmitterStage, sender: Int, relay: Int, receiver: Int, users: [UserID]) async throws -> CaseOutcome {
        let (chat, far, running) = await twoChats(stage, tester: receiver)
        defer { running.forEach { $0.cancel() } }
        let key: String
        do { key = try await stage.nodes[receiver].localPublicKey() } catch { throw StageFailure(.tester, "the far end has no key to export: \(error)") }
        do { try await stage.subject.savePublicKey(key, forUser: users[receiver]) } catch {
            return .fail("the subject refused the far end's exported key: \(error)")
        }
        let id: PacketID
        do { id = try await chat.chat.sendDirect("across the mesh", to: users[receiver]) } catch {
            return .fail("the app's direct message (Encrypted + Full) to a peer out of range was refused: \(error)")
        }
        guard await far.updates(within: stage.airTimeout, until: { update in
            if case .message(_, "across the mesh", false) = update { true } else { false }
        }).match != nil else {
            return .fail("the direct message \(id) to a peer out of range never reached its app")
        }
        // The app and the event log read the events apart: the log may record the packet a moment later.
        let packet = await stage.logs[receiver].received(id, within: stage.airTimeout)
        guard let packet, packet.mesh, packet.encrypted else {
            return .fail("the direct message \(id) was shown, but arrived with mesh \(packet.map { "\($0.mesh)" } ?? "?"), encrypted \(packet.map { "\($0.encrypted)" } ?? "?")")
        }
        return .pass("the direct message \(id) to a peer out of range crossed the relay encrypted and was shown by its app")
    }
}
