import ArgumentParser
import BlueproofChat
import BlueproofConformance
import BlueproofTransmitter
import BlueproofTransmitterLinks
import Foundation

/// `blueproof chat`: the chat app of bridgefy-chat-app-tutorial.md in a terminal.
struct ChatCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chat",
        abstract: "Chat with nearby peers: the Bridgefy chat-app tutorial as a terminal program.",
        discussion: """
        Peers appear online and offline as they come in and out of range, named by the first 5 \
        characters of their id until they send their name. Every connection is made secure.
        Type a line to broadcast it (Full + Broadcast); `/to NAME text` sends a direct message \
        (Encrypted + Full) to the peer whose name or id starts with NAME; `/peers` lists peers; \
        `/quit` (or Ctrl-C) leaves, and peers see you go offline. Any other line starting with / \
        is not sent; a message longer than a transmitter takes (1024 bytes encoded over \
        Bluetooth) is refused before sending, with the limit.

        Two terminals on one btvirt:
          blueproof chat --name alice             (prints --controller unix:... for others)
          blueproof chat --name bob --controller unix:/tmp/blueproof-.../bt-server-le
        """)

    @OptionGroup var options: ControllerOptions

    @Option(name: .long, help: "Your name, sent to peers once a secure connection is made.")
    var name: String

    @Option(name: .long, help: ArgumentHelp("The session folder (default: $XDG_DATA_HOME/blueproof/chat-NAME).", valueName: "path"))
    var session: String?

    func validate() throws {
        guard !name.isEmpty, !name.contains("\n") else { throw ValidationError("--name must be one non-empty line") }
    }

    func run() async throws {
        options.logLevel.bootstrap()
        let teardown = Teardown()
        defer { withExtendedLifetime(teardown) {} }
        let controllers = try await ControllerSession.open(options, count: 1)
        let host = try await controllers.startHosts()[0]
        if let hint = controllers.joinHint { Console.progress(hint) }
        let directory = session.map { URL(fileURLWithPath: $0) }
            ?? SessionStore.defaultDirectory().deletingLastPathComponent().appendingPathComponent("chat-\(name)")
        let apiKey = ReferenceTransmitterProvider.apiKey
        let transmitter = Transmitter(configuration: TransmitterConfiguration(
            link: BLELink(host: host), session: SessionStore(directory: directory), apiKey: apiKey,
            licence: try LicenceIssuer.blueproofTest().issue(apiKey: apiKey, holder: name, expires: Date().addingTimeInterval(86_400)),
            shouldConnectSecurely: { _ in true }, displayName: name, deviceType: "terminal"))
        let chat = ChatSession(transmitter: transmitter, name: name)
        let follower = Task { await chat.run() }
        let printer = Task {
            for await update in chat.stream { Console.line(Self.text(update)) }
        }
        do {
            try await transmitter.start(mode: .automatic)
        } catch {
            Console.error("the transmitter did not start: \(error)")
            await controllers.close()
            throw ExitCode(3)
        }
        if let user = await transmitter.localUser() { Console.line("you are \(name) (\(user)); type a line to broadcast, /to NAME text, /peers, /quit") }
        // Ctrl-C leaves as /quit does: the transmitter stops, so peers see this one go offline.
        teardown.beforeExit { await transmitter.stop() }
        for await line in Self.standardInputLines() {
            guard await Self.handle(ChatInput.parse(line, sender: (name, chat.deviceType)), chat: chat) else { break }
        }
        await transmitter.stop()
        follower.cancel()
        printer.cancel()
        await controllers.close()
    }

    /// Does what `input` asks; false when it asks to leave.
    static func handle(_ input: ChatInput, chat: ChatSession) async -> Bool {
        switch input {
        case .quit:
            return false
        case .nothing:
            break
        case .refused(let reason):
            Console.line(reason)
        case .peers:
            let peers = await chat.roster()
            Console.line(peers.isEmpty ? "no peers yet" : peers.map { "\($0.online ? "online " : "offline") \($0.name) (\($0.deviceType)) \($0.user)" }.joined(separator: "\n"))
        case .direct(let name, let text):
            guard let peer = await chat.peer(matching: name) else {
                let known = await chat.roster().map(\.name)
                Console.line("no single peer matches \"\(name)\"" + (known.isEmpty ? "; no peers yet" : "; peers: \(known.joined(separator: ", "))"))
                break
            }
            do { _ = try await chat.sendDirect(text, to: peer.user) } catch { Console.line("not sent: \(error)") }
        case .broadcast(let text):
            do { _ = try await chat.broadcast(text) } catch { Console.line("not sent: \(error)") }
        }
        return true
    }

    static func text(_ update: ChatSession.Update) -> String {
        switch update {
        case .online(let peer): "* \(peer.name) is online"
        case .offline(let peer): "* \(peer.name) is offline"
        case .renamed(let peer): "* \(peer.user.shortName) is \(peer.name) (\(peer.deviceType))"
        case .message(let peer, let text, let broadcast): "\(broadcast ? "[all]" : "[direct]") \(peer.name): \(text)"
        case .delivery(let id, let what): "  (\(id.uuidString.prefix(8)) \(what))"
        }
    }

    /// Standard input, a line at a time, read on its own thread (reads block).
    static func standardInputLines() -> AsyncStream<String> {
        AsyncStream { continuation in
            Thread.detachNewThread {
                while let line = readLine() { continuation.yield(line) }
                continuation.finish()
            }
        }
    }
}
