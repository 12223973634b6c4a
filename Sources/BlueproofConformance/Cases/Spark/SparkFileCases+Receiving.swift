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
        let refused = Set(try await stage.refusedTransfers(0, out: out, theirs: theirs, after: "data blocks described as no file may be named").keys).subtracting(before)
        guard refused.isEmpty else {
            return "\(refused.count) of the data blocks described \(blocks.map(\.0.debugDescription).joined(separator: ", ")) were refused: only a description's length is bounded"
        }
        for (description, bytes) in blocks {
            let end = try await stage.expectSubject("end of the data block described \(description.debugDescription)", dataEnd(theirs) { $0.description == description })
            guard end.transferComplete, end.data == bytes else {
                return "a 16-byte data block described \(description.debugDescription) ended as \(SparkEvent.dataAvailable(theirs, end)), not whole: only a description's length is bounded"
            }
        }
        return nil
    }

    /// The sizes of block the room for data in memory is measured in, largest first: half the
    /// largest block the wire carries (docs/spark-wire.md "Bounds"), then halves down to 512 KiB.
    static let roomUnits: [UInt64] = [8 << 20, 4 << 20, 2 << 20, 1 << 20, 512 << 10]
    /// The most blocks declared at once to measure that room.
    static let roomBlocks = 12

    /// A file goes to disk, so it takes nothing from the room a receiver has for data blocks in
    /// memory (docs/spark-wire.md "Bounds"). Judged against the subject itself, never against a
    /// size of the reference's (`HeldTransfers`: headers and a 1-byte chunk, never the rest).
    /// For each unit, largest first, until one judges:
    /// - the room is measured: the number k of blocks of the unit the subject takes at once, of
    ///   12 declared (under 2: the next unit); once their sender cancels them it is back (as
    ///   many are taken again), and k + 1 blocks of half the unit are taken too (else the limit
    ///   is on transfers at once, not on memory: inconclusive);
    /// - a file of two units comes alone (refused: the next unit), then with k - 1 blocks beside
    ///   it, then after them: all must be taken. A receiver that counted the file would refuse
    ///   one, since together they hold as much as the k + 1 blocks it refused. (Only declared
    ///   sizes: a file's bytes, two units of them, would take 157 s on Rootcanal.)
    /// With no unit left, inconclusive; with room for all 12 blocks, a file of 1 GiB is judged
    /// beside 11 (refused alone: inconclusive). The verdict, a pass naming what was judged.
    static func besideFile(_ stage: SparkStage, out: SparkConnectionID, theirs: SparkConnectionID) async throws -> CaseOutcome {
        var held = HeldTransfers(stage, out: out, theirs: theirs)
        var seen: [String] = []
        func unjudged(_ last: String? = nil) -> CaseOutcome {
            .inconclusive("the subject took \((seen + (last.map { [$0] } ?? [])).joined(separator: "; ")): whether a file takes from the room for data in memory was not judged")
        }
        for unit in roomUnits {
            let room = try await held.declare(roomBlocks, .data, size: unit, "\(roomBlocks) data blocks' headers").taken
            try await held.cancel(room)
            let k = room.count
            guard k >= 2 else {
                seen.append("\(k) block(s) of \(unit) bytes at once (the others refused or unreported)")
                continue
            }
            let took = "the subject took \(k) data blocks of \(unit) bytes at once"
            guard k < roomBlocks else {
                // The room is unbounded as far as 12 blocks show: a file far larger than they
                // are still judges a subject that counts it (a file refused at a larger unit is
                // not explained by such room).
                let all = "all \(roomBlocks) data blocks of \(unit) bytes declared"
                guard seen.isEmpty else { return unjudged(all) }
                guard try await held.takesAlone(fileOf: largeFileBytes) else { return unjudged("\(all), but not a file of \(largeFileBytes) bytes alone") }
                return try await judgeFile(&held, unit: unit, room: k, file: largeFileBytes, took: "\(took) and a file of \(largeFileBytes) bytes alone")
            }
            let again = try await held.declare(k, .data, size: unit, "data blocks' headers declared again")
            try await held.cancel(again.taken)
            guard again.refused.isEmpty else {
                return .fail("\(took), but once their sender had cancelled them it did not take \(again.refused.count) of as many declared again: the room they held was not given back")
            }
            let halves = try await held.declare(k + 1, .data, size: unit / 2, "data blocks' headers of half the size")
            try await held.cancel(halves.taken)
            guard halves.refused.isEmpty else {
                return .inconclusive("\(took), and only \(halves.taken.count) of \(k + 1) blocks of half that size: its limit is on blocks at once, not on memory, so whether a file takes from the room for data in memory was not judged")
            }
            // k + 1 blocks went past the room, so two units with k - 1 blocks beside do too.
            let file = 2 * unit
            guard try await held.takesAlone(fileOf: file) else {
                seen.append("\(k) blocks of \(unit) bytes at once but not a file of \(file) bytes alone")
                continue
            }
            return try await judgeFile(&held, unit: unit, room: k, file: file, took: "\(took) and a file of \(file) bytes alone")
        }
        return unjudged()
    }

    /// A data block declared one byte past the wire's bound (16 MiB, docs/spark-wire.md
    /// "Bounds"; written here, not read from the code a subject may be built from) is never
    /// taken, whatever room the subject has: refused or dropped. A receiver that bounded data
    /// by files' size, or not at all, would hold it in memory. Why not, or nil.
    static func dataPastBound(_ stage: SparkStage, number: UInt32, out: SparkConnectionID, theirs: SparkConnectionID) async throws -> String? {
        let bound: UInt64 = 16 << 20
        var held = HeldTransfers(stage, out: out, theirs: theirs, next: number)
        let over = try await held.declare(1, .data, size: bound, "a data block's header one byte past the wire's bound") { resized($0, to: bound + 1) }
        try await held.cancel(over.taken)
        guard over.taken.isEmpty else { return "the subject took a data block declared at \(bound + 1) bytes: a data block is at most \(bound) bytes, held in memory" }
        return nil
    }

    /// `frame`, when a transferHeader (kind 9, at offset 1), with the size it declares set to
    /// `size` (after the transfer and its kind; docs/spark-wire.md "Header", "Kinds"): a size
    /// the encoder refuses. Other frames unchanged.
    static func resized(_ frame: [UInt8], to size: UInt64) -> [UInt8] {
        let at = SparkEnvelope.headerBytes + 5
        guard frame.count >= at + 8, frame[1] == 9 else { return frame }
        var frame = frame
        for index in 0..<8 { frame[at + index] = UInt8(truncatingIfNeeded: size >> (56 - 8 * index)) }
        return frame
    }

    /// The file declared beside a room that took all 12 blocks: far more than they hold, far
    /// under the wire's bound on files (docs/spark-wire.md "Bounds").
    static let largeFileBytes: UInt64 = 1 << 30

    /// `besideFile` once the room (`room` blocks of `unit` bytes) is known and a file of `file`
    /// bytes was taken alone (`took` says so): the file with `room - 1` blocks declared after
    /// it, then before it.
    private static func judgeFile(_ held: inout HeldTransfers, unit: UInt64, room: Int, file: UInt64, took: String) async throws -> CaseOutcome {
        let fileFirst = try await held.declare(1, .file, size: file, "a file's header")
        let beside = try await held.declare(room - 1, .data, size: unit, "data blocks' headers beside a file")
        try await held.cancel(fileFirst.taken + beside.taken)
        guard fileFirst.refused.isEmpty else { return .fail("\(took), but once its sender had cancelled that file it did not take it again: its room was not given back") }
        let blocksFirst = try await held.declare(room - 1, .data, size: unit, "data blocks' headers")
        let fileAfter = try await held.declare(1, .file, size: file, "a file's header after data blocks")
        try await held.cancel(blocksFirst.taken + fileAfter.taken)
        let counted = "a file goes to disk and takes nothing from the bound on in-memory data"
        if !beside.refused.isEmpty || !blocksFirst.refused.isEmpty {
            let refused = beside.refused.isEmpty ? "\(blocksFirst.refused.count) of \(room - 1) such blocks declared once a file had come and gone" : "\(beside.refused.count) of \(room - 1) such blocks declared beside that file"
            return .fail("\(took), but did not take \(refused): \(counted)")
        }
        if !fileAfter.refused.isEmpty { return .fail("\(took), but did not take that file declared after \(room - 1) such blocks: \(counted)") }
        return .pass("a file of \(file) bytes took none of the room for \(room < roomBlocks ? "" : "at least ")\(room) data blocks of \(unit) bytes, which came back when their sender cancelled them")
    }

    /// Two pairs of data blocks coming in at once, their frames interleaved: a long block and a
    /// short one whose `done` comes between the long one's chunks, each arriving whole; then a
    /// block its sender cancels midway, which fails as cancelled by the remote side, beside one
    /// that still arrives whole. The verdict when not a pass, or nil.
    static func interleavedBlocks(_ stage: SparkStage, first: UInt32, out: SparkConnectionID, theirs: SparkConnectionID) async throws -> CaseOutcome? {
        let long = HandWrittenBlock(number: first, name: "bv-02 long", bytes: sparkPattern(2500, seed: 13))
        let short = HandWrittenBlock(number: first + 2, name: "bv-02 short", bytes: sparkPattern(10, seed: 14))
        let cancelled = HandWrittenBlock(number: first + 4, name: "bv-02 cancelled", bytes: sparkPattern(600, seed: 15))
        let beside = HandWrittenBlock(number: first + 6, name: "bv-02 beside the cancelled", bytes: sparkPattern(700, seed: 16))
        try await stage.testers[0].write([
            long.header, short.header, long.chunk(0..<1000), short.chunk(0..<10), long.chunk(1000..<2000),
            .done(transfer: short.number), long.chunk(2000..<2500), .done(transfer: long.number),
            cancelled.header, beside.header, cancelled.chunk(0..<300), .error(transfer: cancelled.number, failure: .cancelled),
            beside.chunk(0..<700), .done(transfer: beside.number),
        ], on: out)
        // The subject has read them all once both sides have settled; then each end is due. (An
        // `error` frame naming the cancelled block may be the subject's answer to the cancel.)
        let refused = try await stage.refusedTransfers(0, out: out, theirs: theirs, after: "data blocks with interleaved frames")
        if let block = [long, short, beside].first(where: { refused[$0.number] != nil }) {
            return .fail("of two data blocks coming in at once, \(block.name) was refused")
        }
        for block in [long, short, cancelled, beside] {
            let end = try await stage.expectSubject("end of the data block \(block.name.debugDescription)", dataEnd(theirs) { $0.id == block.number })
            let isCancelled = block.number == cancelled.number
            let whole = end.transferComplete && end.error == nil && end.data == block.bytes
            guard isCancelled ? !end.transferComplete && end.error == .remote(.cancelled) : whole else {
                return .fail("of two data blocks coming in at once, their frames interleaved, \(block.name) ended as \(SparkEvent.dataAvailable(theirs, end)), not \(isCancelled ? "failed as cancelled by its sender (error cancelled)" : "whole")")
            }
        }
        return nil
    }

    /// A chunk of no bytes, which no encoder writes (docs/spark-wire.md "Bounds": a chunk is at
    /// least one byte), among a data block's chunks: it adds no progress report. The block may
    /// then fail or arrive whole; which, no document says. Why not, or nil.
    static func emptyChunk(_ stage: SparkStage, number: UInt32, out: SparkConnectionID, theirs: SparkConnectionID) async throws -> String? {
        let block = HandWrittenBlock(number: number, name: "bv-02 empty chunk", bytes: sparkPattern(20, seed: 17))
        let tester = stage.testers[0]
        try await tester.write([block.header, block.chunk(0..<10)], on: out)
        try await tester.write([block.chunk(0..<1)], on: out) { SparkTester.replacingTail(of: $0, dropping: 1, with: []) }
        // A subject that closes the channel on an unreadable frame, or stops granting credits,
        // must still end the block, which the wait below judges. (These frames encode, so the
        // write fails only by the subject's doing.)
        do { try await tester.write([block.chunk(10..<20), .done(transfer: number)], on: out) } catch is StageFailure {}
        let end = try await stage.expectSubject("end of the data block \(block.name.debugDescription)", dataEnd(theirs) { $0.id == number })
        if end.transferComplete, end.data != block.bytes { return "a data block with an empty chunk among its chunks ended as \(SparkEvent.dataAvailable(theirs, end)), not whole" }
        let fractions = stage.subject.events.events.compactMap { event -> Double? in
            if case .dataAvailable(theirs, let data) = event, data.id == number, !data.transferComplete, data.error == nil { data.progress } else { nil }
        }
        guard rising(fractions) else {
            return "a data block's progress, with an empty chunk (which no encoder writes) among its chunks, was \(fractions), not fractions that rise: a chunk is at least one byte"
        }
        return nil
    }
}

/// A data block or file a tester writes frame by frame, numbered by hand (frames its core would
/// never write: a number of the subject's, an empty chunk, a file past its size).
struct HandWrittenBlock {
    let number: UInt32, kind: SparkTransferKind, name: String, bytes: [UInt8]

    init(number: UInt32, kind: SparkTransferKind = .data, name: String, bytes: [UInt8]) {
        (self.number, self.kind, self.name, self.bytes) = (number, kind, name, bytes)
    }

    var header: SparkFrame {
        .transferHeader(SparkTransferHeader(transfer: number, kind: kind, size: UInt64(bytes.count), sha256: SparkDigest.sha256(of: bytes), name: name))
    }

    func chunk(_ range: Range<Int>) -> SparkFrame { .chunk(transfer: number, bytes: Array(bytes[range])) }
}

/// Transfers tester 0 declares by hand in its own numbering (headers only, never their chunks)
/// and cancels, for SPK/FILE/BV-02.
struct HeldTransfers {
    let stage: SparkStage, out: SparkConnectionID, theirs: SparkConnectionID
    /// The next number of the tester's numbering not used yet.
    private(set) var next: UInt32

    /// `next`: the first number to declare (by default 2001 or 2002, as the tester numbers).
    init(_ stage: SparkStage, out: SparkConnectionID, theirs: SparkConnectionID, next: UInt32? = nil) {
        (self.stage, self.out, self.theirs) = (stage, out, theirs)
        self.next = next ?? (theirs.outgoing ? 2001 : 2002)
    }

    /// Declares `count` transfers of `kind` and `size` at once, each with a first chunk of one
    /// byte, then settles both sides (`SparkStage.refusedTransfers`, `what` naming them for the
    /// waits): those taken (the subject reported their progress) and the rest (refused, failed,
    /// or dropped unreported, as a header over a limit of the subject's own may be:
    /// docs/spark-wire.md "Bounds").
    mutating func declare(_ count: Int, _ kind: SparkTransferKind, size: UInt64, _ what: String, rewrite: ([UInt8]) -> [UInt8] = { $0 }) async throws -> (taken: [UInt32], refused: [UInt32]) {
        let numbers = (0..<UInt32(count)).map { next + 2 * $0 }
        next += 2 * UInt32(count)
        try await stage.testers[0].write(numbers.map { number in
            .transferHeader(SparkTransferHeader(transfer: number, kind: kind, size: size, sha256: [UInt8](repeating: 0, count: 32), name: "bv-02-held-\(number)"))
        } + numbers.map { .chunk(transfer: $0, bytes: [0x48]) }, on: out, rewrite: rewrite)
        let refused = try await stage.refusedTransfers(0, out: out, theirs: theirs, after: what)
        // A bound is refused with `refused`; a file may also find no room on disk (`storageFailed`),
        // never a sender's reason (docs/spark-wire.md "Transfer failures", "Bounds").
        let allowed: Set<SparkTransferFailure> = kind == .file ? [.refused, .storageFailed] : [.refused]
        if let (number, failure) = numbers.lazy.compactMap({ number in refused[number].map { (number, $0) } }).first(where: { !allowed.contains($0.1) }) {
            throw SparkVerdict.fail("the subject refused transfer \(number) of \(what) with \(failure.debugDescription), not \(allowed.map(\.debugDescription).sorted().joined(separator: " or ")): the receiver's reason for a \(kind) past its bounds")
        }
        // Every report due is on its way once both sides settled; one deadline for them all.
        let deadline = ContinuousClock.now + SparkStage.eventTimeout, id = theirs
        var taken: [UInt32] = []
        for number in numbers where refused[number] == nil {
            do {
                let error = try await stage.subject.events.first("progress of transfer \(number)", within: max(deadline - .now, .zero)) { Self.report($0, on: id, transfer: number) }
                if error == nil { taken.append(number) }
            } catch is TimeoutError {}  // not taken: dropped unreported
        }
        // Those neither taken nor refused are cancelled too, unawaited: a subject that keeps a
        // header it did not report would count it against the next declared.
        let unanswered = numbers.filter { !taken.contains($0) && refused[$0] == nil }
        if !unanswered.isEmpty { try await stage.testers[0].write(unanswered.map { .error(transfer: $0, failure: .cancelled) }, on: out) }
        return (taken, numbers.filter { !taken.contains($0) })
    }

    /// Whether the subject takes a file of `size` bytes declared alone; cancelled either way.
    mutating func takesAlone(fileOf size: UInt64) async throws -> Bool {
        let alone = try await declare(1, .file, size: size, "a file's header")
        try await cancel(alone.taken)
        return !alone.taken.isEmpty
    }

    /// Cancels `numbers` as their sender would, and waits until the subject reports each failed
    /// as cancelled by its sender; any other end is the subject's failure (a thrown verdict).
    func cancel(_ numbers: [UInt32]) async throws {
        guard !numbers.isEmpty else { return }
        try await stage.testers[0].write(numbers.map { .error(transfer: $0, failure: .cancelled) }, on: out)
        let id = theirs
        for number in numbers {
            let error = try await stage.expectSubject("end of transfer \(number), which its sender cancelled (error cancelled),") { Self.report($0, on: id, transfer: number) ?? nil }
            guard error == .remote(.cancelled) else {
                throw SparkVerdict.fail("transfer \(number), which its sender cancelled (error cancelled), ended \(error) at the subject, not as cancelled by the remote side")
            }
        }
    }

    /// What an event reports of incoming transfer `transfer` on `id`: its error, nil while it
    /// goes on (`.some(nil)`); nil when the event is of something else.
    static func report(_ event: SparkEvent, on id: SparkConnectionID, transfer: UInt32) -> SparkTransferError?? {
        switch event {
        case .dataAvailable(id, let data) where data.kind == .data && data.id == transfer: .some(data.error)
        case .fileAvailable(id, let file) where file.transfer == transfer: .some(file.error)
        default: nil
        }
    }
}
