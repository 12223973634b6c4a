import BlueproofAsync
import BlueproofBluenet
import BlueproofBluenetHost
import BlueproofTransmitter
import BlueproofTransport
import BlueproofWire
import Foundation
import Synchronization
import Testing
@testable import BlueproofControl

/// issue 18: the Bluenet commands on the control protocol (version 6): the outcome and event
/// lines, and `ControlServer` serving a library to `ControlBluenetSubject` over a real socket.
@Suite("Control protocol: Bluenet")
struct ControlBluenetTests {
    static let outcomes: [BluenetOutcome] = [
        .fulfilled, .rejected(.connection(.connectTimeout(seconds: 3))), .rejected(.connection(.disconnectTimeout(seconds: 2))),
        .rejected(.connection(.aborted)), .rejected(.connection(.failed("link lost"))), .rejected(.connection(.notConnected)),
        .rejected(.connection(.switchStateUnsupported(0.5))),
    ]

    @Test("every outcome the document gives survives its line; another refusal comes back as failed with its text")
    func outcomes() throws {
        for outcome in Self.outcomes {
            let line = try ControlCoding.line(ControlBluenetOutcome(outcome))
            #expect(try ControlCoding.decode(ControlBluenetOutcome.self, from: Array(line.dropLast())).outcome() == outcome)
        }
        let other = BluenetError.controlPacket("not a switch command")
        #expect(try ControlBluenetOutcome(.rejected(other)).outcome() == .rejected(.connection(.failed(other.description))))
    }

    @Test("an outcome with an unknown result or reason, or a timeout without finite seconds, is refused naming the field")
    func badOutcomes() {
        var unknownResult = ControlBluenetOutcome(result: "maybe")
        var unknownReason = ControlBluenetOutcome(result: "rejected")
        unknownReason.reason = "tired"
        var infinite = ControlBluenetOutcome(result: "rejected")
        infinite.reason = "connectTimeout"
        infinite.seconds = .infinity
        var missing = ControlBluenetOutcome(result: "rejected")
        missing.reason = "switchStateUnsupported"
        unknownResult.reason = "aborted"
        for (outcome, named) in [(unknownResult, "fulfilled or rejected"), (unknownReason, "tired"), (infinite, "seconds"), (missing, "value")] {
            let error = #expect(throws: ControlBluenetDecoding.self) { try outcome.outcome() }
            #expect(error.map { "\($0)".contains(named) } == true, "\(String(describing: error))")
        }
    }

    @Test("a publication survives its bluenetPublished line: data as JSON (integers stay integers), subscription when there is one")
    func publications() throws {
        let advertisement = BluenetPublication(at: .zero, topic: .advertisementData,
                                               object: #"{"handle":"AA:BB","rssi":-65,"serviceData":{"180F":[0,1,255]}}"#,
                                               stringified: "library text", subscription: nil)
        let region = BluenetPublication(at: .zero, topic: .enterRegion, object: #""office""#, stringified: #""office""#, subscription: -3)
        for publication in [advertisement, region] {
            let line = try ControlBluenetEvent.line(publication)
            let fields = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
            #expect(fields["event"] as? String == "bluenetPublished")
            #expect(publication.topic != .advertisementData || fields["data"] is [String: Any], "the data object travels as JSON, not as its text")
            let read = try ControlBluenetEvent.read(Array(line.dropLast()))
            #expect(read.topic == publication.topic && read.subscription == publication.subscription && read.stringified == publication.stringified)
            #expect(read.object == publication.object, "\(read.object)")
        }
    }

    @Test("a bluenetPublished line with an unknown topic, no stringified text, no data or a subscription that is not an integer (true and 1.5 among them) is refused")
    func badPublications() {
        let lines = [
            #"{"event":"bluenetPublished","topic":"weather","data":1,"stringified":"1"}"#,
            #"{"event":"bluenetPublished","topic":"enterRegion","data":"a"}"#,
            #"{"event":"bluenetPublished","topic":"enterRegion","stringified":"a"}"#,
            #"{"event":"bluenetPublished","topic":"enterRegion","data":"a","stringified":"a","subscription":"one"}"#,
            #"{"event":"bluenetPublished","topic":"enterRegion","data":"a","stringified":"a","subscription":true}"#,
            #"{"event":"bluenetPublished","topic":"enterRegion","data":"a","stringified":"a","subscription":1.5}"#,
            "[1,2]",
        ]
        for line in lines {
            #expect(throws: ControlBluenetDecoding.self, "\(line)") { try ControlBluenetEvent.read(Array(line.utf8)) }
        }
    }

    // MARK: Served and driven

    /// A library whose promises the test settles: `connect("slow")` waits until another
    /// connect aborts it, `isReady` never returns (until cancelled), the collection refuses.
    final class ScriptedLibrary: BluenetControl {
        let publications = BluenetPublicationLog()
        /// What the library was asked, in order: `connect slow`, `connect fast`, `stop`, ...
        let calls = EventLog<String>()
        private let aborted = OneShot<Void>()

        func isReady() async {
            calls.record("isReady")
            _ = await OneShot<Void>().wait()  // never set: returns once the server cancels the call
            calls.record("isReady ended")
        }
        func startScanning(_ filter: BluenetScanFilter) async throws { calls.record("scan \(ControlBluenetFilter.fields(filter).name)") }
        func stopScanning() async { calls.record("stopScanning") }
        func on(_ topic: BluenetTopic) async -> Int {
            publications.record(BluenetPublication(at: .zero, topic: topic, object: #""office""#, stringified: #""office""#, subscription: 7))
            return 7
        }
        func off(_ id: Int) async -> Bool { id == 7 }
        func trackUUID(_ uuid: String, groupId: String) async throws { calls.record("track \(uuid) \(groupId)") }
        func connect(_ handle: String) async -> BluenetOutcome {
            calls.record("connect \(handle)")
            guard handle == "slow" else {
                _ = aborted.resolve(())
                return .fulfilled
            }
            _ = await aborted.wait()
            return .rejected(.connection(.aborted))
        }
        func disconnect() async -> BluenetOutcome { .rejected(.connection(.disconnectTimeout(seconds: 2))) }
        func setSwitchState(_ state: Double) async -> BluenetOutcome { state == 1 ? .fulfilled : .rejected(.connection(.switchStateUnsupported(state))) }
        func startCollectingFingerprint() async throws { throw BluenetError.collection("already collecting") }
        func pauseCollectingFingerprint() async throws {}
        func resumeCollectingFingerprint() async throws {}
        func abortCollectingFingerprint() async {}
        func finalizeFingerprint(groupId: String, locationId: String) async throws {}
        func loadFingerprint(groupId: String, locationId: String, fingerprint: String) async throws { calls.record("load \(fingerprint)") }
        func getFingerprint(groupId: String, locationId: String) async -> String? { locationId == "A" ? #"{"x":[-60]}"# : nil }
        func stop() async {
            calls.record("stop")
            publications.end()
        }
    }

    struct ScriptedHost: ControlBluenetHost {
        let made = EventLog<ScriptedLibrary>()
        func library() async throws -> any BluenetControl {
            let library = ScriptedLibrary()
            made.record(library)
            return library
        }
    }

    static func serve(_ host: ScriptedHost?) throws -> (ControlServer, Task<Void, Never>) {
        let transmitter = try ControlEndToEndTests.transmitter(on: SimulatedNetwork { _, _ in true })
        let server = try ControlServer(transmitter: transmitter, listeningOn: .tcp(host: "127.0.0.1", port: 0), bluenet: host)
        return (server, Task { await server.run() })
    }

    /// A subject driving a scripted library that a server serves over a real socket (the
    /// server stops serving once closed).
    static func served() async throws -> (ControlBluenetSubject<ContinuousClock>, ScriptedLibrary, ControlServer) {
        let host = ScriptedHost()
        let (server, _) = try serve(host)
        let subject = try await ControlBluenetSubject.start(try await ControlClient.connect(to: server.address), clock: ContinuousClock())
        let library = try #require(await host.made.first(within: .seconds(30)) { _ in true })
        return (subject, library, server)
    }

    @Test("every call reaches the served library and comes back: ids, publications on their subscription, outcomes, refusals, fingerprints")
    func served() async throws {
        let (subject, library, server) = try await Self.served()
        defer { server.close() }
        try await subject.startScanning(.service(BluetoothUUID(uuid16: 0x180F)))
        #expect(await library.calls.wait(for: "scan service"))
        #expect(await subject.on(.enterRegion) == 7)
        let published = try #require(await subject.publications.first(within: .seconds(30)) { _ in true })
        #expect(published.topic == .enterRegion && published.subscription == 7 && published.object == #""office""#)
        let (ended, unknown) = (await subject.off(7), await subject.off(8))
        #expect(ended && !unknown)
        #expect(await subject.disconnect() == .rejected(.connection(.disconnectTimeout(seconds: 2))))
        #expect(await subject.setSwitchState(0.5) == .rejected(.connection(.switchStateUnsupported(0.5))))
        let refusal = await #expect(throws: TransmitterError.self) { try await subject.startCollectingFingerprint() }
        #expect(refusal?.name == "bluenetRefused" && refusal?.detail?.contains("already collecting") == true, "\(String(describing: refusal))")
        #expect(await subject.getFingerprint(groupId: "g", locationId: "A") == #"{"x":[-60]}"#)
        #expect(await subject.getFingerprint(groupId: "g", locationId: "B") == nil)
        #expect(await subject.harnessFailure() == nil)
        await subject.stop()
        #expect(await library.calls.wait(for: "stop"))
    }

    @Test("a second connect is read while the first is pending and aborts it: promises are answered when they settle")
    func concurrentPromises() async throws {
        let (subject, library, server) = try await Self.served()
        defer { server.close() }
        let first = Task { await subject.connect("slow") }
        #expect(await library.calls.wait(for: "connect slow"))
        #expect(await subject.connect("fast") == .fulfilled)
        #expect(await first.value == .rejected(.connection(.aborted)))
        await subject.stop()
    }

    @Test("a promise is answered within the subject's promise limit, not the client's shorter timeout: a profile may make the library's timers long")
    func promiseLimit() async throws {
        let host = ScriptedHost()
        let (server, _) = try Self.serve(host)
        defer { server.close() }
        // A command timeout far shorter than the promise limit. Both are wide: on a loaded CI
        // machine the promise's own round trip took more than 10 s (the limit it once had), and
        // bluenetStart must still be answered within the command timeout.
        let client = try await ControlClient.connect(to: server.address, timeout: .seconds(5), helloTimeout: .seconds(30))
        let subject = try await ControlBluenetSubject.start(client, clock: ContinuousClock(), promiseLimit: .seconds(120))
        let library = try #require(await host.made.first(within: .seconds(30)) { _ in true })
        let first = Task { await subject.connect("slow") }
        #expect(await library.calls.wait(for: "connect slow"))
        // The client's own timeout passes with the promise still pending: a duration, not an event.
        try await Task.sleep(for: .milliseconds(5500))
        #expect(await subject.connect("fast") == .fulfilled)
        #expect(await first.value == .rejected(.connection(.aborted)))
        #expect(await subject.harnessFailure() == nil)
        await subject.stop()
    }

    @Test("a case that stops waiting for a promise that never settles leaves the channel up, and the library's task is ended with it")
    func abandonedPromise() async throws {
        let (subject, library, server) = try await Self.served()
        defer { server.close() }
        await #expect(throws: TimeoutError.self) {
            try await withTimeout(.milliseconds(300), what: "isReady") { await subject.isReady() }
        }
        #expect(await library.calls.wait(for: "isReady"))
        #expect(await subject.harnessFailure() == nil)
        #expect(await subject.setSwitchState(1) == .fulfilled, "the channel still answers")
        await subject.stop()
        #expect(await library.calls.wait(for: "isReady ended"), "the server ends a pending promise with its client")
    }

    /// An implementation that greets with version 6 and answers each command with the fields
    /// `answer` gives for its name (JSON text without braces, after `"id": N,`), between the
    /// lines `around` gives for it, in one write.
    static func scripted(_ answer: @escaping @Sendable (String) -> String,
                         around: @escaping @Sendable (String) -> (before: String, after: String) = { _ in ("", "") })
        throws -> (StreamListener, Task<Void, Never>) {
        let listener = try StreamListener(listeningOn: .tcp(host: "127.0.0.1", port: 0))
        let task = Task {
            for await socket in listener.connections {
                try? socket.send(Array(#"{"event":"hello","protocol":6}"#.utf8) + [0x0A])
                var splitter = LineSplitter()
                do {
                    for try await bytes in socket.incoming {
                        for line in try splitter.feed(bytes) {
                            let request = try ControlCoding.decode(ControlRequest.self, from: line)
                            let (before, after) = around(request.command.rawValue)
                            try socket.send(Array("\(before){\"id\":\(request.id),\(answer(request.command.rawValue))}\n\(after)".utf8))
                        }
                    }
                } catch {}
            }
        }
        return (listener, task)
    }

    static let refusal = #""ok":false,"error":{"code":7,"name":"nope","summary":"no"}"#

    @Test("a refusal of a call that cannot fail, or an answer without its result, ends the channel: the case is then an error")
    func unrefusable() async throws {
        let (listener, task) = try Self.scripted { command in
            switch command {
            case "bluenetIsReady", "bluenetConnect", "bluenetStopScanning": Self.refusal
            case "bluenetDisconnect": #""ok":true,"outcome":{"result":"rejected","reason":"tired"}"#
            default: #""ok":true"#  // bluenetOn without subscription; bluenetGetFingerprint without one: there is none
            }
        }
        defer { listener.close(); task.cancel() }
        let calls: [(String, @Sendable (ControlBluenetSubject<ContinuousClock>) async -> Void)] = [
            ("bluenetIsReady", { await $0.isReady() }), ("bluenetConnect", { _ = await $0.connect("AA") }),
            ("bluenetStopScanning", { await $0.stopScanning() }), ("tired", { _ = await $0.disconnect() }),
            ("bluenetOn answered without its result", { _ = await $0.on(.enterRegion) }),
        ]
        for (named, call) in calls {
            let subject = try await ControlBluenetSubject.start(try await ControlClient.connect(to: listener.address), clock: ContinuousClock())
            #expect(await subject.getFingerprint(groupId: "g", locationId: "A") == nil)
            #expect(await subject.harnessFailure() == nil, "no fingerprint is an answer")
            await call(subject)
            let failure = await subject.harnessFailure()
            #expect(failure?.contains(named) == true, "\(named): \(String(describing: failure))")
            await subject.stop()
        }
    }

    /// A `bluenetPublished` line of enterRegion for `group`.
    static func enterRegionLine(_ group: String) -> String {
        #"{"event":"bluenetPublished","topic":"enterRegion","data":"\#(group)","stringified":"\"\#(group)\""}"# + "\n"
    }

    @Test("a publication read right after bluenetStart's answer is the new library's; one before the answer is not")
    func startBoundary() async throws {
        let (old, new) = (Self.enterRegionLine("old"), Self.enterRegionLine("new"))
        let (listener, task) = try Self.scripted({ _ in #""ok":true"# }) { $0 == "bluenetStart" ? (old, new) : ("", "") }
        defer { listener.close(); task.cancel() }
        let subject = try await ControlBluenetSubject.start(try await ControlClient.connect(to: listener.address), clock: ContinuousClock())
        let first = try #require(await subject.publications.first(within: .seconds(30)) { _ in true })
        #expect(first.object == #""new""# && subject.publications.events.count == 1, "\(subject.publications.events)")
        await subject.stop()
    }

    @Test("no Bluenet library: bluenetStart is refused as bluenetUnsupported (the cases are then not-applicable)")
    func unsupported() async throws {
        let (server, serving) = try Self.serve(nil)
        defer { server.close(); serving.cancel() }
        let client = try await ControlClient.connect(to: server.address)
        await #expect(throws: BluenetStartRefused.self) { _ = try await ControlBluenetSubject.start(client, clock: ContinuousClock()) }
        await client.close()
    }

    @Test("an implementation of protocol 5 is not asked for Bluenet: the start fails naming the version")
    func olderProtocol() async throws {
        let (listener, task) = try ControlVersionTests.greeter(#"{"event":"hello","protocol":5}"#)
        defer { listener.close(); task.cancel() }
        let client = try await ControlClient.connect(to: listener.address)
        let error = await #expect(throws: TransmitterError.self) { _ = try await ControlBluenetSubject.start(client, clock: ContinuousClock()) }
        #expect(error.map { "\($0)".contains("Bluenet needs 6") } == true, "\(String(describing: error))")
        await client.close()
    }
}
