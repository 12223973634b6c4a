import BlueproofHost
import BlueproofTransmitter
import BlueproofWire
import Foundation
import Synchronization

/// The reference as a Spark subject: a `SparkChannelNode` on one of the case's LE hosts, its
/// core built for `application` with `defects` (none for the reference), received files in a
/// cache folder and files to send in a folder beside it, both under `folder`.
public final class ReferenceSparkControl: SparkControl {
    /// Files read back with ``readFile(at:)``: larger ones are refused.
    public static let maxReadBytes = 64 << 20

    public let registrationID: UInt64
    public let keyID: [UInt8]
    public let events = SparkEventLog()
    public let cacheFolder: String
    public let node: SparkChannelNode
    private let host: LEHost
    private let filesFolder: String
    private let folder: String
    private let pump: Task<Void, Never>
    /// The LE connections ``link(to:)`` made, ended by ``close()``: a subject in a long-lived
    /// process (`blueproof dut`) leaves nothing behind for the next case.
    private let links = Mutex<[LEConnection]>([])
    /// Whether ``listen()`` was called: ``close()`` then stops advertising and listening.
    private let listening = Mutex(false)

    /// `forward` gets every event as it is recorded (a control-protocol server sends them on).
    public init(host: LEHost, application: SparkApplication, registrationID: UInt64, folder: String, defects: SparkDefects = [],
                forward: (@Sendable (SparkEvent) -> Void)? = nil) throws {
        self.host = host
        self.folder = folder
        self.registrationID = registrationID
        keyID = SparkNodeFolders.randomKeyID()
        let folders = try SparkNodeFolders(root: folder)
        (cacheFolder, filesFolder) = (folders.cache, folders.files)
        let configuration = SparkConfiguration(
            registrationID: registrationID, keyID: keyID, setup: .automatic, acceptance: .application,
            concurrency: application == .sample ? .single : .several(limit: SparkLimits.maxConnections), defects: defects)
        node = SparkChannelNode(host: host, core: SparkCore(configuration: configuration, clock: SystemTimeSource(),
                                                            source: DiskFileSource(), sink: CacheFolderSink(directory: cacheFolder)))
        let (log, stream) = (events, node.events)
        pump = Task {
            for await event in stream {
                log.append(event)
                forward?(event)
            }
        }
    }

    public func recordKey(_ key: [UInt8], for peer: UInt64) async throws { await node.perform { $0.recordKey(key, for: peer) } }

    public func link(to address: BDAddress) async throws -> UInt64 {
        try await node.connectAndOpen(to: address) { connection in links.withLock { $0.append(connection) } }
    }

    /// As `blueproof spark listen`: the node takes channels, the host advertises the listener's
    /// registration id (docs/spark-wire.md, "Finding a listener"). Advertising stops once a peer
    /// connects; called again, it advertises again for the next (SPK/CONN/BV-01's restarted peer).
    public func listen() async throws -> BDAddress {
        listening.withLock { $0 = true }
        await node.listen()
        try await host.startAdvertising(LEAdvertisingParameters(data: try SparkAdvertisement.data(registrationID: registrationID)))
        return await host.address
    }

    public func startDataConnection(to peer: UInt64, metadata: String) async throws -> SparkConnectionID {
        try await node.perform { try $0.startDataConnection(to: peer, metadata: metadata) }
    }

    public func accept(_ id: SparkConnectionID) async throws { try await node.perform { try $0.accept(id) } }
    public func decline(_ id: SparkConnectionID) async throws { try await node.perform { try $0.decline(id) } }
    public func end(_ id: SparkConnectionID) async throws { try await node.perform { try $0.end(id) } }

    public func setReceiveCallbacks(_ id: SparkConnectionID, data: Bool, file: Bool) async throws {
        try await node.perform { try $0.setReceiveCallbacks(id, data: data, file: file) }
    }

    public func createDataChannel(_ id: SparkConnectionID, description: String) async throws -> UInt32 {
        try await node.perform { try $0.createDataChannel(id, description: description) }
    }

    public func closeDataChannel(_ id: SparkConnectionID, channel: UInt32) async throws {
        try await node.perform { try $0.closeDataChannel(id, channel: channel) }
    }

    public func send(_ bytes: [UInt8], toChannel channel: UInt32, on id: SparkConnectionID) async throws -> UInt64 {
        try await node.perform { try $0.send(bytes, toChannel: channel, on: id) }
    }

    public func send(_ bytes: [UInt8], description: String, on id: SparkConnectionID) async throws -> UInt64 {
        try await node.perform { try $0.send(bytes, description: description, on: id) }
    }

    public func sendFile(_ path: String, on id: SparkConnectionID) async throws -> UInt64 {
        try confined(path)
        return try await node.perform { try $0.sendFile(path, on: id) }
    }

    /// Paths the subject's file calls take lie in its own folder: served over the control
    /// protocol (`blueproof dut`), a client may not read, send or remove anything else.
    private func confined(_ path: String) throws {
        let root = URL(fileURLWithPath: folder).standardizedFileURL.path + "/"
        guard URL(fileURLWithPath: path).standardizedFileURL.path.hasPrefix(root) else {
            throw SparkFileFailure(path: path, reason: "not inside the subject's folder \(folder)")
        }
    }

    public func placeFile(_ bytes: [UInt8], at relativePath: String) async throws -> String {
        let parts = relativePath.split(separator: "/").map(String.init)
        guard !parts.isEmpty, !parts.contains(where: { $0 == "." || $0 == ".." }) else {
            throw SparkFileFailure(path: relativePath, reason: "not a path inside the subject's files folder")
        }
        let path = ([filesFolder] + parts).joined(separator: "/")
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    public func removeFile(at path: String, leavingFolder: Bool) async throws {
        try confined(path)
        guard leavingFolder else { return try FileManager.default.removeItem(atPath: path) }
        guard FileManager.default.fileExists(atPath: path) else { throw SparkFileFailure(path: path, reason: "no file to replace") }
        // A link to a new folder renamed over the file: one rename, so no read finds the path missing.
        let (standIn, link) = (path + ".folder", path + ".link")
        try FileManager.default.createDirectory(atPath: standIn, withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: (standIn as NSString).lastPathComponent)
        guard rename(link, path) == 0 else { throw SparkFileFailure.system(path, "cannot put a folder in its place") }
    }

    public func readFile(at path: String) async throws -> [UInt8]? {
        try confined(path)
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return nil }
        let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        guard size <= Self.maxReadBytes else { throw SparkFileFailure(path: path, reason: "\(size) bytes, over the \(Self.maxReadBytes) read back") }
        return FileManager.default.contents(atPath: path).map(Array.init)
    }

    public func close() async {
        if listening.withLock({ $0 }) {
            try? await host.stopAdvertising()
            await host.stopListening(spsm: SparkChannelNode.spsm)
        }
        for connection in links.withLock({ $0 }) { try? await host.disconnect(connection) }
        pump.cancel()
        try? FileManager.default.removeItem(atPath: folder)
    }
}
