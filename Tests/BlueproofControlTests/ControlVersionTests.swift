import BlueproofTransport
import Foundation
import Testing
@testable import BlueproofControl

/// The `hello` names the protocol version (docs/control-protocol.md, "Versions"): a client
/// drives versions 1 to 4, and refuses any other.
@Suite("Control protocol versions")
struct ControlVersionTests {
    /// A server that only greets, with `hello`'s line.
    static func greeter(_ hello: String) throws -> (StreamListener, Task<Void, Never>) {
        let listener = try StreamListener(listeningOn: .tcp(host: "127.0.0.1", port: 0))
        let task = Task {
            for await socket in listener.connections {
                try? socket.send(Array((hello + "\n").utf8))
                // Held open until the client leaves.
                do { for try await _ in socket.incoming {} } catch {}
            }
        }
        return (listener, task)
    }

    @Test("version 1: accepted, named, and known to carry no log lines nor harness calls; version 6 (this build's) carries both")
    func oldAndNew() async throws {
        let (old, oldTask) = try Self.greeter(#"{"event":"hello","protocol":1,"implementation":"old stack 0.9"}"#)
        defer { old.close(); oldTask.cancel() }
        let one = try await ControlClient.connect(to: old.address)
        #expect(await one.protocolVersion == 1)
        #expect(await one.implementation == "old stack 0.9")
        #expect(await one.reportsLogLines() == false)
        #expect(await one.takesHarnessCalls() == false)
        await one.close()
        let server = try ControlLimitTests.server()
        let serving = Task { await server.run() }
        defer { server.close(); serving.cancel() }
        let two = try await ControlClient.connect(to: server.address)
        #expect(await two.protocolVersion == controlProtocolVersion && controlProtocolVersion == 6)
        #expect(await two.reportsLogLines())
        #expect(await two.takesHarnessCalls())
        await two.close()
    }

    @Test("version 7, or none, is refused naming what was heard and what this runner speaks")
    func unknown() async throws {
        for hello in [#"{"event":"hello","protocol":7}"#, #"{"event":"hello"}"#] {
            let (listener, task) = try Self.greeter(hello)
            defer { listener.close(); task.cancel() }
            do {
                _ = try await ControlClient.connect(to: listener.address)
                Issue.record("\(hello) was accepted")
            } catch {
                #expect("\(error)".contains("this runner 1 to 6"), "\(error)")
            }
        }
    }
}
