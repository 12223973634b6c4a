import BlueproofTestSupport
import Foundation
import Testing

/// `blueproof chat` between two terminals (processes) on one btvirt, as the chat-app tutorial
/// describes it: peers come online with their names, broadcasts and direct messages arrive.
extension Integration {
    @Suite("blueproof chat")
    struct ChatCLITests {
        /// Alice starts her own btvirt; Bob joins it with the `--controller` she prints.
        static func twoChats(in folder: WorkFolder) async throws -> (alice: LiveCLI, bob: LiveCLI) {
            try RequiredComponent.require(.btvirt, .preload)
            let cli = try RequiredComponent.require(.cli)[0]
            let alice = try LiveCLI(cli, ["chat", "--name", "alice", "--session", folder.file("alice"), "--work-dir", folder.file("work")])
            let join = await alice.line(within: .seconds(60)) { $0.contains("--controller unix:") }
            guard let controller = join?.split(separator: " ").last.map(String.init) else {
                alice.stop()
                throw DidNotStart(what: "alice", lines: alice.lines)
            }
            let bob = try LiveCLI(cli, ["chat", "--name", "bob", "--session", folder.file("bob"), "--controller", controller])
            return (alice, bob)
        }

        @Test("two chats on one btvirt: online with names, a broadcast and a direct message both ways",
              .requires(.btvirt, .preload, .cli), .timeLimit(.minutes(3)))
        func twoTerminals() async throws {
            let folder = try WorkFolder("chat")
            defer { folder.cleanUp() }
            let (alice, bob) = try await Self.twoChats(in: folder)
            defer { alice.stop(); bob.stop() }

            // Each side learns the other's name once the connection is secure.
            #expect(await alice.line(within: .seconds(60)) { $0.hasPrefix("* ") && $0.contains(" is bob") } != nil,
                    "\(alice.lines.joined(separator: "\n"))")
            #expect(await bob.line(within: .seconds(60)) { $0.hasPrefix("* ") && $0.contains(" is alice") } != nil,
                    "\(bob.lines.joined(separator: "\n"))")

            alice.type("hello everyone")
            #expect(await bob.line(within: .seconds(30)) { $0 == "[all] alice: hello everyone" } != nil,
                    "\(bob.lines.joined(separator: "\n"))")
            bob.type("/to alice hi alice, just you")
            #expect(await alice.line(within: .seconds(30)) { $0 == "[direct] bob: hi alice, just you" } != nil,
                    "\(alice.lines.joined(separator: "\n"))")
            alice.type("/peers")
            #expect(await alice.line(within: .seconds(10)) { $0.hasPrefix("online  bob (terminal)") } != nil,
                    "\(alice.lines.joined(separator: "\n"))")
            bob.type("/quit")
            #expect(await alice.line(within: .seconds(30)) { $0 == "* bob is offline" } != nil,
                    "\(alice.lines.joined(separator: "\n"))")
        }

        @Test("chat: a mistyped command, /to without text, a blank line and a message too long are refused before sending; Ctrl-C shows the peer offline",
              .requires(.btvirt, .preload, .cli), .timeLimit(.minutes(3)))
        func mistakesAndInterrupt() async throws {
            let folder = try WorkFolder("chat-mistakes")
            defer { folder.cleanUp() }
            let (alice, bob) = try await Self.twoChats(in: folder)
            defer { alice.stop(); bob.stop() }
            #expect(await bob.line(within: .seconds(60)) { $0.hasPrefix("• joining unix:") } != nil, "\(bob.lines)")
            #expect(await alice.line(within: .seconds(60)) { $0.hasPrefix("* ") && $0.contains(" is bob") } != nil,
                    "\(alice.lines.joined(separator: "\n"))")

            for (typed, answer) in [("/frobnicate", "/frobnicate is not a command"), ("/to", "/to needs a peer and a text"),
                                    ("/to bob", "/to bob: no text to send"),
                                    (String(repeating: "x", count: 4000), "not sent: the message is 4000 bytes; over Bluetooth a message holds at most")] {
                alice.type(typed)
                #expect(await alice.line(within: .seconds(10)) { $0.hasPrefix(answer) } != nil,
                        "\(typed.prefix(20)): \(alice.lines.joined(separator: "\n"))")
            }
            alice.type("     ")
            alice.type("after the mistakes")
            // Lines arrive in order: when the last one is there, nothing before it was sent.
            #expect(await bob.line(within: .seconds(30)) { $0 == "[all] alice: after the mistakes" } != nil,
                    "\(bob.lines.joined(separator: "\n"))")
            #expect(!bob.lines.contains { $0.hasPrefix("[all] alice:") && $0 != "[all] alice: after the mistakes" },
                    "\(bob.lines.joined(separator: "\n"))")

            bob.interrupt()
            #expect(await alice.line(within: .seconds(30)) { $0 == "* bob is offline" } != nil,
                    "\(alice.lines.joined(separator: "\n"))")
        }
    }
}

/// The first chat never printed how to join its backend.
/// A background CLI that did not print the line that says it is ready, and all it printed.
struct DidNotStart: Error, CustomStringConvertible {
    let what: String
    let lines: [String]
    var description: String { "\(what) did not start:\n\(lines.joined(separator: "\n"))" }
}
