import BlueproofAsync
import BlueproofHost
import BlueproofSpark
import BlueproofTransmitter
import Foundation

/// One Spark file transfer for `bench spark`, on a fresh backend: node 0 offers a data
/// connection to node 1 over the Spark channel, node 1 accepts with its file callback set, and
/// node 0 sends the file. Timed from `sendFile` to node 1's verified file in its cache
/// folder (docs/spark-wire.md "Data and files"): the receiver's time, as the transfer bench's.
struct SparkBenchRun {
    var controller: String
    var logLevel: LogLevelOption
    var folder: String
    var limit: Duration
    var keepCaptures = false

    static let (sender, receiver): (UInt64, UInt64) = (0x5E_0001, 0x5E_0002)

    /// The run; with `capture`, a pcap per node, and with `credits` also the controller's
    /// credit cadence read from node 0's.
    func run(file: String, size: Int, expected: String, capture: Bool, credits: Bool) async throws -> (run: OurTransferRun, mps: Int) {
        var arguments = ["--controller", controller, "--work-dir", folder, "--log-level", logLevel.rawValue]
        if capture { arguments += ["--capture", "\(folder)/spark.pcap"] }
        let options = try ControllerOptions.parse(arguments)
        let session = try await ControllerSession.open(options, count: 2)
        let hosts = try await session.startHosts()
        // The receiver's MPS sets the K-frames the sender cuts.
        let mps = Int(SparkChannelNode.mps(aclBufferSize: await hosts[1].aclBuffers.size))
        let nodes = try (0..<2).map { index in
            let id = index == 0 ? Self.sender : Self.receiver
            let cache = try SparkNodeFolders(root: "\(folder)/node\(index)").cache
            let configuration = SparkConfiguration(registrationID: id, keyID: [UInt8](repeating: UInt8(index + 1), count: 32),
                                                   acceptance: .application, concurrency: .single)
            return SparkChannelNode(host: hosts[index], core: SparkCore(configuration: configuration, clock: SystemTimeSource(),
                                                                        source: DiskFileSource(), sink: CacheFolderSink(directory: cache)))
        }
        await nodes[0].perform { $0.recordKey([UInt8](repeating: 2, count: 32), for: Self.receiver) }
        await nodes[1].perform { $0.recordKey([UInt8](repeating: 1, count: 32), for: Self.sender) }
        let logs = nodes.map { node in
            let log = SparkEventLog()
            let events = node.events
            Task { for await event in events { log.append(event) } }
            return log
        }
        let outcome: OurTransferRun
        do {
            outcome = try await withTimeout(limit, what: "the Spark file to arrive") {
                try await Self.transfer(nodes, logs, hosts: hosts, file: file, size: size, expected: expected)
            }
        } catch {
            await session.close()
            throw BenchError.run("our Spark transfer failed: \(error) (logs in \(folder))")
        }
        // The received copies go; the captures too, unless kept.
        defer {
            for index in 0..<2 {
                try? FileManager.default.removeItem(atPath: "\(folder)/node\(index)")
                if !keepCaptures, let path = options.capturePath(index: index, count: 2) { try? FileManager.default.removeItem(atPath: path) }
            }
        }
        if capture, credits, let path = options.capturePath(index: 0, count: 2) {
            var measured = outcome
            let framing = PayloadFraming.creditBasedSDU(SparkLimits.maxFrameBytes, payload: SparkLimits.maxFrameBytes - SparkEnvelope.chunkOverhead,
                                                        mps: mps)
            do {
                measured.credits = try CreditCadence.measure(capture: path, aclBuffers: await hosts[0].aclBuffers, framing: framing)
            } catch {
                Console.error("cannot read the credit cadence from \(path): \(error)")
            }
            await session.close()
            return (measured, mps)
        }
        await session.close()
        return (outcome, mps)
    }

    private static func transfer(_ nodes: [SparkChannelNode], _ logs: [SparkEventLog], hosts: [LEHost], file: String, size: Int,
                                 expected: String) async throws -> OurTransferRun {
        await nodes[1].listen()
        try await hosts[1].startAdvertising(LEAdvertisingParameters(data: try SparkAdvertisement.data(registrationID: receiver)))
        _ = try await nodes[0].connectAndOpen(to: hosts[1].address)
        let offered = try await nodes[0].perform { try $0.startDataConnection(to: receiver) }
        let incoming = SparkConnectionID(peer: sender, number: offered.number, outgoing: false)
        _ = try await logs[1].first("the offer available", within: .seconds(10)) { $0 == .available(incoming) ? true : nil }
        try await nodes[1].perform { core in
            try core.setReceiveCallbacks(incoming, data: false, file: true)
            try core.accept(incoming)
        }
        _ = try await logs[0].first("the offer accepted", within: .seconds(10)) { $0 == .accepted(offered) ? true : nil }
        let start = ContinuousClock.now
        _ = try await nodes[0].perform { try $0.sendFile(file, on: offered) }
        let arrived = try await logs[1].first("the file, complete or failed", within: .seconds(3600)) { event -> SparkFileData? in
            guard case .fileAvailable(incoming, let data) = event, data.transferComplete || data.error != nil else { return nil }
            return data
        }
        let seconds = (ContinuousClock.now - start).seconds
        guard let path = arrived.path, arrived.error == nil else { throw BenchError.run("the file failed: \(arrived.error.map { "\($0)" } ?? "no path")") }
        let digest = try SparkDigest.file(path)
        return OurTransferRun(bytes: size, receivedBytes: Int(digest.bytes), seconds: seconds, bytesPerSecond: Double(size) / seconds,
                              intact: digest.sha256 == expected && digest.bytes == UInt64(size), credits: nil)
    }
}
