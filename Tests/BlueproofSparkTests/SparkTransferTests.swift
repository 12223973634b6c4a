import BlueproofFiles
import BlueproofSpark
import Crypto
import Foundation
import Testing

/// Data blocks and files: progress to `done`, files into the cache folder atomically and
/// checked by SHA-256, partial files never complete, a vanished source fails both sides
/// (spark-data-transfer-readme.md "Data and Files", "Receiving Data").
@Suite("Spark data and files")
struct SparkTransferTests {
    static let a: UInt64 = 100, b: UInt64 = 200

    static func net(sink: (any SparkFileSink)? = nil, source: (any SparkFileSource)? = nil) -> SparkNet {
        let net = SparkNet()
        net.add(a, knows: [b], source: source)
        net.add(b, knows: [a], sink: sink)
        return net
    }

    static func fractions(_ events: [SparkEvent]) -> [Double] {
        events.compactMap { event in
            switch event {
            case .sendProgress(_, _, let progress): progress.fraction
            case .dataAvailable(_, let data): data.progress
            case .fileAvailable(_, let file): file.progress
            default: nil
            }
        }
    }

    /// Progress rises at every piece; the final `done` (or completion) repeats 1 at most.
    static func isMonotonic(_ values: [Double]) -> Bool {
        let rising = values.dropLast()
        return zip(rising, rising.dropFirst()).allSatisfy { $0 < $1 } && (values.last ?? 1) >= (rising.last ?? 0)
    }

    @Test("a data block send reports rising progress, then done; the receiver sees progress, then the whole block (SPK/FILE/BV-01, BV-02)")
    func dataBlock() throws {
        let net = Self.net()
        let (out, incoming) = try net.connect(Self.a, Self.b)
        let block = (0..<300).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let send = try net.on(Self.a) { try $0.send(block, description: "TestData.txt", on: out) }
        net.pump()
        let sent = net.take(Self.a)
        #expect(Self.isMonotonic(Self.fractions(sent)) && Self.fractions(sent).last == 1)
        #expect(sent.last == .sendProgress(out, send: send, SparkProgress(fraction: 1, done: true)))
        #expect(sent.dropLast().allSatisfy { if case .sendProgress(_, _, let progress) = $0 { !progress.done } else { false } })
        let received = net.take(Self.b)
        #expect(Self.isMonotonic(Self.fractions(received)) && Self.fractions(received).last == 1)
        guard case .dataAvailable(let on, let last) = received.last else { Issue.record("no data: \(received)"); return }
        #expect(on == incoming && last.kind == .data && last.transferComplete && last.data == block && last.description == "TestData.txt")
        #expect(received.dropLast().allSatisfy { if case .dataAvailable(_, let data) = $0 { !data.transferComplete && data.data.isEmpty } else { false } })
    }

    @Test("an empty data block completes with progress 1")
    func emptyBlock() throws {
        let net = Self.net()
        let (out, _) = try net.connect(Self.a, Self.b)
        let send = try net.on(Self.a) { try $0.send([], description: "empty", on: out) }
        net.pump()
        #expect(net.take(Self.a) == [.sendProgress(out, send: send, SparkProgress(fraction: 1, done: true))])
        guard case .dataAvailable(_, let data) = net.take(Self.b).last else { Issue.record("nothing received"); return }
        #expect(data.transferComplete && data.data.isEmpty && data.progress == 1)
    }

    @Test("a file send takes its name from the path; the received file is complete in the cache folder, byte-exact (SPK/FILE/BV-03, BV-04)")
    func fileOnDisk() throws {
        let folder = try TemporaryFolder()
        let cache = folder.path + "/cache"
        try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
        let content = (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try Data(content).write(to: URL(fileURLWithPath: folder.path + "/photo.jpg"))
        let net = Self.net(sink: CacheFolderSink(directory: cache), source: DiskFileSource())
        let (out, incoming) = try net.connect(Self.a, Self.b)
        _ = try net.on(Self.a) { try $0.sendFile(folder.path + "/photo.jpg", on: out) }
        net.pump(budget: 20)
        // Mid-transfer: nothing under the name yet, only the hidden temporary file.
        #expect(!FileManager.default.fileExists(atPath: cache + "/photo.jpg"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache).allSatisfy { $0.hasPrefix(CacheFolderSink.temporaryPrefix) })
        net.pump()
        let sent = net.take(Self.a)
        #expect(Self.isMonotonic(Self.fractions(sent)))
        guard case .sendProgress(_, _, let final) = sent.last else { Issue.record("no progress: \(sent)"); return }
        #expect(final.done && final.fraction == 1)
        let received = net.take(Self.b)
        #expect(Self.isMonotonic(Self.fractions(received)))
        guard case .fileAvailable(let on, let file) = received.last else { Issue.record("no file: \(received)"); return }
        #expect(on == incoming && file.transferComplete && file.name == "photo.jpg" && file.error == nil)
        #expect(file.path == cache + "/photo.jpg")
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: cache + "/photo.jpg"))) == content)
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache) == ["photo.jpg"])
    }

    @Test("the cache folder stores a file whose name has the wire's 255 bytes: its temporary copy is not named after it")
    func longNameStored() throws {
        let folder = try TemporaryFolder()
        let sink = CacheFolderSink(directory: folder.path)
        let name = String(repeating: "n", count: SparkLimits.maxNameBytes)
        let handle = try sink.begin(name: name)
        try sink.append([1, 2, 3], to: handle)
        #expect(try sink.commit(handle) == folder.path + "/" + name)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [name])
    }

    @Test("a file removed from its path mid-send fails on both sides: sender error, receiver error with no path (SPK/FILE/BI-01, BI-02)")
    func vanishedSource() throws {
        let net = Self.net()
        let (out, incoming) = try net.connect(Self.a, Self.b)
        net.files[Self.a]?.put([UInt8](repeating: 5, count: 1000), at: "/data/report.pdf")
        let send = try net.on(Self.a) { try $0.sendFile("/data/report.pdf", on: out) }
        net.pump(budget: 5)
        net.files[Self.a]?.remove("/data/report.pdf")
        net.pump()
        let sent = net.take(Self.a)
        guard case .sendProgress(_, send, let failed) = sent.last else { Issue.record("no failure: \(sent)"); return }
        #expect(failed.error == .sourceUnavailable("/data/report.pdf") && !failed.done)
        #expect(!sent.contains { if case .sendProgress(_, _, let progress) = $0 { progress.done } else { false } })
        let received = net.take(Self.b)
        guard case .fileAvailable(incoming, let file) = received.last else { Issue.record("no failure: \(received)"); return }
        #expect(file.error == .remote(.sourceUnavailable) && file.path == nil && !file.transferComplete)
        #expect(net.files[Self.b]?.committed.isEmpty == true && net.files[Self.b]?.partialCount == 0)
    }

    @Test("on disk: a file unlinked, or replaced by a folder that opens but cannot be read, mid-send fails both sides and leaves nothing in the cache folder (SPK/FILE/BI-01, BI-02)",
          arguments: [false, true])
    func vanishedOnDisk(leavingFolder: Bool) throws {
        let folder = try TemporaryFolder()
        let cache = folder.path + "/cache"
        try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
        try Data(repeating: 3, count: 4000).write(to: URL(fileURLWithPath: folder.path + "/gone.bin"))
        let net = Self.net(sink: CacheFolderSink(directory: cache), source: DiskFileSource())
        let (out, incoming) = try net.connect(Self.a, Self.b)
        _ = try net.on(Self.a) { try $0.sendFile(folder.path + "/gone.bin", on: out) }
        net.pump(budget: 10)
        try FileManager.default.removeItem(atPath: folder.path + "/gone.bin")
        if leavingFolder { try FileManager.default.createDirectory(atPath: folder.path + "/gone.bin", withIntermediateDirectories: false) }
        net.pump()
        guard case .sendProgress(_, _, let failed) = net.take(Self.a).last else { Issue.record("no failure"); return }
        #expect(failed.error == .sourceUnavailable(folder.path + "/gone.bin"))
        guard case .fileAvailable(incoming, let file) = net.take(Self.b).last else { Issue.record("no failure"); return }
        #expect(file.error == .remote(.sourceUnavailable) && file.path == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache).isEmpty)
    }

    @Test("a file whose bytes do not match the header's SHA-256 is discarded, never reported complete; the sender hears it was refused")
    func digestMismatch() throws {
        let net = Self.net()
        let (out, incoming) = try net.connect(Self.a, Self.b)
        net.files[Self.a]?.put([UInt8](repeating: 5, count: 100), at: "f.bin")
        let send = try net.on(Self.a) { try $0.sendFile("f.bin", on: out) }
        net.corruptChunks(of: out)
        net.pump()
        guard case .fileAvailable(incoming, let file) = net.take(Self.b).last else { Issue.record("no file event"); return }
        #expect(file.error == .digestMismatch && file.path == nil && !file.transferComplete)
        #expect(net.files[Self.b]?.committed.isEmpty == true && net.files[Self.b]?.partialCount == 0)
        // The refusal comes after the send was done, so the sender, holding no such send, reports it ignored.
        let sender = net.take(Self.a)
        #expect(sender.suffix(2) == [.sendProgress(out, send: send, SparkProgress(fraction: 1, done: true)), .ignored(peer: Self.b, .unknownTransfer(out, 2, failure: .refused))])
        let refusal = try SparkEnvelope(origin: .receiver, connection: out.number, frame: .error(transfer: 2, failure: .refused)).encoded()
        #expect(net.wire.contains { $0.from == Self.b && $0.bytes == refusal })
    }

    @Test("the link lost mid-file: the partial file is discarded and reported failed, never complete")
    func linkLostMidFile() throws {
        let net = Self.net()
        let (out, incoming) = try net.connect(Self.a, Self.b)
        net.files[Self.a]?.put([UInt8](repeating: 9, count: 1000), at: "big.bin")
        _ = try net.on(Self.a) { try $0.sendFile("big.bin", on: out) }
        net.pump(budget: 6)
        net.on(Self.b) { $0.linkLost(Self.a) }
        let received = net.take(Self.b)
        guard case .fileAvailable(incoming, let file) = received.dropLast().last else { Issue.record("no failure: \(received)"); return }
        #expect(file.error == .connectionEnded(.linkLost) && file.path == nil && !file.transferComplete)
        #expect(received.last == .ended(incoming, .linkLost, by: .remote))
        #expect(net.files[Self.b]?.partialCount == 0 && net.files[Self.b]?.committed.isEmpty == true)
    }

    @Test("done before every declared byte, or chunks past the size, fail the transfer (sizeMismatch)")
    func sizeMismatch() throws {
        let net = Self.net()
        let (out, incoming) = try net.connect(Self.a, Self.b)
        func deliver(_ frame: SparkFrame) throws { try net.deliver([frame], on: out, from: Self.a) }
        let digest = Array(SHA256.hash(data: [1, 2, 3, 4]))
        try deliver(.transferHeader(SparkTransferHeader(transfer: 2, kind: .file, size: 4, sha256: digest, name: "x")))
        try deliver(.chunk(transfer: 2, bytes: [1, 2]))
        try deliver(.done(transfer: 2))
        guard case .fileAvailable(incoming, let early) = net.take(Self.b).last else { Issue.record("no failure"); return }
        #expect(early.error == .sizeMismatch(declared: 4, received: 2) && early.path == nil)
        try deliver(.transferHeader(SparkTransferHeader(transfer: 4, kind: .data, size: 4, sha256: digest, name: "y")))
        try deliver(.chunk(transfer: 4, bytes: [1, 2, 3, 4, 5]))
        guard case .dataAvailable(incoming, let over) = net.take(Self.b).last else { Issue.record("no failure"); return }
        #expect(over.error == .sizeMismatch(declared: 4, received: 5) && !over.transferComplete)
        #expect(net.files[Self.b]?.partialCount == 0)
    }

    @Test("data blocks declared past 64 MiB in memory at once, or a 17th transfer at once, are refused; files do not count")
    func incomingBounds() throws {
        let net = Self.net()
        let (out, incoming) = try net.connect(Self.a, Self.b)
        func header(_ transfer: UInt32, _ kind: SparkTransferKind, _ size: UInt64) throws -> [UInt8] {
            try SparkEnvelope(origin: .sender, connection: out.number,
                              frame: .transferHeader(SparkTransferHeader(transfer: transfer, kind: kind, size: size, sha256: SparkCodecTests.digest, name: "n"))).encoded()
        }
        for transfer in stride(from: UInt32(2), through: 8, by: 2) { net.cores[Self.b]?.receive(try header(transfer, .data, 16 << 20), from: Self.a) }
        net.cores[Self.b]?.receive(try header(10, .data, 1), from: Self.a)
        net.collect()
        #expect(net.take(Self.b) == [.ignored(peer: Self.a, .unexpected(incoming, kind: 9))])
        for transfer in stride(from: UInt32(12), through: 34, by: 2) { net.cores[Self.b]?.receive(try header(transfer, .file, 1 << 30), from: Self.a) }
        net.cores[Self.b]?.receive(try header(36, .file, 1), from: Self.a)
        net.collect()
        #expect(net.take(Self.b) == [.ignored(peer: Self.a, .unexpected(incoming, kind: 9))])
        let refusals = (0..<2).compactMap { _ in net.cores[Self.b]?.nextFrame(for: Self.a) }.map { try? SparkEnvelope.decode($0).frame }
        #expect(refusals == [.error(transfer: 10, failure: .refused), .error(transfer: 36, failure: .refused)])
    }

    @Test("a file arriving before the file callback is set is ignored whole (SPK/FILE/BI-03)")
    func fileBeforeCallbackIgnored() throws {
        let net = Self.net()
        let (out, incoming) = try net.connect(Self.a, Self.b, callbacks: false)
        net.files[Self.a]?.put([1, 2, 3], at: "early.txt")
        _ = try net.on(Self.a) { try $0.sendFile("early.txt", on: out) }
        net.pump()
        #expect(net.take(Self.b) == [.ignored(peer: Self.a, .noReceiveCallback(incoming))])
        #expect(net.files[Self.b]?.committed.isEmpty == true && net.files[Self.b]?.partialCount == 0)
    }

    @Test("ending the connection cancels queued sends and fails incoming transfers on both sides")
    func endCancelsTransfers() throws {
        let net = Self.net()
        let (out, incoming) = try net.connect(Self.a, Self.b)
        let send = try net.on(Self.a) { try $0.send([UInt8](repeating: 1, count: 500), description: "d", on: out) }
        net.pump(budget: 3)
        _ = net.take(Self.a)
        try net.on(Self.a) { try $0.end(out) }
        net.pump()
        let sent = net.take(Self.a)
        #expect(sent.count == 2 && sent.last == .ended(out, .ended, by: .local))
        guard case .sendProgress(_, send, let cancelled) = sent.first else { Issue.record("no cancel: \(sent)"); return }
        #expect(cancelled.error == .connectionEnded(.ended) && !cancelled.done)
        let received = net.take(Self.b)
        guard case .dataAvailable(incoming, let failed) = received.dropLast().last else { Issue.record("no failure: \(received)"); return }
        #expect(failed.error == .connectionEnded(.ended) && !failed.transferComplete)
    }

    @Test("sendFile refuses a missing file and a path whose name is not a file name")
    func sendFileRefusals() throws {
        let net = Self.net()
        let (out, _) = try net.connect(Self.a, Self.b)
        #expect(throws: SparkError.file(SparkFileFailure(path: "nope", reason: "missing"))) { try net.on(Self.a) { try $0.sendFile("nope", on: out) } }
        #expect(throws: SparkError.invalid(.invalidField("file name is not a single path component"))) { try net.on(Self.a) { try $0.sendFile("/", on: out) } }
    }
}

/// A fresh folder under the system's temporary folder, removed with the value.
final class TemporaryFolder {
    let path: String
    init() throws {
        path = NSTemporaryDirectory() + "spark-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}
