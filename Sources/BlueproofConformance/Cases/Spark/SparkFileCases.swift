import BlueproofAsync
import BlueproofSpark
import Foundation

/// SPK/FILE: data blocks and files ("Data and Files", "Receiving Data").
enum SparkFileCases {
    static let all: [SparkCase] = [vanishedSource, linkLost, beforeCallbacks, sendProgress, receiveData, fileName, receivedFile]

    /// What is wrong with a transfer's send progress, or nil: fractions strictly rising within
    /// (0, 1], at least one short of 1 (none for an `empty` one), then `done` at 1 with no error.
    static func progressFault(_ progress: [SparkProgress], empty: Bool = false) -> String? {
        guard let last = progress.last, last.done, last.error == nil, last.fraction == 1 else {
            return "the send ended with \(progress.last.map { "\($0)" } ?? "nothing"), not done at 1"
        }
        let dones = progress.filter(\.done).count
        guard dones == 1 else { return "the send reported done \(dones) times" }
        let fractions = progress.dropLast().map(\.fraction)
        guard fractions.allSatisfy({ $0 != nil }) else { return "a progress event had no fraction" }
        let values = fractions.compactMap { $0 }
        guard zip(values, values.dropFirst()).allSatisfy({ $0 < $1 }), values.allSatisfy({ $0 > 0 && $0 <= 1 }) else {
            return "progress did not rise steadily: \(values)"
        }
        guard empty || values.contains(where: { $0 < 1 }) else { return "no progress before done (\(values))" }
        return nil
    }

    /// Progress as the receive callbacks must report it: fractions in (0, 1] that rise.
    static func rising(_ fractions: [Double]) -> Bool {
        zip(fractions, fractions.dropFirst()).allSatisfy { $0 < $1 } && fractions.allSatisfy { $0 > 0 && $0 <= 1 }
    }

    /// The first end (complete or failed) of an incoming file named `name` on `id`.
    static func fileEnd(_ id: SparkConnectionID, _ name: String) -> @Sendable (SparkEvent) -> SparkFileData? {
        { event in
            if case .fileAvailable(id, let file) = event, file.name == name, file.transferComplete || file.error != nil { file } else { nil }
        }
    }

    /// Matches the end (complete or failed) of a data block on `id` that `which` picks.
    static func dataEnd(_ id: SparkConnectionID, _ which: @escaping @Sendable (SparkChannelData) -> Bool) -> @Sendable (SparkEvent) -> SparkChannelData? {
        { event in
            if case .dataAvailable(id, let data) = event, which(data), data.transferComplete || data.error != nil { data } else { nil }
        }
    }

    /// A file removed from its path mid-send fails the transfer on both sides: the sender's
    /// progress ends with the error, the receiver gets the error and no file; with the subject
    /// receiving too. A receiver's `error` frame fails the one send it names. A file replaced by
    /// a folder mid-send, which opens but cannot be read, fails the same way and never stalls.
    static let vanishedSource = SparkCase("SPK/FILE/BI-01", brokenBy: [.vanishedFileEndsAsDone, .remoteErrorIgnored, .remoteErrorCancelsAll, .refusedSendGoesOn,
                                                                      .remoteErrorCancelsStreams, .unreadableFileStalls]) { stage in
        let (out, incoming) = try await stage.subjectSending()
        // Receiving: the sender's file vanishes; the subject reports the sender's failure and keeps no file.
        try await stage.subject.setReceiveCallbacks(out, data: true, file: true)
        let theirs = try stage.testers[0].placeFile(sparkPattern(1 << 20, seed: 2), named: "vanishing-there.bin")
        _ = try await stage.testers[0].perform { try $0.sendFile(theirs, on: incoming) }
        try FileManager.default.removeItem(atPath: theirs)
        let lost = try await stage.expectSubject("end of the file whose sender lost it", fileEnd(out, "vanishing-there.bin"))
        guard !lost.transferComplete, lost.path == nil, lost.error == .remote(.sourceUnavailable) else {
            return .fail("a file whose sender lost it mid-send was reported \(lost), not failed by the sender (source unavailable) with no file")
        }
        guard try await stage.subject.readFile(at: "\(stage.subject.cacheFolder)/vanishing-there.bin") == nil else {
            return .fail("a file whose sender lost it mid-send was left in the cache folder")
        }
        if let wrong = try await refusedByReceiver(stage, out: out, incoming: incoming) { return .fail(wrong) }
        let vanished = try await spoiledSend(stage, out: out, incoming: incoming, "vanishing.bin", leavingFolder: false)
        // The failed send is over: the next goes out, and the failed one never ends again.
        let after = sparkPattern(100, seed: 9)
        let next = try await stage.subject.send(after, description: "after the vanished file", on: out)
        if let failed = try await stage.subjectSend(next, on: out).last?.error {
            return .fail("a data block the subject sent after its file vanished mid-send failed at the subject: \(failed)")
        }
        let arrived = try await stage.expectTester(0, "the data block sent after the vanished file", within: SparkStage.transferTimeout, dataEnd(incoming) { $0.description == "after the vanished file" })
        guard arrived.transferComplete, arrived.data == after else { return .fail("a data block the subject sent after its file vanished mid-send arrived as \(SparkEvent.dataAvailable(incoming, arrived)), not whole") }
        let ends = stage.subjectProgress(vanished, on: out).filter { $0.done || $0.error != nil }
        guard ends.count == 1 else { return .fail("the send of a file that vanished mid-send ended \(ends.count) times (\(ends.map(\.description).joined(separator: ", "))), not once") }
        // A read that fails on a path still there must end the send too, not be retried forever.
        _ = try await spoiledSend(stage, out: out, incoming: incoming, "unreadable.bin", leavingFolder: true)
        return .pass("the file removed mid-send failed the transfer once: sourceUnavailable at the sender, the error and no file at the receiver, the subject sending and receiving; the subject's next send arrived whole; a file that became a folder mid-send failed the same way")
    }

    /// The subject sends a 1 MiB file `name` and removes it mid-send (`leavingFolder`: a folder
    /// takes its place, so it opens but cannot be read). The send must end failed with
    /// `sourceUnavailable`, not done, and the tester get the error and no file. Returns the
    /// send's id; throws the verdict otherwise.
    static func spoiledSend(_ stage: SparkStage, out: SparkConnectionID, incoming: SparkConnectionID, _ name: String,
                            leavingFolder: Bool) async throws -> UInt64 {
        let what = leavingFolder ? "became a folder" : "vanished"
        let path = try await stage.subject.placeFile(sparkPattern(1 << 20), at: "bi-01/\(name)")
        let send = try await stage.subject.sendFile(path, on: out)
        try await stage.subject.removeFile(at: path, leavingFolder: leavingFolder)
        let heldAtRemoval = received(stage, name, on: incoming)
        let progress = try await endOrStall(stage, send, on: out, receivedAs: name, on: incoming, "the send of a file that \(what) mid-send")
        let atTester = try await stage.expectTester(0, "the end of the file", within: SparkStage.transferTimeout, fileEnd(incoming, name))
        if let last = progress.last, last.done, last.error == nil {
            guard atTester.transferComplete else {
                throw SparkVerdict.fail("the subject reported the send done although its file \(what) mid-transfer; the receiver got \(atTester.error.map { "\($0)" } ?? "no file")")
            }
            // The document only asks the application to keep the file in place ("You must ensure
            // that the file remains at the specified path"): a sender that read it ahead, or reads
            // an open handle, may finish. That cannot be judged, so it is never a pass.
            throw SparkVerdict(outcome: .inconclusive(heldAtRemoval < 0.5
                ? "all of the file arrived though it \(what) when the peer held \(Int(heldAtRemoval * 100))% of it: the implementation does not read it from its path as it goes, so what that does cannot be seen"
                : "the whole file had left before it \(what)"))
        }
        guard case .sourceUnavailable? = progress.last?.error else {
            throw SparkVerdict.fail("the send of a file that \(what) mid-send failed with \(String(describing: progress.last?.error)), not source unavailable")
        }
        guard progress.last?.done == false else {
            throw SparkVerdict.fail("the send of a file that \(what) mid-send ended failed and done at once (\(progress.last.map(\.description) ?? "")): a failed send is not done")
        }
        guard !atTester.transferComplete, atTester.path == nil, atTester.error == .remote(.sourceUnavailable) else {
            throw SparkVerdict.fail("the receiver of a file that \(what) mid-send got \(atTester)")
        }
        return send
    }

    /// The subject's progress reports of `send` up to its end (done or failed). It may take up
    /// to a transfer's time while it moves: the subject's progress rises, or the tester's of the
    /// file `name` it receives (a sender that read ahead may report all of it at once and go
    /// quiet while it drains). Neither moving for a callback's time, it stalled.
    static func endOrStall(_ stage: SparkStage, _ send: UInt64, on out: SparkConnectionID, receivedAs name: String, on incoming: SparkConnectionID,
                           _ what: String) async throws -> [SparkProgress] {
        let deadline = ContinuousClock.now + SparkStage.transferTimeout
        while ContinuousClock.now < deadline {
            let (reached, arrived) = (stage.subjectProgress(send, on: out).compactMap(\.fraction).max() ?? -1, received(stage, name, on: incoming))
            do {
                let step = try await stage.subject.events.first("progress of send \(send)", within: SparkStage.eventTimeout) { event -> SparkProgress? in
                    if case .sendProgress(out, send, let progress) = event, progress.done || progress.error != nil || (progress.fraction ?? -1) > reached { progress } else { nil }
                }
                if step.done || step.error != nil { return stage.subjectProgress(send, on: out) }
            } catch is TimeoutError {
                guard received(stage, name, on: incoming) > arrived else {
                    throw SparkVerdict.fail("\(what) stalled: for \(SparkStage.eventTimeout) no progress and no end at the subject, nothing more of it at the receiver; "
                        + (reached < 0 ? "no progress before" : "\(Int(reached * 100))% sent, \(Int(arrived * 100))% received"))
                }
            }
        }
        throw SparkVerdict.fail("\(what) never ended within \(SparkStage.transferTimeout)")
    }

    /// How much of the file `name` tester 0 reported receiving on `incoming` so far (0 to 1).
    static func received(_ stage: SparkStage, _ name: String, on incoming: SparkConnectionID) -> Double {
        stage.testers[0].events.events.compactMap { event -> Double? in
            if case .fileAvailable(incoming, let file) = event, file.name == name { file.progress } else { nil }
        }.max() ?? 0
    }

    /// A receiver's `error` frame fails the one send it names, and that send stops
    /// (docs/spark-wire.md, "Data and files"). The subject sends a short data block, then, with
    /// credits withheld, a 512 KiB one, a stream send and a short block. Once a chunk of the
    /// large block arrived, the tester writes three `error` frames: `refused` naming the first
    /// block, already done, and the stream's channel (both must change nothing), then
    /// `storageFailed` naming the large one. The large send must end once, failed by its peer
    /// with storage failed, and never arrive whole; the stream send and the block behind must
    /// complete and arrive whole. The subject must read the frames while its sends wait for
    /// credits. Why not, or nil.
    static func refusedByReceiver(_ stage: SparkStage, out: SparkConnectionID, incoming: SparkConnectionID) async throws -> String? {
        let tester = stage.testers[0]
        let names = ["bi-01 done before the refusals", "bi-01 failed by its receiver", "bi-01 queued behind the failed"]
        let blocks = [sparkPattern(1000, seed: 25), sparkPattern(512 << 10, seed: 23), sparkPattern(1000, seed: 24)]
        var sends = [try await stage.subject.send(blocks[0], description: names[0], on: out)]
        guard let sent = try await stage.subjectSend(sends[0], on: out).last, sent.done, sent.error == nil else {
            return "a 1000-byte data block, the first sent, ended \(stage.subjectProgress(sends[0], on: out).last.map { "\($0)" } ?? "nothing"), not done"
        }
        let doneNumber = try await stage.expectTester(0, "the 1000-byte data block sent first", within: SparkStage.transferTimeout) { event -> UInt32? in
            if case .dataAvailable(incoming, let data) = event, data.description == names[0], data.transferComplete { data.id } else { nil }
        }
        // A stream send queued between the two: an `error` frame names a transfer, never a stream.
        let channel = try await stage.subject.createDataChannel(out, description: "bi-01 stream beside the failed"), streamed = sparkPattern(3000, seed: 26)
        var stream: UInt64 = 0
        let stall = try await stage.stall(0) {
            sends.append(try await stage.subject.send(blocks[1], description: names[1], on: out))
            stream = try await stage.subject.send(streamed, toChannel: channel, on: out)
            sends.append(try await stage.subject.send(blocks[2], description: names[2], on: out))
        }
        guard stall == .creditsUsed else { throw StageFailure(.tester, "the subject's data blocks did not use up the credits it held (\(stall)): the error frame could not find one queued") }
        // Withheld credits can cut the first chunk part-way: the tester lends one grant at a time
        // until a whole chunk arrived.
        let chunk: @Sendable (SparkEvent) -> UInt32? = { event in
            if case .dataAvailable(incoming, let data) = event, data.kind == .data, data.description == names[1] { data.id } else { nil }
        }
        let deadline = ContinuousClock.now + SparkStage.transferTimeout
        var number = try? await tester.events.first("a chunk of the data block it fails", within: .seconds(1), chunk)
        while number == nil, ContinuousClock.now < deadline, try await stage.lend(0) == .creditsUsed {
            number = try? await tester.events.first("a chunk of the data block it fails", within: .seconds(1), chunk)
        }
        guard let number else { return "tester 1 never received a whole chunk of a 512 KiB data block within \(SparkStage.transferTimeout), lending credits one grant at a time" }
        if let early = stage.subjectProgress(sends[1], on: out).last, early.done {
            throw StageFailure(.tester, "the 512 KiB data block was sent whole before the tester saw a chunk of it: the error frame could not find it queued")
        }
        // Two that name no queued transfer and must change nothing: the block already done, and
        // the stream's channel (ids of channels and transfers never collide).
        try await tester.write([.error(transfer: doneNumber, failure: .refused), .error(transfer: channel, failure: .refused),
                                .error(transfer: number, failure: .storageFailed)], on: incoming)
        let end = try await stage.expectSubject("end of the data block its receiver failed", SparkStage.end(of: sends[1], on: out))
        try await tester.node.withholdCredits(false, from: stage.subject.registrationID)
        guard end.error == .remote(.storageFailed) else {
            return "a data block its receiver failed (an error frame naming it, storage failed, sent while it was queued, after ones naming a block already done and a stream's channel) ended \(end), not failed by its peer with storage failed"
        }
        guard let last = try await stage.subjectSend(sends[2], on: out).last, last.done, last.error == nil else {
            return "the data block queued behind one its receiver failed ended \(stage.subjectProgress(sends[2], on: out).last.map { "\($0)" } ?? "nothing"), not done"
        }
        let arrived = try await stage.expectTester(0, "the data block queued behind the failed one", within: SparkStage.transferTimeout) { event -> [UInt8]? in
            if case .dataAvailable(incoming, let data) = event, data.description == names[2], data.transferComplete || data.error != nil { data.data } else { nil }
        }
        guard arrived == blocks[2] else { return "the data block queued behind one its receiver failed arrived as \(arrived.count) bytes, not the \(blocks[2].count) sent" }
        guard let streamEnd = try await stage.subjectSend(stream, on: out).last, streamEnd.done, streamEnd.error == nil else {
            return "a stream send queued behind a data block its receiver failed ended \(stage.subjectProgress(stream, on: out).last.map { "\($0)" } ?? "nothing"), not done: the error frame named a transfer, not the stream"
        }
        let log = tester.events
        let streamBytes = try await stage.expectTester(0, "the \(streamed.count) bytes of a stream send reported done") { _ -> [UInt8]? in
            let bytes = sparkChannelBytes(log, on: incoming, channel: channel)
            return bytes.count >= streamed.count ? bytes : nil
        }
        guard streamBytes == streamed else { return "the stream send queued behind a data block its receiver failed was reported done, but its peer received \(streamBytes.count) bytes that differ from the \(streamed.count) sent" }
        // Sent in queue order, all of the failed block would have arrived before the one behind it.
        let failed = tester.events.events.compactMap { event -> SparkChannelData? in
            if case .dataAvailable(incoming, let data) = event, data.kind == .data, data.description == names[1] { data } else { nil }
        }
        if let sign = failed.first(where: { $0.transferComplete || ($0.progress ?? 0) >= 1 || $0.error.map({ if case .remote = $0 { false } else { true } }) == true }) {
            return "the data block its receiver failed was reported failed but still sent: the receiver got \(sign.transferComplete ? "it whole" : sign.error.map { "\($0)" } ?? "all its bytes")"
        }
        for (index, what) in [(1, "the data block its receiver failed"), (0, "a data block done before an error frame named it")] {
            let reports = stage.subjectProgress(sends[index], on: out), ends = reports.filter { $0.done || $0.error != nil }
            guard ends.count == 1, reports.last == ends.first else {
                return "\(what) was reported \(reports.map { "\($0)" }), not ended once with nothing after"
            }
        }
        return nil
    }

    /// An incoming file cut by a lost link is reported failed with no file, and none is left
    /// under its name in the cache folder; the lost link ends the connection (`linkLost`,
    /// docs/spark-wire.md "Transport").
    static let linkLost = SparkCase("SPK/FILE/BI-02", brokenBy: [.completeOnLinkLoss, .linkLossKeepsConnection]) { stage in
        let (theirs, out) = try await stage.subjectReceiving()
        let tester = stage.testers[0]
        let content = sparkPattern(2 << 20, seed: 9)
        let path = try tester.placeFile(content, named: "bi-02.bin")
        let send = try await tester.perform { try $0.sendFile(path, on: out) }
        do {
            _ = try await tester.events.first("a tenth of the file sent", within: SparkStage.transferTimeout) { event -> Bool? in
                if case .sendProgress(out, send, let progress) = event, (progress.fraction ?? 0) >= 0.1 { true } else { nil }
            }
        } catch { throw StageFailure(.tester, "the tester's file did not start: \(error)") }
        try await tester.dropLink()
        let file = try await stage.expectSubject("the end of the file cut by the lost link", fileEnd(theirs, "bi-02.bin"))
        if file.transferComplete {
            var bytes: [UInt8]?
            if let path = file.path { bytes = try await stage.subject.readFile(at: path) }
            if bytes == content { return .inconclusive("the whole file arrived before the link dropped") }
            return .fail("a file cut by the lost link was reported complete (\(bytes?.count ?? 0) of \(content.count) bytes at \(file.path ?? "no path"))")
        }
        guard file.error != nil, file.path == nil else { return .fail("the failed file was reported \(file)") }
        guard try await stage.subject.readFile(at: "\(stage.subject.cacheFolder)/bi-02.bin") == nil else {
            return .fail("a partial file was left under its name in the cache folder")
        }
        // The lost link ends the connection itself, not only the file on it.
        let ended = try await stage.expectSubject("end of the connection whose link was lost", SparkConnectionCases.ending(theirs))
        guard case .ended(.linkLost, _) = ended else { return .fail("the connection whose link was lost ended with \(ended), not the lost link") }
        do {
            let channel = try await stage.subject.createDataChannel(theirs, description: "after the link was lost")
            return .fail("after its link was lost, the connection still took a channel (\(channel))")
        } catch is SparkError {}
        return .pass("the file cut by the lost link was reported with \(file.error.map { "\($0)" } ?? "an error") and no file; the connection ended with the link")
    }

    /// Data, stream blocks and files that arrive before the receive callbacks are set are
    /// dropped; once set, the next arrive. The two callbacks are separate: a file arriving with
    /// only the data callback set is dropped.
    static let beforeCallbacks = SparkCase("SPK/FILE/BI-03", brokenBy: [.deliversBeforeCallbacks, .oneCallbackForBoth]) { stage in
        try await stage.link(0)
        let (theirs, out) = try await stage.testerCalls(0)
        let tester = stage.testers[0]
        let early = try await tester.perform { try $0.createDataChannel(out, description: "early stream") }
        let path = try tester.placeFile(sparkPattern(10_000), named: "early.bin")
        var sends = [try await tester.perform { try $0.send(sparkPattern(500), toChannel: early, on: out) }]
        sends.append(try await tester.perform { try $0.send(sparkPattern(20_000), description: "early", on: out) })
        sends.append(try await tester.perform { try $0.sendFile(path, on: out) })
        // Once they have all arrived (dropped, as they must be), the callbacks are set.
        try await stage.settle(0, sends: sends, on: out, theirs: theirs)
        try await stage.subject.setReceiveCallbacks(theirs, data: true, file: true)
        let late = sparkPattern(3000, seed: 5)
        _ = try await tester.perform { try $0.send(late, description: "late", on: out) }
        let arrived = try await stage.expectSubject("the data sent after the callbacks were set", within: SparkStage.transferTimeout) { event -> [UInt8]? in
            if case .dataAvailable(theirs, let data) = event, data.description == "late", data.transferComplete { data.data } else { nil }
        }
        let delivered = stage.subject.events.events.filter { event in
            switch event {
            case .dataAvailable(theirs, let data): data.id == early || data.description == "early" || data.description == "early stream"
            case .fileAvailable(theirs, let file): file.name == "early.bin"
            default: false
            }
        }
        guard delivered.isEmpty else { return .fail("\(delivered.count) callback(s) for data sent before the callbacks were set") }
        guard arrived == late else { return .fail("the data sent after the callbacks were set arrived changed") }
        // The two callbacks are separate: with only the data callback set, a file is dropped.
        let (dataOnly, second) = try await stage.testerCalls(0, metadata: "data callback only")
        try await stage.subject.setReceiveCallbacks(dataOnly, data: true, file: false)
        let unwanted = try tester.placeFile(sparkPattern(10_000, seed: 3), named: "unwanted.bin")
        _ = try await tester.perform { try $0.sendFile(unwanted, on: second) }
        _ = try await tester.perform { try $0.send(late, description: "after the file", on: second) }
        _ = try await stage.expectSubject("the data sent after the file, with the data callback set", within: SparkStage.transferTimeout) { event -> Bool? in
            if case .dataAvailable(dataOnly, let data) = event, data.description == "after the file", data.transferComplete { true } else { nil }
        }
        let files = stage.subject.events.events.filter { if case .fileAvailable(dataOnly, _) = $0 { true } else { false } }
        guard files.isEmpty else { return .fail("with only the data callback set, a file was delivered: \(files.count) fileAvailable callback(s)") }
        return .pass("a stream block, a data block and a file sent before the callbacks were set were dropped; the next data arrived; with only the data callback set, a file was dropped")
    }

    /// A data block send reports rising progress, then completion; the peer gets it whole,
    /// under a description that would not do as a file name (only its length is bounded,
    /// docs/spark-wire.md "Bounds").
    static let sendProgress = SparkCase("SPK/FILE/BV-01", brokenBy: [.progressSkipped, .progressBackwards, .doneReportedTwice, .dataDescriptionAsFileName]) { stage in
        let (out, incoming) = try await stage.subjectSending()
        let block = sparkPattern(300_000, seed: 6), named = "bv-01/../block"
        let send: UInt64
        do { send = try await stage.subject.send(block, description: named, on: out) } catch let refusal as SparkError {
            return .fail("send(data, description:) refused the description \(named.debugDescription) (\(refusal)): only its length is bounded")
        }
        let progress = try await stage.subjectSend(send, on: out)
        if let fault = progressFault(progress) { return .fail(fault) }
        let arrived = try await stage.expectTester(0, "the data block", within: SparkStage.transferTimeout) { event -> [UInt8]? in
            if case .dataAvailable(incoming, let data) = event, data.description == named, data.transferComplete { data.data } else { nil }
        }
        guard arrived == block else { return .fail("the peer received \(arrived.count) bytes, not the \(block.count) sent") }
        // Judged again once the block arrived: nothing of the send's may follow its done.
        if let fault = progressFault(stage.subjectProgress(send, on: out)) { return .fail("once the block arrived: \(fault)") }
        return .pass("\(progress.count - 1) progress event(s) rising to 1, then done; the block arrived whole")
    }

    /// A received data block reports rising progress (fractions of the block), then
    /// `transferComplete` holding the data, under a description that would not do as a file
    /// name (only its length is bounded, docs/spark-wire.md "Bounds"); then the rest in
    /// SparkFileCases+Receiving.swift: odd descriptions, blocks coming in at once, files beside
    /// data in memory, an empty chunk.
    static let receiveData = SparkCase("SPK/FILE/BV-02", brokenBy: [.receivedDataDropped, .receiveProgressInBytes, .foreignTransferTaken, .filesCountedAsData,
                                                                    .dataDescriptionAsFileName, .emptyPayloadTaken, .refusalAsCancelled, .refusalUnsent]) { stage in
        let (theirs, out) = try await stage.subjectReceiving()
        // First a block under a transfer id of the subject's own numbering (frames the tester's
        // core never writes): it would collide with the subject's next transfer, so it is refused.
        // The subject numbers something of its own first, so its numbering is not at its start.
        let numbering = try await stage.subject.createDataChannel(theirs, description: "bv-02 numbering")
        let foreign: UInt32 = theirs.outgoing ? 1002 : 1001
        let stray = HandWrittenBlock(number: foreign, name: "bv-02 collides", bytes: [9, 9, 9])
        try await stage.testers[0].write([stray.header, stray.chunk(0..<3), .done(transfer: foreign)], on: out)
        let block = sparkPattern(300_000, seed: 7), named = "bv-02/../block"
        let send = try await stage.testers[0].perform { try $0.send(block, description: named, on: out) }
        let sent = try await stage.expectTester(0, "the end of the data block it sent", within: SparkStage.transferTimeout, SparkStage.end(of: send, on: out))
        if let error = sent.error, error != .remote(.refused) { return .fail("the \(block.count)-byte data block ended \(error) at its sender") }
        // A refusal may also come after the send left whole; the tester's core then reports an
        // error frame of its own numbering that no send of its names.
        let late = try await stage.refusedTransfers(0, out: out, theirs: theirs, after: "the data block")
        if sent.error != nil || late.keys.contains(where: { $0 % 2 != foreign % 2 }) {
            return .fail("a data block described \(named.debugDescription) was refused: a data block's description may hold what a file name may not (only its length is bounded)")
        }
        if let reason = late[foreign], reason != .refused {
            return .fail("the peer sent a block under transfer id \(foreign), of the subject's own numbering, and the subject refused it with \(reason.debugDescription), not refused")
        }
        _ = try await stage.expectSubject("the data block's end", within: SparkStage.transferTimeout, dataEnd(theirs) { $0.description == named })
        let reports = stage.subject.events.events.compactMap { event -> SparkChannelData? in
            if case .dataAvailable(theirs, let data) = event, data.description == named { data } else { nil }
        }
        guard let last = reports.last, last.transferComplete, last.error == nil, last.kind == .data else {
            return .fail("the block ended with \(String(describing: reports.last))")
        }
        let before = reports.dropLast()
        let fractions = before.compactMap(\.progress)
        guard !before.isEmpty, before.allSatisfy({ !$0.transferComplete && $0.error == nil }), fractions.count == before.count, rising(fractions) else {
            return .fail("progress before transferComplete was \(fractions) over \(before.count) report(s), not fractions in (0, 1] that rise")
        }
        guard last.data == block else { return .fail("transferComplete held \(last.data.count) bytes, not the \(block.count) sent") }
        let collided = stage.subject.events.events.filter { if case .dataAvailable(theirs, let data) = $0 { data.description == "bv-02 collides" } else { false } }
        guard collided.isEmpty else {
            return .fail("the peer sent a block under transfer id \(foreign), of the subject's own numbering, and the subject took it: \(collided)")
        }
        // Refused, not dropped: its sender must hear of it (docs/spark-wire.md, "Header").
        guard late[foreign] != nil else {
            return .fail("the peer sent a block under transfer id \(foreign), of the subject's own numbering, and the subject dropped it: the sender was never told (error refused)")
        }
        try await stage.subject.closeDataChannel(theirs, channel: numbering)
        if let odd = try await oddDescriptions(stage, out: out, theirs: theirs, before: Set(late.keys)) { return .fail(odd) }
        let first: UInt32 = theirs.outgoing ? 3001 : 3002
        if let verdict = try await interleavedBlocks(stage, first: first, out: out, theirs: theirs) { return verdict }
        // Judged whatever the room's verdict: an inconclusive room must not hide the last rule.
        let beside = try await besideFile(stage, out: out, theirs: theirs)
        if beside.verdict == .fail { return beside }
        if let fault = try await dataPastBound(stage, number: first + 10, out: out, theirs: theirs) { return .fail(fault) }
        if let fault = try await emptyChunk(stage, number: first + 8, out: out, theirs: theirs) { return .fail(fault) }
        guard beside.verdict == .pass else { return beside }
        return .pass("\(before.count) rising progress report(s), then transferComplete holding the \(block.count) bytes; blocks described \"\", \".\", \"..\" and with a NUL arrived; blocks with interleaved frames arrived whole, and one cancelled midway failed; a block past the 16 MiB bound was not taken; \(beside.reason); an empty chunk added no progress")
    }

    /// A file send names the file by its path's last component, reports progress and completes;
    /// an empty file too (done at 1, every fraction in (0, 1]), arriving empty under its name.
    static let fileName = SparkCase("SPK/FILE/BV-03", brokenBy: [.fileNameFromFirstComponent, .doneReportedTwice, .emptySendDoneAtZero]) { stage in
        let (out, incoming) = try await stage.subjectSending()
        let content = sparkPattern(200_000, seed: 8)
        let path = try await stage.subject.placeFile(content, at: "bv-03/nested/bv-03.bin")
        let send = try await stage.subject.sendFile(path, on: out)
        let progress = try await stage.subjectSend(send, on: out)
        if let fault = progressFault(progress) { return .fail(fault) }
        let file = try await stage.expectTester(0, "the file's end", within: SparkStage.transferTimeout) { event -> SparkFileData? in
            if case .fileAvailable(incoming, let file) = event, file.transferComplete || file.error != nil { file } else { nil }
        }
        guard file.name == "bv-03.bin" else { return .fail("the file from \(path) arrived named \"\(file.name)\", not \"bv-03.bin\"") }
        guard file.transferComplete, let received = file.path,
              FileManager.default.contents(atPath: received).map(Array.init) == content else { return .fail("the file arrived as \(file)") }
        if let fault = progressFault(stage.subjectProgress(send, on: out)) { return .fail("once the file arrived: \(fault)") }
        if let fault = try await emptyFileSent(stage, out: out, incoming: incoming) { return .fail(fault) }
        return .pass("the file arrived named bv-03.bin, whole, after rising progress and done; an empty file arrived empty after done at 1")
    }

    /// The subject sends an empty file: its progress ends done at 1 with every fraction in
    /// (0, 1] (nothing is short of 1 when there is nothing to send), and it arrives complete and
    /// empty under its name. Why not, or nil.
    static func emptyFileSent(_ stage: SparkStage, out: SparkConnectionID, incoming: SparkConnectionID) async throws -> String? {
        let path = try await stage.subject.placeFile([], at: "bv-03/empty.bin")
        let send = try await stage.subject.sendFile(path, on: out)
        let progress = try await stage.subjectSend(send, on: out)
        if let fault = progressFault(progress, empty: true) { return "sending an empty file: \(fault)" }
        let file = try await stage.expectTester(0, "the empty file's end", within: SparkStage.transferTimeout, fileEnd(incoming, "empty.bin"))
        guard file.transferComplete, let received = file.path, FileManager.default.contents(atPath: received)?.isEmpty == true else {
            return "the empty file from \(path) arrived as \(file), not complete and empty under its name"
        }
        if let fault = progressFault(stage.subjectProgress(send, on: out), empty: true) { return "once the empty file arrived: \(fault)" }
        return nil
    }

    /// `frame`, a `transferHeader` encoded with the one-byte name `x` (its last field), named
    /// `name` instead: names the encoder refuses to write.
    static func renamed(_ frame: [UInt8], to name: String) -> [UInt8] {
        let bytes = Array(name.utf8)
        return SparkTester.replacingTail(of: frame, dropping: 2, with: [UInt8(bytes.count)] + bytes)
    }

    /// Two files coming in at once (the wire allows 16 per connection), their frames interleaved
    /// as the tester writes them: each must be stored whole under its own name. Why not, or nil.
    static func overlappingFiles(_ stage: SparkStage, theirs: SparkConnectionID, out: SparkConnectionID) async throws -> String? {
        let names = ["bv-04-first.bin", "bv-04-second.bin"]
        let contents = [sparkPattern(5000, seed: 20), sparkPattern(7000, seed: 21)]
        let numbers = [UInt32(1101), 1103].map { theirs.outgoing ? $0 : $0 + 1 }  // the tester's numbering
        var frames = zip(numbers, zip(names, contents)).map { number, file in HandWrittenBlock(number: number, kind: .file, name: file.0, bytes: file.1).header }
        for start in stride(from: 0, to: contents.map(\.count).max() ?? 0, by: 1000) {
            for (number, content) in zip(numbers, contents) where start < content.count {
                frames.append(.chunk(transfer: number, bytes: Array(content[start..<min(start + 1000, content.count)])))
            }
        }
        try await stage.testers[0].write(frames + numbers.map { .done(transfer: $0) }, on: out)
        for (name, content) in zip(names, contents) {
            let file = try await stage.expectSubject("the end of \(name), one of two files sent at once", within: SparkStage.transferTimeout, fileEnd(theirs, name))
            guard file.transferComplete, let path = file.path, path == "\(stage.subject.cacheFolder)/\(name)", try await stage.subject.readFile(at: path) == content else {
                return "of two files sent at once, their chunks interleaved, \(name) was reported \(file), not stored whole under its name"
            }
        }
        return nil
    }

    /// A received file is complete only verified, then in the cache folder under its name, a
    /// name of the wire's full 255 bytes, an empty file and a 1-byte one too, its progress a fraction in
    /// (0, 1] whenever reported; one whose bytes disagree with its SHA-256 fails
    /// with no file; one whose name is a path (`../`, written by the tester as its encoder never
    /// would) is refused, never written.
    static let receivedFile = SparkCase("SPK/FILE/BV-04", brokenBy: [.digestUnchecked, .incomingFileProgressSilent, .fileNamePathTaken, .partialNamedAfterFile, .overlappingFilesShareHandle,
                                                                     .emptyFileNeverCreated, .refusedTransferKept, .refusalUnsent, .oneByteWriteFails, .refusalAsCancelled]) { stage in
        let (theirs, out) = try await stage.subjectReceiving()
        let tester = stage.testers[0]
        // Files of the tester's numbering whose names are not one path component.
        let escape: [UInt8] = [0x45, 0x53, 0x43], badNames = ["../bv-04-escape.bin", "..", ".", "", "bv-04-nul\u{0}.bin"]
        let badNumbers = badNames.indices.map { UInt32(theirs.outgoing ? 1001 : 1002) + 2 * UInt32($0) }
        for (name, number) in zip(badNames, badNumbers) {
            let header = SparkTransferHeader(transfer: number, kind: .file, size: UInt64(escape.count), sha256: SparkDigest.sha256(of: escape), name: "x")
            try await tester.write([.transferHeader(header)], on: out, rewrite: { renamed($0, to: name) })
            try await tester.write([.chunk(transfer: number, bytes: escape), .done(transfer: number)], on: out)
        }
        let content = sparkPattern(200_000, seed: 10)
        let path = try tester.placeFile(content, named: "bv-04.bin")
        _ = try await tester.perform { try $0.sendFile(path, on: out) }
        let file = try await stage.expectSubject("the file's end", within: SparkStage.transferTimeout, fileEnd(theirs, "bv-04.bin"))
        let cache = stage.subject.cacheFolder
        guard file.transferComplete, let received = file.path, received == "\(cache)/bv-04.bin" else {
            return .fail("the file was reported \(file), not complete at \(cache)/bv-04.bin")
        }
        guard try await stage.subject.readFile(at: received) == content else { return .fail("the file at \(received) is not the bytes sent") }
        // A name of the most bytes the wire and the file system take.
        let longName = "bv-04-" + String(repeating: "n", count: SparkLimits.maxNameBytes - 10) + ".bin"
        let long = sparkPattern(3000, seed: 12)
        _ = try await tester.perform { try $0.sendFile(try tester.placeFile(long, named: longName), on: out) }
        let longFile = try await stage.expectSubject("the end of the file with a \(longName.utf8.count)-byte name", within: SparkStage.transferTimeout, fileEnd(theirs, longName))
        guard longFile.transferComplete, let longPath = longFile.path, longPath == "\(cache)/\(longName)",
              try await stage.subject.readFile(at: longPath) == long else {
            return .fail("a file with a name of \(longName.utf8.count) bytes, the wire's limit, was reported \(longFile), not complete under its name in \(cache)")
        }
        if let wrong = try await overlappingFiles(stage, theirs: theirs, out: out) { return .fail(wrong) }
        // An empty file (the wire's size 0): stored, empty, under its name.
        let emptyName = "bv-04-empty.bin"
        _ = try await tester.perform { try $0.sendFile(try tester.placeFile([], named: emptyName), on: out) }
        let empty = try await stage.expectSubject("the end of an empty file", within: SparkStage.transferTimeout, fileEnd(theirs, emptyName))
        guard empty.transferComplete, empty.path == "\(cache)/\(emptyName)", try await stage.subject.readFile(at: "\(cache)/\(emptyName)") == [] else {
            return .fail("an empty file was reported \(empty), not complete and empty under its name in \(cache)")
        }
        // A file of one byte: one chunk of one byte, stored whole.
        let oneName = "bv-04-one.bin"
        _ = try await tester.perform { try $0.sendFile(try tester.placeFile([0x5A], named: oneName), on: out) }
        let one = try await stage.expectSubject("the end of a 1-byte file", within: SparkStage.transferTimeout, fileEnd(theirs, oneName))
        guard one.transferComplete, one.path == "\(cache)/\(oneName)", try await stage.subject.readFile(at: "\(cache)/\(oneName)") == [0x5A] else {
            return .fail("a 1-byte file was reported \(one), not complete under its name in \(cache) holding its byte")
        }
        // Every report of a file not failed, the complete ones too, gives a fraction of it.
        let outside = stage.subject.events.events.compactMap { event -> String? in
            guard case .fileAvailable(theirs, let report) = event, report.error == nil, !(report.progress > 0 && report.progress <= 1) else { return nil }
            return "\(report.name) \(report.progress)"
        }
        guard outside.isEmpty else { return .fail("incoming files were reported with progress outside (0, 1], not a fraction of the file: \(outside)") }
        // Refused in any form (ignored, or reported failed with no path), never stored.
        let taken = stage.subject.events.events.compactMap { event -> SparkFileData? in
            if case .fileAvailable(theirs, let file) = event, badNumbers.contains(file.transfer), file.transferComplete || file.path != nil { file } else { nil }
        }
        guard taken.isEmpty else {
            return .fail("the peer sent files named \(badNames.map { "\($0.debugDescription)" }.joined(separator: ", ")), none of them one path component, and the subject stored \(taken.map { "\($0.name.debugDescription) at \($0.path ?? "no path")" }) instead of refusing the header")
        }
        // Where a subject that joins the name to its folder would have written it.
        if (try? await stage.subject.readFile(at: "\(cache)/../bv-04-escape.bin")) != nil {
            return .fail("a file the peer named ../bv-04-escape.bin was written outside the cache folder, beside it")
        }
        // "Incoming files are handled similarly" to data blocks: progress while it arrives, no path before the end.
        let before = stage.subject.events.events.compactMap { event -> SparkFileData? in
            if case .fileAvailable(theirs, let report) = event, report.name == "bv-04.bin" { report } else { nil }
        }.dropLast()
        guard !before.isEmpty, before.allSatisfy({ !$0.transferComplete && $0.path == nil && $0.error == nil }), rising(before.map(\.progress)) else {
            return .fail("before its end the incoming file was reported \(before.count) time(s), progress \(before.map(\.progress)), "
                + "not with fractions in (0, 1] that rise and no path")
        }
        let altered = try tester.placeFile(sparkPattern(200_000, seed: 11), named: "bv-04-altered.bin")
        let alteredSend = try await tester.perform { try $0.sendFile(altered, on: out) }
        let bad = try await stage.expectSubject("the end of a file whose bytes disagree with its SHA-256", within: SparkStage.transferTimeout,
                                                fileEnd(theirs, "bv-04-altered.bin"))
        guard !bad.transferComplete, bad.path == nil, bad.error != nil else {
            return .fail("a file whose bytes disagree with its SHA-256 was reported \(bad)")
        }
        guard try await stage.subject.readFile(at: "\(cache)/bv-04-altered.bin") == nil else {
            return .fail("the unverified file was left under its name in the cache folder")
        }
        // Its sender is told, with the receiver's reason ("Transfer failures": a digest mismatch is
        // `refused`), as its send fails or, once done, as an error frame it holds no send for.
        let subject = stage.subject.registrationID, number = bad.transfer
        let told = try await stage.expectTester(0, "an error frame for the file that failed its SHA-256 at the subject (the sender was never told)") { event -> SparkTransferFailure? in
            switch event {
            case .sendProgress(out, send: alteredSend, let progress): if case .remote(let failure)? = progress.error { failure } else { nil }
            case .ignored(subject, .unknownTransfer(out, number, let failure?)): failure
            default: nil
            }
        }
        guard told == .refused else {
            return .fail("the subject refused a file whose bytes disagree with its SHA-256 with \(told.debugDescription), not refused (docs/spark-wire.md \"Transfer failures\")")
        }
        if let wrong = try await overlongFile(stage, theirs: theirs, out: out) { return .fail(wrong) }
        return .pass("the verified file was in the cache folder once complete, a 255-byte name too, an empty one, a 1-byte one, and two sent at once with their chunks interleaved each whole, progress always in (0, 1]; one failing its SHA-256 was refused with no file, one longer than its header said failed once, and names that are not one path component were refused")
    }

    /// A file whose chunks carry more bytes than its header declares fails, once, with no file
    /// (docs/spark-wire.md, "Exchange", data and files: the size is checked as chunks arrive): the refused
    /// transfer is forgotten, so what the tester writes for it after the excess (a chunk that
    /// would fit what was left, then `done`) ends nothing again; an `error` frame for it tells
    /// the sender. A file the tester sends next marks the end of those frames (the subject's
    /// events come in order). Why not, or nil.
    static func overlongFile(_ stage: SparkStage, theirs: SparkConnectionID, out: SparkConnectionID) async throws -> String? {
        let name = "bv-04-overlong.bin", content = sparkPattern(3000, seed: 22)
        let number: UInt32 = theirs.outgoing ? 1201 : 1202  // the tester's numbering
        let file = HandWrittenBlock(number: number, kind: .file, name: name, bytes: content)
        try await stage.testers[0].write([
            file.header, file.chunk(0..<2000),
            file.chunk(1000..<3000),  // 2000 bytes where 1000 are left
            file.chunk(2000..<3000), .done(transfer: number),
        ], on: out)
        let marker = "bv-04-after-overlong.bin"
        _ = try await stage.testers[0].perform { try $0.sendFile(try stage.testers[0].placeFile([0x4D], named: marker), on: out) }
        _ = try await stage.expectSubject("the end of the file sent after one longer than its header said", within: SparkStage.transferTimeout, fileEnd(theirs, marker))
        let ends = stage.subject.events.events.compactMap { event -> SparkFileData? in
            if case .fileAvailable(theirs, let file) = event, file.transfer == number, file.transferComplete || file.error != nil { file } else { nil }
        }
        guard ends.count == 1, let end = ends.first, !end.transferComplete, end.path == nil else {
            return "a file with 4000 bytes in its chunks where its header said 3000, and frames for it after the excess, was reported \(ends.count) time(s) at its end: \(ends), not failed once with no file"
        }
        guard try await stage.subject.readFile(at: "\(stage.subject.cacheFolder)/\(name)") == nil else {
            return "a file longer than its header said was left under its name in the cache folder"
        }
        // The refusal's `error` frame reaches the tester, whose core holds no such send (it wrote the frames by hand).
        let subject = stage.subject.registrationID
        let failure = try await stage.expectTester(0, "an error frame for the file longer than its header said, which failed at the subject (the sender was never told)") { event -> SparkTransferFailure? in
            if case .ignored(subject, .unknownTransfer(out, number, let failure?)) = event { failure } else { nil }
        }
        guard failure == .refused else {
            return "the subject refused a file longer than its header said with \(failure.debugDescription), not refused: the receiver's reason for a transfer that broke the format (docs/spark-wire.md \"Data and files\")"
        }
        return nil
    }
}
