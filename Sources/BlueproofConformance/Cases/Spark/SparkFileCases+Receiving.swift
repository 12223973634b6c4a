import BlueproofAsync
import BlueproofSpark

/// SPK/FILE/BV-02 after its first block: descriptions no file may have, the room for data in
/// memory judged against the subject itself, and data blocks coming in at once
/// (docs/spark-wire.md "Data and files", "Bounds").
extension SparkFileCases {
    /// Data blocks described as no file may be named (empty, `.`, `..`, holding a NUL) arrive
    /// whole: only a description's length is bounded (docs/spark-wire.md "Bounds").
    /// `before`: the transfer numbers the subject had refused so far. Why not, or nil.
    static func oddDescriptions(_ stage: SparkStage, out: SparkConnectionID, theirs: SparkConnectionID, before: Set<UInt32>) async throws -> String? {
        let tester = stage.testers[0]
        let blocks = ["", ".", "..", "bv-02\u{0}nul"].enumerated().map { ($1, sparkPattern(16, seed: UInt8(30 + $0))) }
        var sends: [UInt64] = []
        for (description, bytes) in blocks { sends.append(try await tester.perform { try $0.send(bytes, description: description, on: out) }) }
        for send in sends {
            let end = try await stage.expectTester(0, "the end of a data block it sent", within: SparkStage.transferTimeout, SparkStage.end(of: send, on: out))
            if let error = end.error { return "a 16-byte data block described as no file may be named ended \(error) at its sender: only a description's length is bounded" }
        }
        let refused = try await stage.refusedTransfers(0, out: out, theirs: theirs, after: "data blocks described as no file may be named").subtracting(before)
        guard refused.isEmpty else {
            return "\(refused.count) of the data blocks described \(blocks.map(\.0.debugDescription).joined(separator: ", ")) were refused: only a description's length is bounded"
        }
        for (description, bytes) in blocks {
            let end = try await stage.expectSubject("end of the data block described \(description.debugDescription)") { event -> SparkChannelData? in
                if case .dataAvailable(theirs, let data) = event, data.description == description, data.transferComplete || data.error != nil { data } else { nil }
            }
            guard end.transferComplete, end.data == bytes else {
                return "a 16-byte data block described \(description.debugDescription) ended \(end), not whole: only a description's length is bounded"
            }
        }
        return nil
    }

    /// The sizes of block the room for data in memory is measured in, the first a subject
    /// takes one of: half the largest block the wire carries (docs/spark-wire.md "Bounds"),
    /// then 512 KiB.
    static let roomUnits: [UInt64] = [8 << 20, 512 << 10]
    /// The most blocks declared at once to measure that room.
    static let roomBlocks = 12
    /// The file declared beside the blocks: one byte over the largest data block the wire
    /// carries (docs/spark-wire.md "Bounds"), so more than two blocks' worth of either unit.
    static let besideFileBytes: UInt64 = (16 << 20) + 1

    /// A file goes to disk, so it takes nothing from the room a receiver has for data blocks in
    /// memory (docs/spark-wire.md "Bounds"). Judged against the subject itself, never against a
    /// size of the reference's (`HeldTransfers`: headers and a 1-byte chunk, never the rest):
    /// - a file of 16 MiB and a byte comes alone first (refused: a size no document bounds,
    ///   inconclusive);
    /// - the room is measured: the number k of blocks the subject takes at once, of 12 declared;
    ///   once their sender cancels them it is back (as many are taken again);
    /// - the file again with k - 1 blocks beside it, then the blocks first and the file after:
    ///   all must be taken. A receiver that counted the file would refuse one, since together
    ///   they go past the room by a block or more.
    /// With room for one block only (a limit on transfers at once cannot be told from one on
    /// memory) this is inconclusive; with room for all 12, whether files count is not judged,
    /// and the pass says so. The verdict, a pass naming what was judged.
    static func besideFile(_ stage: SparkStage, out: SparkConnectionID, theirs: SparkConnectionID) async throws -> CaseOutcome {
        var held = HeldTransfers(stage, out: out, theirs: theirs)
        let file = besideFileBytes
        let alone = try await held.declare(1, .file, size: file, "a file's header")
        try await held.cancel(alone.taken)
        guard !alone.taken.isEmpty else {
            return .inconclusive("the subject did not take a file of \(file) bytes declared alone, a size no document bounds: whether a file takes from the room for data in memory was not judged")
        }
        var (unit, room) = (UInt64(0), 0)
        for candidate in roomUnits where room < 2 {
            let taken = try await held.declare(roomBlocks, .data, size: candidate, "\(roomBlocks) data blocks' headers").taken
            try await held.cancel(taken)
            (unit, room) = (candidate, taken.count)
        }
        guard room > 1 else {
            return .inconclusive("the subject took \(room) data block(s) of \(unit) bytes declared at once: with room for less than two, a limit on blocks at once cannot be told from one on memory, so whether a file takes from that room was not judged")
        }
        let again = try await held.declare(room, .data, size: unit, "data blocks' headers declared again")
        try await held.cancel(again.taken)
        guard again.refused.isEmpty else {
            return .fail("the subject took \(room) data blocks of \(unit) bytes declared at once, but once their sender had cancelled them it did not take \(again.refused.count) of as many declared again: the room they held was not given back")
        }
        let took = "the subject took \(room) data blocks of \(unit) bytes at once and a file of \(file) bytes alone"
        let fileFirst = try await held.declare(1, .file, size: file, "a file's header")
        let beside = try await held.declare(room - 1, .data, size: unit, "data blocks' headers beside a file")
        try await held.cancel(fileFirst.taken + beside.taken)
        guard fileFirst.refused.isEmpty else { return .fail("\(took), but once those blocks were cancelled it did not take that file again: their room was not given back") }
        let blocksFirst = try await held.declare(room - 1, .data, size: unit, "data blocks' headers")
        let fileAfter = try await held.declare(1, .file, size: file, "a file's header after data blocks")
        try await held.cancel(blocksFirst.taken + fileAfter.taken)
        let counted = "a file goes to disk and takes nothing from the bound on in-memory data"
        if !beside.refused.isEmpty || !blocksFirst.refused.isEmpty {
            let refused = beside.refused.isEmpty ? "\(blocksFirst.refused.count) of \(room - 1) such blocks declared once a file had come and gone" : "\(beside.refused.count) of \(room - 1) such blocks declared beside that file"
            return .fail("\(took), but did not take \(refused): \(counted)")
        }
        if !fileAfter.refused.isEmpty { return .fail("\(took), but did not take that file declared after \(room - 1) such blocks: \(counted)") }
        return .pass(room < roomBlocks
            ? "a file took none of the room for \(room) data blocks of \(unit) bytes, which came back when their sender cancelled them"
            : "with room for all \(roomBlocks) data blocks of \(unit) bytes declared, whether a file takes from it was not judged")
    }

    /// Two pairs of data blocks coming in at once, their frames interleaved: a long block and a
    /// short one whose `done` comes between the long one's chunks, each arriving whole, the long
    /// one's progress rising though an empty chunk came among its own; then a block its sender
    /// cancels midway, which fails, beside one that still arrives whole. The verdict when not a pass,
    /// or nil.
    static func interleavedBlocks(_ stage: SparkStage, first: UInt32, out: SparkConnectionID, theirs: SparkConnectionID) async throws -> CaseOutcome? {
        let (long, short, cancelled, beside) = (first, first + 2, first + 4, first + 6)
        let bytes = [long: sparkPattern(2500, seed: 13), short: sparkPattern(10, seed: 14), cancelled: sparkPattern(600, seed: 15), beside: sparkPattern(700, seed: 16)]
        let name = [long: "bv-02 long", short: "bv-02 short", cancelled: "bv-02 cancelled", beside: "bv-02 beside the cancelled"]
        func header(_ number: UInt32) -> SparkFrame {
            let content = bytes[number] ?? []
            return .transferHeader(SparkTransferHeader(transfer: number, kind: .data, size: UInt64(content.count), sha256: SparkDigest.sha256(of: content), name: name[number] ?? ""))
        }
        func chunk(_ number: UInt32, _ range: Range<Int>) -> SparkFrame { .chunk(transfer: number, bytes: Array((bytes[number] ?? [])[range])) }
        let tester = stage.testers[0]
        try await tester.write([header(long), header(short), chunk(long, 0..<1000)], on: out)
        // An empty chunk, which the encoder refuses to write ("Bounds": a chunk is at least one
        // byte): refused as unreadable, it adds no progress report.
        try await tester.write([chunk(long, 0..<1)], on: out) { SparkTester.replacingTail(of: $0, dropping: 1, with: []) }
        try await tester.write([
            chunk(short, 0..<10), chunk(long, 1000..<2000), .done(transfer: short),
            chunk(long, 2000..<2500), .done(transfer: long),
            header(cancelled), header(beside), chunk(cancelled, 0..<300), .error(transfer: cancelled, failure: .cancelled),
            chunk(beside, 0..<700), .done(transfer: beside),
        ], on: out)
        // The subject has read them all once both sides have settled; then each end is due. (An
        // `error` frame naming the cancelled block may be the subject's answer to the cancel.)
        let refused = try await stage.refusedTransfers(0, out: out, theirs: theirs, after: "data blocks with interleaved frames")
        if let number = [long, short, beside].first(where: refused.contains) {
            return .fail("of two data blocks coming in at once, \(name[number] ?? "") was refused")
        }
        for number in [long, short, cancelled, beside] {
            let end = try await stage.expectSubject("end of the data block \((name[number] ?? "").debugDescription)") { event -> SparkChannelData? in
                if case .dataAvailable(theirs, let data) = event, data.id == number, data.transferComplete || data.error != nil { data } else { nil }
            }
            let whole = end.transferComplete && end.error == nil && end.data == bytes[number]
            guard number == cancelled ? !end.transferComplete && end.error != nil : whole else {
                return .fail("of two data blocks coming in at once, their frames interleaved, \(name[number] ?? "") ended \(end), not \(number == cancelled ? "failed: its sender cancelled it" : "whole")")
            }
        }
        let fractions = stage.subject.events.events.compactMap { event -> Double? in
            if case .dataAvailable(theirs, let data) = event, data.id == long, !data.transferComplete { data.progress } else { nil }
        }
        guard rising(fractions) else {
            return .fail("a data block's progress, with an empty chunk (which no encoder writes) among its chunks, was \(fractions), not fractions that rise")
        }
        return nil
    }
}

/// Transfers tester 0 declares by hand in its own numbering (headers only, never their chunks)
/// and cancels, for SPK/FILE/BV-02.
struct HeldTransfers {
    let stage: SparkStage, out: SparkConnectionID, theirs: SparkConnectionID
    /// The next number of the tester's numbering not used yet.
    private(set) var next: UInt32

    init(_ stage: SparkStage, out: SparkConnectionID, theirs: SparkConnectionID) {
        (self.stage, self.out, self.theirs) = (stage, out, theirs)
        next = theirs.outgoing ? 2001 : 2002
    }

    /// Declares `count` transfers of `kind` and `size` at once, each with a first chunk of one
    /// byte, then settles both sides (`SparkStage.refusedTransfers`, `what` naming them for the
    /// waits): those taken (the subject reported their progress) and the rest (refused, failed,
    /// or dropped unreported, as a header over a limit of the subject's own may be:
    /// docs/spark-wire.md "Bounds").
    mutating func declare(_ count: Int, _ kind: SparkTransferKind, size: UInt64, _ what: String) async throws -> (taken: [UInt32], refused: [UInt32]) {
        let numbers = (0..<UInt32(count)).map { next + 2 * $0 }
        next += 2 * UInt32(count)
        try await stage.testers[0].write(numbers.map { number in
            .transferHeader(SparkTransferHeader(transfer: number, kind: kind, size: size, sha256: [UInt8](repeating: 0, count: 32), name: "bv-02-held-\(number)"))
        } + numbers.map { .chunk(transfer: $0, bytes: [0x48]) }, on: out)
        let refused = try await stage.refusedTransfers(0, out: out, theirs: theirs, after: what)
        // Every report due is on its way once both sides settled; one deadline for them all.
        let deadline = ContinuousClock.now + SparkStage.eventTimeout, id = theirs
        var taken: [UInt32] = []
        for number in numbers where !refused.contains(number) {
            do {
                let failed = try await stage.subject.events.first("progress of transfer \(number)", within: max(deadline - .now, .zero)) { event -> Bool? in
                    Self.report(event, on: id).flatMap { $0.transfer == number ? $0.failed : nil }
                }
                if !failed { taken.append(number) }
            } catch is TimeoutError {}  // not taken: dropped unreported
        }
        return (taken, numbers.filter { !taken.contains($0) })
    }

    /// Cancels `numbers` as their sender would, and waits until the subject reports each failed.
    func cancel(_ numbers: [UInt32]) async throws {
        guard !numbers.isEmpty else { return }
        try await stage.testers[0].write(numbers.map { .error(transfer: $0, failure: .cancelled) }, on: out)
        let id = theirs
        for number in numbers {
            _ = try await stage.expectSubject("end of transfer \(number), which its sender cancelled (error cancelled),") { event -> Bool? in
                Self.report(event, on: id).flatMap { $0.transfer == number && $0.failed ? true : nil }
            }
        }
    }

    /// The incoming transfer an event reports on `id`, and whether it failed; nil for others.
    static func report(_ event: SparkEvent, on id: SparkConnectionID) -> (transfer: UInt32, failed: Bool)? {
        switch event {
        case .dataAvailable(id, let data) where data.kind == .data: (data.id, data.error != nil)
        case .fileAvailable(id, let file): (file.transfer, file.error != nil)
        default: nil
        }
    }
}
