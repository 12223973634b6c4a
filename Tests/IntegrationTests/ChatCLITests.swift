import BlueproofTestSupport
import Foundation
import Testing

/// `blueproof chat` between two terminals (processes) on one btvirt, as the chat-app tutorial
/// describes it: peers come online with their names, broadcasts and direct messages arrive.
extension Integration {
    @Suite("blueproof chat")
    struct ChatCLITests {
        @Test("two chats on one btvirt: online with names, a broadcast and a direct message both ways",
              .requires(.btvirt, .preload, .cli), .timeLimit(.minutes(3)))
        func twoTerminals() async throws {
            try RequiredComponent.require(.btvirt, .preload)
            let cli = try RequiredComponent.require(.cli)[0]
            let folder = try WorkFolder("chat")
            defer { folder.cleanUp() }
            let alice = try LiveCLI(cli, ["chat", "--name", "alice", "--session", folder.file("alice"), "--work-dir", folder.file("work")])
            defer { alice.stop() }
            let join = try #require(await alice.line(within: .seconds(60)) { $0.contains("--controller unix:") },
                                    "alice did not start:\n\(alice.lines.joined(separator: "\n"))")
            let controller = try #require(join.split(separator: " ").last).description
            let bob = try LiveCLI(cli, ["chat", "--name", "bob", "--session", folder.file("bob"), "--controller", controller])
            defer { bob.stop() }

            // Each side learns the other's name once the connection is secure.
            #expect(await alice.line(within: .seconds(60)) { $0.hasPrefix("* ") && $0.contains(" is bob") } != nil,
                    "\(alice.lines.joined(separator: "\n"))")
            #expect(await bob.line(within: .seconds(60)) { $0.hasPrefix("* ") && $0.contains(" is alice") } != nil,
                    "\(bob.lines.joined(separator: "\n"))")

            alice.type("hello everyone")
            #expect(await bob.line(within: .seconds(30)) { $0 == "[all] alice: hello everyone" } != nil,
                    "\(bob.lines.joined(separator: "\n"))")
            bob.type("/to alice hi alice, just you")
            #expect(await alice.line(within: .seconds(30)) { $0 == "bob: hi alice, just you" } != nil,
                    "\(alice.lines.joined(separator: "\n"))")
            alice.type("/peers")
            #expect(await alice.line(within: .seconds(10)) { $0.hasPrefix("online  bob (terminal)") } != nil,
                    "\(alice.lines.joined(separator: "\n"))")
            bob.type("/quit")
            #expect(await alice.line(within: .seconds(30)) { $0 == "* bob is offline" } != nil,
                    "\(alice.lines.joined(separator: "\n"))")
        }
    }
}
