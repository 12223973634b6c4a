import BlueproofSpark
import Testing

/// The faults added for the runner's SPK cases (issue 17, part 2), on the sans-I/O core: each
/// check passes on the reference and fails on its variant, as `RunSparkTests` shows over LE.
@Suite("Spark broken variants of the runner cases")
struct SparkCaseDefectTests {
    static let (a, b, c) = (SparkDefectTests.a, SparkDefectTests.b, SparkDefectTests.c)
    static func net(caller: SparkDefects = [], callee: SparkDefects = []) -> SparkNet { SparkDefectTests.net(caller: caller, callee: callee) }

    /// SPK/CONN/BV-01: an offer becomes available with no call of the application.
    static func becomesAvailable(_ net: SparkNet) throws -> Bool {
        let out = try net.on(a) { try $0.startDataConnection(to: b, metadata: "m") }
        net.pump()
        let incoming = SparkConnectionID(peer: a, number: out.number, outgoing: false)
        return net.take(b) == [.offered(incoming, metadata: "m"), .available(incoming)]
    }

    /// SPK/CONN/BV-02: the callee's accept gives the caller `accepted`.
    static func acceptReported(_ net: SparkNet) throws -> Bool {
        let out = try net.on(a) { try $0.startDataConnection(to: b) }
        net.pump()
        try net.on(b) { try $0.accept(SparkConnectionID(peer: a, number: out.number, outgoing: false)) }
        net.pump()
        return net.take(a).contains(.accepted(out))
    }

    /// SPK/CONN/BV-03: B holding A's connection makes C's offer available too.
    static func severalHeld(_ net: SparkNet) throws -> Bool {
        _ = try net.connect(a, b)
        let second = try net.on(c) { try $0.startDataConnection(to: b) }
        net.pump()
        return net.take(b).contains(.available(SparkConnectionID(peer: c, number: second.number, outgoing: false)))
    }

    /// SPK/CONN/BV-04, BV-05: 4095 and 4096 bytes of metadata are taken.
    static func metadataAtLimit(_ net: SparkNet) -> Bool {
        [4095, 4096].allSatisfy { bytes in (try? net.on(a) { try $0.startDataConnection(to: b, metadata: String(repeating: "m", count: bytes)) }) != nil }
    }

    /// SPK/STRM/BV-01, BV-03: a block on a new channel reaches B, on that channel, typed stream.
    static func channelCarriesStream(_ net: SparkNet) throws -> Bool {
        let (out, _) = try net.connect(a, b)
        let channel = try net.on(a) { try $0.createDataChannel(out, description: "s") }
        _ = try net.on(a) { try $0.send([1, 2], toChannel: channel, on: out) }
        net.pump()
        return net.take(b).contains { if case .dataAvailable(_, let data) = $0 { data.kind == .stream && data.id == channel } else { false } }
    }

    /// SPK/STRM/BV-02: a stream send of several frames ends with one `done` and no fraction.
    static func streamWithoutProgress(_ net: SparkNet) throws -> Bool {
        let (out, _) = try net.connect(a, b)
        let channel = try net.on(a) { try $0.createDataChannel(out, description: "s") }
        let send = try net.on(a) { try $0.send([UInt8](repeating: 3, count: 200), toChannel: channel, on: out) }
        net.pump()
        let progress = net.take(a).compactMap { event -> SparkProgress? in if case .sendProgress(_, send, let p) = event { p } else { nil } }
        return progress == [SparkProgress(fraction: nil, done: true)]
    }

    /// SPK/FILE/BI-01: a file gone mid-send ends with `sourceUnavailable`, never `done`.
    static func vanishedFails(_ net: SparkNet, unreadable: Bool = false) throws -> Bool {
        let (out, _) = try net.connect(a, b)
        net.files[a]?.put([UInt8](repeating: 4, count: 1000), at: "f")
        let send = try net.on(a) { try $0.sendFile("f", on: out) }
        net.pump(budget: 4)
        if unreadable { net.files[a]?.spoil("f") } else { net.files[a]?.remove("f") }
        net.pump()
        let last = net.take(a).compactMap { event -> SparkProgress? in if case .sendProgress(_, send, let p) = event { p } else { nil } }.last
        guard case .sourceUnavailable? = last?.error else { return false }
        return last?.done == false
    }

    /// SPK/FILE/BV-02: a received block's completion holds its bytes.
    static func receivedHoldsData(_ net: SparkNet) throws -> Bool {
        let (out, _) = try net.connect(a, b)
        let block = (0..<300).map { UInt8(truncatingIfNeeded: $0) }
        _ = try net.on(a) { try $0.send(block, description: "d", on: out) }
        net.pump()
        return net.take(b).contains { if case .dataAvailable(_, let data) = $0 { data.transferComplete && data.data == block } else { false } }
    }

    /// SPK/FILE/BV-03: a file is named by its path's last component.
    static func namedByLastComponent(_ net: SparkNet) throws -> Bool {
        let (out, _) = try net.connect(a, b)
        net.files[a]?.put([7, 7, 7], at: "/dir/sub/name.bin")
        _ = try net.on(a) { try $0.sendFile("/dir/sub/name.bin", on: out) }
        net.pump()
        return net.take(b).contains { if case .fileAvailable(_, let file) = $0 { file.transferComplete && file.name == "name.bin" } else { false } }
    }

    /// SPK/FILE/BV-04: the progress B reports for an incoming file of several chunks before its end.
    static func incomingFileProgress(_ net: SparkNet) throws -> [Double] {
        let (out, _) = try net.connect(a, b)
        net.files[a]?.put([UInt8](repeating: 5, count: 50_000), at: "/p/progress.bin")
        _ = try net.on(a) { try $0.sendFile("/p/progress.bin", on: out) }
        net.pump()
        return net.take(b).compactMap { event -> Double? in
            if case .fileAvailable(_, let file) = event, !file.transferComplete, file.error == nil { file.progress } else { nil }
        }
    }

    @Test("incomingFileProgressSilent fails SPK/FILE/BV-04: the reference reports an incoming file's progress before its end, the variant only its end")
    func incomingFileProgress() throws {
        #expect(try !Self.incomingFileProgress(Self.net()).isEmpty)
        #expect(try Self.incomingFileProgress(Self.net(callee: .incomingFileProgressSilent)).isEmpty)
    }

    @Test("setupNeverCompletes fails SPK/CONN/BV-01")
    func setup() throws {
        #expect(try Self.becomesAvailable(Self.net()))
        #expect(try !Self.becomesAvailable(Self.net(callee: .setupNeverCompletes)))
    }

    @Test("acceptUnreported fails SPK/CONN/BV-02")
    func accept() throws {
        #expect(try Self.acceptReported(Self.net()))
        #expect(try !Self.acceptReported(Self.net(caller: .acceptUnreported)))
    }

    @Test("severalRefused fails SPK/CONN/BV-03")
    func several() throws {
        #expect(try Self.severalHeld(Self.net()))
        #expect(try !Self.severalHeld(Self.net(callee: .severalRefused)))
    }

    @Test("metadataLimitLow fails SPK/CONN/BV-04 and BV-05")
    func metadataLimit() {
        #expect(Self.metadataAtLimit(Self.net()))
        #expect(!Self.metadataAtLimit(Self.net(caller: .metadataLimitLow)))
    }

    @Test("channelUnannounced fails SPK/STRM/BV-01; streamTypedAsData fails SPK/STRM/BV-03")
    func channels() throws {
        #expect(try Self.channelCarriesStream(Self.net()))
        #expect(try !Self.channelCarriesStream(Self.net(caller: .channelUnannounced)))
        #expect(try !Self.channelCarriesStream(Self.net(callee: .streamTypedAsData)))
    }

    @Test("streamProgressReported fails SPK/STRM/BV-02")
    func streamProgress() throws {
        #expect(try Self.streamWithoutProgress(Self.net()))
        #expect(try !Self.streamWithoutProgress(Self.net(caller: .streamProgressReported)))
    }

    @Test("vanishedFileEndsAsDone fails SPK/FILE/BI-01")
    func vanished() throws {
        #expect(try Self.vanishedFails(Self.net()))
        #expect(try !Self.vanishedFails(Self.net(caller: .vanishedFileEndsAsDone)))
    }

    @Test("unreadableFileStalls fails SPK/FILE/BI-01: a file still there but unreadable ends its send only without it")
    func unreadable() throws {
        #expect(try Self.vanishedFails(Self.net(), unreadable: true))
        #expect(try !Self.vanishedFails(Self.net(caller: .unreadableFileStalls), unreadable: true))
        #expect(try Self.vanishedFails(Self.net(caller: .unreadableFileStalls)), "a file removed still fails its send")
    }

    @Test("receivedDataDropped fails SPK/FILE/BV-02")
    func receivedData() throws {
        #expect(try Self.receivedHoldsData(Self.net()))
        #expect(try !Self.receivedHoldsData(Self.net(callee: .receivedDataDropped)))
    }

    @Test("fileNameFromFirstComponent fails SPK/FILE/BV-03")
    func fileName() throws {
        #expect(try Self.namedByLastComponent(Self.net()))
        #expect(try !Self.namedByLastComponent(Self.net(caller: .fileNameFromFirstComponent)))
    }

    @Test("strayFrames: the peer ignores a version-2 copy of each control frame as malformed; the reference sends none it cannot read")
    func strayFrames() throws {
        for (defects, stray) in [(SparkDefects(), false), (SparkDefects.strayFrames, true)] {
            let net = Self.net(caller: defects)
            _ = try net.on(Self.a) { try $0.startDataConnection(to: Self.b) }
            net.pump()
            let unreadable = net.take(Self.b).filter { event in
                guard case let .ignored(peer, .malformed(error)) = event else { return false }
                return peer == Self.a && error.reason == .unknownVersion(SparkLimits.version + 1)
            }
            #expect(unreadable.isEmpty != stray, "\(defects.names): \(unreadable)")
        }
    }

    @Test("closeCancelsConnection: closing one channel cancels a send queued on another; the reference delivers it whole")
    func closeCancelsConnection() throws {
        for (defects, delivered) in [(SparkDefects(), true), (SparkDefects.closeCancelsConnection, false)] {
            let net = Self.net(caller: defects)
            let (out, incoming) = try net.connect(Self.a, Self.b)
            let (closed, open) = try net.on(Self.a) { core in
                (try core.createDataChannel(out, description: "closed"), try core.createDataChannel(out, description: "open"))
            }
            let block = [UInt8](repeating: 0xB5, count: 1000)
            _ = try net.on(Self.a) { core in
                _ = try core.send([UInt8](repeating: 1, count: 5000), toChannel: closed, on: out)
                _ = try core.send(block, toChannel: open, on: out)
                try core.closeDataChannel(out, channel: closed)
            }
            net.pump()
            let received = net.take(Self.b).flatMap { event -> [UInt8] in
                if case .dataAvailable(incoming, let data) = event, data.id == open { data.data } else { [] }
            }
            #expect((received == block) == delivered, "\(defects.names): \(received.count) bytes on the open channel")
        }
    }

    @Test("incomingMetadataLimitLow: an offer with 4096 bytes of metadata is declined as malformed; the reference reports it offered")
    func incomingMetadataLimit() throws {
        let metadata = String(repeating: "m", count: SparkLimits.maxMetadataBytes)
        for (defects, offered) in [(SparkDefects(), true), (SparkDefects.incomingMetadataLimitLow, false)] {
            let net = Self.net(callee: defects)
            let out = try net.on(Self.a) { try $0.startDataConnection(to: Self.b, metadata: metadata) }
            net.pump()
            let incoming = SparkConnectionID(peer: Self.a, number: out.number, outgoing: false)
            #expect(net.take(Self.b).contains(.offered(incoming, metadata: metadata)) == offered, "\(defects.names)")
            #expect(net.take(Self.a).contains(.ended(out, .malformed, by: .remote)) != offered, "\(defects.names)")
        }
    }

    @Test("doneReportedTwice: a data send reports done at its last chunk and again at its done frame; the reference once, last")
    func doneOnce() throws {
        for (defects, dones) in [(SparkDefects(), 1), (SparkDefects.doneReportedTwice, 2)] {
            let net = Self.net(caller: defects)
            let (out, _) = try net.connect(Self.a, Self.b)
            let send = try net.on(Self.a) { try $0.send([UInt8](repeating: 7, count: 50_000), description: "d", on: out) }
            net.pump()
            let progress = net.take(Self.a).compactMap { event -> SparkProgress? in
                if case .sendProgress(out, send, let progress) = event { progress } else { nil }
            }
            #expect(progress.filter(\.done).count == dones && progress.last?.done == true, "\(defects.names): \(progress)")
        }
    }

    @Test("strayDeclineEnds: a decline of a connection already accepted ends it; the reference ignores it and the next data block arrives")
    func strayDecline() throws {
        for (defects, kept) in [(SparkDefects(), true), (SparkDefects.strayDeclineEnds, false)] {
            let net = Self.net(caller: defects)
            let (out, incoming) = try net.connect(Self.a, Self.b)
            try net.deliver([.decline(.declined)], on: incoming, from: Self.b)
            _ = try net.on(Self.b) { try $0.send([1, 2, 3], description: "next", on: incoming) }
            net.pump()
            let events = net.take(Self.a)
            let ended = events.contains { if case .ended(out, _, _) = $0 { true } else { false } }
            let arrived = events.contains { if case .dataAvailable(out, let data) = $0 { data.transferComplete && data.data == [1, 2, 3] } else { false } }
            #expect(ended != kept && arrived == kept, "\(defects.names): \(events)")
        }
    }

    @Test("foreignChannelTaken: a channel the peer opens with an id of the receiver's numbering is taken; the reference ignores it")
    func foreignChannel() throws {
        for (defects, taken) in [(SparkDefects(), false), (SparkDefects.foreignChannelTaken, true)] {
            let net = Self.net(callee: defects)
            let (out, incoming) = try net.connect(Self.a, Self.b)
            let own = try net.on(Self.b) { try $0.createDataChannel(incoming, description: "own") }
            let foreign = own &+ 2
            try net.deliver([.channelOpen(channel: foreign, description: "x")], on: out, from: Self.a)
            let events = net.take(Self.b)
            #expect(events.contains(.channelOpened(incoming, channel: foreign, description: "x", by: .remote)) == taken, "\(defects.names): \(events)")
        }
    }

    @Test("foreignTransferTaken: a data block the peer sends under an id of the receiver's numbering is taken; the reference refuses it")
    func foreignTransfer() throws {
        for (defects, taken) in [(SparkDefects(), false), (SparkDefects.foreignTransferTaken, true)] {
            let net = Self.net(callee: defects)
            let (out, incoming) = try net.connect(Self.a, Self.b)
            let bytes: [UInt8] = [9, 9, 9]
            let header = SparkTransferHeader(transfer: 1001, kind: .data, size: 3, sha256: SparkDigest.sha256(of: bytes), name: "x")
            try net.deliver([.transferHeader(header), .chunk(transfer: 1001, bytes: bytes), .done(transfer: 1001)], on: out, from: Self.a)
            let events = net.take(Self.b)
            let delivered = events.contains { if case .dataAvailable(incoming, let data) = $0 { data.transferComplete } else { false } }
            #expect(delivered == taken, "\(defects.names): \(events)")
        }
    }

    @Test("withdrawalDeclined: a caller withdraws its unanswered offer with a decline, which the callee ignores; the reference's end reaches it")
    func withdrawal() throws {
        for (defects, reached) in [(SparkDefects(), true), (SparkDefects.withdrawalDeclined, false)] {
            let net = Self.net(caller: defects)
            let out = try net.on(Self.a) { try $0.startDataConnection(to: Self.b) }
            net.pump()
            try net.on(Self.a) { try $0.end(out) }
            net.pump()
            let incoming = SparkConnectionID(peer: Self.a, number: out.number, outgoing: false)
            let events = net.take(Self.b)
            #expect(events.contains(.ended(incoming, .ended, by: .remote)) == reached, "\(defects.names): \(events)")
        }
    }

    @Test("fileNamePathTaken: a file header named with a path is taken; the reference refuses it as malformed")
    func fileNamePath() throws {
        for (defects, taken) in [(SparkDefects(), false), (SparkDefects.fileNamePathTaken, true)] {
            let net = Self.net(callee: defects)
            let (out, incoming) = try net.connect(Self.a, Self.b)
            let bytes: [UInt8] = [5, 6]
            let header = SparkTransferHeader(transfer: 2, kind: .file, size: 2, sha256: SparkDigest.sha256(of: bytes), name: "..#x")
            try net.deliver([.transferHeader(header)], on: out, from: Self.a, rewrite: { $0.map { $0 == UInt8(ascii: "#") ? UInt8(ascii: "/") : $0 } })
            try net.deliver([.chunk(transfer: 2, bytes: bytes), .done(transfer: 2)], on: out, from: Self.a)
            let events = net.take(Self.b)
            let named = events.contains { if case .fileAvailable(incoming, let file) = $0 { file.name == "../x" } else { false } }
            let refused = events.contains { if case .ignored(_, .malformed) = $0 { true } else { false } }
            #expect(named == taken && refused != taken, "\(defects.names): \(events)")
        }
    }

    @Test("partialNamedAfterFile: a file whose name has the wire's 255 bytes cannot be stored; the reference stores it")
    func longFileName() throws {
        for (defects, stored) in [(SparkDefects(), true), (SparkDefects.partialNamedAfterFile, false)] {
            let net = Self.net(callee: defects)
            let (out, incoming) = try net.connect(Self.a, Self.b)
            let name = String(repeating: "n", count: SparkLimits.maxNameBytes)
            net.files[Self.a]?.put([4, 5, 6], at: "/d/" + name)
            _ = try net.on(Self.a) { try $0.sendFile("/d/" + name, on: out) }
            net.pump()
            let events = net.take(Self.b)
            let complete = events.contains { if case .fileAvailable(incoming, let file) = $0 { file.name == name && file.transferComplete } else { false } }
            #expect(complete == stored, "\(defects.names): \(events)")
        }
    }

    @Test("malformedOfferIgnored: an offer with 4097 bytes of metadata is ignored; the reference declines it malformed")
    func oversizedOffer() throws {
        for (defects, declined) in [(SparkDefects(), true), (SparkDefects.malformedOfferIgnored, false)] {
            let net = Self.net(callee: defects)
            let out = net.on(Self.a) { $0.holdWrittenOffer(to: Self.b) }
            let offer = SparkOffer(caller: Self.a, callee: Self.b, callerKey: SparkNet.key(Self.a), metadata: String(repeating: "m", count: SparkLimits.maxMetadataBytes))
            // One byte more than the encoder writes: both lengths (the body's at 7, the metadata's after two ids and a 32-byte key) grow by one.
            try net.deliver([.offer(offer)], on: out, from: Self.a) { frame in
                var grown = frame + [UInt8(ascii: "m")]
                for at in [7, SparkEnvelope.headerBytes + 16 + 32] { grown[at + 1] &+= 1 }
                return grown
            }
            net.pump()
            let callee = net.take(Self.b)
            #expect(callee.contains { if case .ignored(Self.a, .malformed(let error)) = $0 { error.reason == .metadataTooLarge(bytes: 4097, limit: 4096) } else { false } })
            #expect(!callee.contains { if case .offered = $0 { true } else { false } }, "\(callee)")
            let caller = net.take(Self.a)
            #expect(caller.contains(.ended(out, .malformed, by: .remote)) == declined, "\(defects.names): \(caller)")
        }
    }

    @Test("offerZeroTaken: an offer numbered 0 (the hello's connection) is taken; the reference declines it malformed")
    func offerNumberedZero() throws {
        for (defects, declined) in [(SparkDefects(), true), (SparkDefects.offerZeroTaken, false)] {
            let net = Self.net(callee: defects)
            let out = net.on(Self.a) { $0.holdWrittenOffer(to: Self.b, number: 0) }
            try net.deliver([.offer(SparkOffer(caller: Self.a, callee: Self.b, callerKey: SparkNet.key(Self.a), metadata: "zero"))], on: out, from: Self.a)
            net.pump()
            let callee = net.take(Self.b)
            #expect(callee.contains { if case .offered = $0 { true } else { false } } != declined, "\(defects.names): \(callee)")
            #expect(net.take(Self.a).contains(.ended(out, .malformed, by: .remote)) == declined, "\(defects.names)")
        }
    }

    @Test("offersFromZero: the first offer is numbered 0 and a reference callee declines it; the reference numbers from 1")
    func offersNumberedFromOne() throws {
        for (defects, first) in [(SparkDefects(), UInt32(1)), (SparkDefects.offersFromZero, 0)] {
            let net = Self.net(caller: defects)
            let out = try net.on(Self.a) { try $0.startDataConnection(to: Self.b, metadata: "") }
            #expect(out.number == first, "\(defects.names)")
            net.pump()
            #expect(net.take(Self.a).contains(.ended(out, .malformed, by: .remote)) == (first == 0), "\(defects.names)")
        }
    }

    @Test("descriptionAsFileName: a channel description with '/' is refused and not taken from the peer; the reference takes it")
    func descriptionWithSlash() throws {
        for (defects, taken) in [(SparkDefects(), true), (SparkDefects.descriptionAsFileName, false)] {
            let net = Self.net(caller: defects, callee: defects)
            let (out, incoming) = try net.connect(Self.a, Self.b)
            let own = try? net.on(Self.a) { try $0.createDataChannel(out, description: "a/../b") }
            #expect((own != nil) == taken, "\(defects.names)")
            try net.deliver([.channelOpen(channel: 3, description: "c/../d")], on: incoming, from: Self.b)
            net.pump()
            let opened = net.take(Self.a).contains(.channelOpened(out, channel: 3, description: "c/../d", by: .remote))
            #expect(opened == taken, "\(defects.names)")
        }
    }

    @Test("overlappingFilesShareHandle: two files coming in at once are written into one partial file; the reference keeps them apart")
    func overlappingFiles() throws {
        for (defects, apart) in [(SparkDefects(), true), (SparkDefects.overlappingFilesShareHandle, false)] {
            let net = Self.net(callee: defects)
            let (out, _) = try net.connect(Self.a, Self.b)
            let files: [(number: UInt32, name: String, bytes: [UInt8])] = [(2, "one", [1, 2, 3, 4]), (4, "two", [5, 6, 7, 8])]
            try net.deliver(files.map { .transferHeader(SparkTransferHeader(transfer: $0.number, kind: .file, size: 4, sha256: SparkDigest.sha256(of: $0.bytes), name: $0.name)) },
                            on: out, from: Self.a)
            for half in [0..<2, 2..<4] {
                try net.deliver(files.map { .chunk(transfer: $0.number, bytes: Array($0.bytes[half])) }, on: out, from: Self.a)
            }
            try net.deliver(files.map { .done(transfer: $0.number) }, on: out, from: Self.a)
            let stored = net.files[Self.b]?.committed ?? [:]
            #expect(files.allSatisfy { stored.values.contains($0.bytes) } == apart, "\(defects.names): \(stored)")
        }
    }

    @Test("emptyFileNeverCreated: an empty file is reported complete and never stored; the reference stores it empty")
    func emptyFile() throws {
        for (defects, stored) in [(SparkDefects(), true), (SparkDefects.emptyFileNeverCreated, false)] {
            let net = Self.net(callee: defects)
            let (out, incoming) = try net.connect(Self.a, Self.b)
            try net.deliver([.transferHeader(SparkTransferHeader(transfer: 2, kind: .file, size: 0, sha256: SparkDigest.sha256(of: []), name: "empty")),
                             .done(transfer: 2)], on: out, from: Self.a)
            let committed = net.files[Self.b]?.committed ?? [:]
            #expect(committed.values.contains([]) == stored, "\(defects.names): \(committed)")
            let ends = net.events[Self.b, default: []].compactMap { event -> SparkFileData? in
                if case .fileAvailable(incoming, let file) = event, file.transferComplete { file } else { nil }
            }
            #expect(ends.map(\.progress) == [1], "\(defects.names): \(ends)")
            #expect((ends.first?.path != nil) == stored, "\(defects.names): \(ends)")
        }
    }

    @Test("every defect has a name, and the names are unique")
    func names() {
        #expect(Set(SparkDefects.named.map(\.name)).count == SparkDefects.named.count)
        #expect(Set(SparkDefects.named.map(\.defect.rawValue)).count == SparkDefects.named.count)
        #expect(SparkDefects([.keyUnchecked, .digestUnchecked]).names == ["keyUnchecked", "digestUnchecked"])
    }
}
