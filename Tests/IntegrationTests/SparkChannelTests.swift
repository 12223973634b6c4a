import BlueproofBackend
import BlueproofHost
import BlueproofSpark
import BlueproofTestSupport
import BlueproofTransmitter
import Foundation
import Testing

/// issue 17: Spark data connections over LE credit-based channels between two of our hosts
/// on btvirt and Rootcanal (docs/spark-wire.md): offer, accept, a file byte-exact into the
/// receiver's cache folder, end.
extension Integration {
    @Suite("Spark over credit-based channels")
    struct SparkChannelTests {
        static func node(_ host: LEHost, reg: UInt64, knows peer: UInt64, folder: String) -> SparkChannelNode {
            var core = SparkCore(configuration: SparkConfiguration(registrationID: reg, keyID: Array(repeating: UInt8(reg), count: 32),
                                                                   acceptance: .automatic),
                                 clock: SystemTimeSource(), source: DiskFileSource(), sink: CacheFolderSink(directory: folder))
            core.recordKey(Array(repeating: UInt8(peer), count: 32), for: peer)
            return SparkChannelNode(host: host, core: core)
        }

        @Test("btvirt: a connection is offered and accepted, and a 200 KB file arrives byte-exact in the cache folder",
              .requires(.btvirt, .preload), .timeLimit(.minutes(3)))
        func fileOverBTVirt() async throws {
            try RequiredComponent.require(.btvirt, .preload)
            try await file(over: .btvirt)
        }

        @Test("Rootcanal: a connection is offered and accepted, and a 200 KB file arrives byte-exact in the cache folder",
              .requires(.rootcanal, .preload), .timeLimit(.minutes(3)))
        func fileOverRootcanal() async throws {
            try RequiredComponent.require(.rootcanal, .preload)
            try await file(over: .rootcanal)
        }

        private func file(over spec: BackendSpec) async throws {
            let folder = try WorkFolder("spark-coc-\(spec)")
            defer { folder.cleanUp() }
            let cache = folder.file("cache")
            try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
            let content = pattern(200_000)
            try Data(content).write(to: URL(fileURLWithPath: folder.file("sample.bin")))
            try await withHosts(spec, in: folder) { nodes in
                let (callerHost, calleeHost) = (nodes.hosts[0], nodes.hosts[1])
                let caller = Self.node(callerHost, reg: 1, knows: 2, folder: folder.file("unused"))
                let callee = Self.node(calleeHost, reg: 2, knows: 1, folder: cache)
                await callee.listen()
                let name = Array("bp-spark".utf8)
                try await calleeHost.startAdvertising(LEAdvertisingParameters(data: [2, 0x01, 0x06, UInt8(name.count + 1), 0x09] + name))
                let connection = try await connectToAdvertiser(named: "bp-spark", from: callerHost)
                #expect(try await caller.open(on: connection) == 2)

                let out = try await caller.perform { try $0.startDataConnection(to: 2, metadata: "over LE") }
                let incoming = try await firstValue(of: callee.events, within: .seconds(10), "the offer at the callee") { event in
                    if case .offered(let id, "over LE") = event { id } else { nil }
                }
                _ = try await firstValue(of: caller.events, within: .seconds(10), "dataConnectionAccepted at the caller") { event in
                    event == .accepted(out) ? true : nil
                }
                try await callee.perform { try $0.setReceiveCallbacks(incoming, data: true, file: true) }
                let send = try await caller.perform { try $0.sendFile(folder.file("sample.bin"), on: out) }
                let file = try await firstValue(of: callee.events, within: .seconds(60), "the file complete at the callee") { event -> SparkFileData? in
                    if case .fileAvailable(_, let file) = event, file.transferComplete || file.error != nil { file } else { nil }
                }
                #expect(file.error == nil && file.path == cache + "/sample.bin")
                #expect(try Array(Data(contentsOf: URL(fileURLWithPath: cache + "/sample.bin"))) == content)
                _ = try await firstValue(of: caller.events, within: .seconds(10), "the send's done") { event in
                    if case .sendProgress(_, send, let progress) = event, progress.done { true } else { nil }
                }
                try await caller.perform { try $0.end(out) }
                _ = try await firstValue(of: callee.events, within: .seconds(10), "the end at the callee") { event in
                    event == .ended(incoming, .ended, by: .remote) ? true : nil
                }
                try await callerHost.disconnect(connection)
                #expect(await nodes.violations() == [[], []])
            }
        }
    }
}
