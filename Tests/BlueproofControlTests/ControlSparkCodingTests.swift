import BlueproofSpark
import Foundation
import Testing
@testable import BlueproofControl

/// issue 17: the Spark commands' events and refusals on the control protocol (version 5).
@Suite("Control protocol: Spark lines")
struct ControlSparkCodingTests {
    static let to = SparkConnectionID(peer: 0x7E57_0000_0000_0001, number: 3, outgoing: true)
    static let from = SparkConnectionID(peer: 42, number: 9, outgoing: false)

    /// One event of every case, each transfer failure, every end reason and side.
    static let events: [SparkEvent] = [
        .offering(to, metadata: "hi"), .offered(from, metadata: ""), .available(from), .accepted(to),
        .channelOpened(to, channel: 2, description: "video", by: .local), .channelClosed(from, channel: 2, by: .remote),
        .sendProgress(to, send: 7, SparkProgress(fraction: 0.25, done: false)), .sendProgress(to, send: 8, SparkProgress(fraction: nil, done: true)),
        .dataAvailable(from, SparkChannelData(kind: .stream, id: 2, description: "video", data: [0, 1, 255], progress: nil, transferComplete: false)),
        .dataAvailable(from, SparkChannelData(kind: .data, id: 5, description: "d", data: [], progress: 0.5, transferComplete: false)),
        .fileAvailable(from, SparkFileData(transfer: 4, name: "a.bin", progress: 1, transferComplete: true, path: "/tmp/a.bin")),
        .ignored(peer: 42, .noReceiveCallback(from)), .ignored(peer: 42, .unknownConnection(number: 77, kind: 8)),
        .ignored(peer: 42, .unknownConnection(number: 78, kind: nil)),
        .ignored(peer: 42, .unknownChannel(from, 9, kind: 8)), .ignored(peer: 42, .unknownChannel(from, 11, kind: nil)), .ignored(peer: 42, .unknownTransfer(from, 8, failure: nil)),
        .ignored(peer: 42, .unknownTransfer(from, 10, failure: .storageFailed)),
        .ignored(peer: 42, .unexpected(from, kind: 3)),
    ] + SparkEndReason.allCases.flatMap { reason in SparkSide.allCases.map { SparkEvent.ended(to, reason, by: $0) } }
        + transferErrors.map { SparkEvent.sendProgress(to, send: 1, SparkProgress(fraction: 0.5, done: true, error: $0)) }
        + transferErrors.map { SparkEvent.fileAvailable(from, SparkFileData(transfer: 1, name: "x", progress: 0.5, transferComplete: false, path: nil, error: $0)) }

    static let transferErrors: [SparkTransferError] = [
        .sourceUnavailable("gone"), .channelClosed(4), .digestMismatch, .sizeMismatch(declared: 10, received: 9),
        .storage(SparkFileFailure(path: "/c/x", reason: "disk full")), .refused("second header"),
    ] + SparkEndReason.allCases.map { .connectionEnded($0) } + SparkTransferFailure.allCases.map { .remote($0) }

    @Test("every Spark event survives its line, under its spark… name")
    func events() throws {
        for event in Self.events {
            let line = try ControlCoding.line(ControlSparkEvent(event))
            let decoded = try ControlCoding.decode(ControlSparkEvent.self, from: Array(line.dropLast()))
            #expect(decoded.event.hasPrefix("spark"))
            #expect(try decoded.sparkEvent() == event, "\(String(decoding: line, as: UTF8.self))")
            // The transmitter side of a client reads the line too, and must not choke on it.
            #expect(try ControlCoding.decode(ControlEvent.self, from: Array(line.dropLast())).transmitterEvent() == nil)
        }
    }

    @Test("a malformed frame's reason comes back as its text")
    func malformed() throws {
        let error = SparkWireError(offset: 3, reason: .unknownKind(99))
        let decoded = try ControlSparkEvent(.ignored(peer: 1, .malformed(error))).sparkEvent()
        #expect(decoded == .ignored(peer: 1, .malformed(SparkWireError(offset: 0, reason: .invalidField(error.description)))))
    }

    @Test("every Spark refusal survives its fields; invalid and file keep their text")
    func refusals() throws {
        let errors: [SparkError] = [
            .keyError(peer: 5), .metadataTooLarge(bytes: 4097, limit: 4096), .tooManyConnections(limit: 1), .unknownConnection(Self.to),
            .channelLimit(limit: 64), .unknownChannel(3), .queueFull(bytes: 5, limit: 4), .invalid(.invalidField("empty")),
            .file(SparkFileFailure(path: "/f", reason: "no such file")),
        ] + SparkConnectionState.allCases.map { .wrongState(Self.from, $0) }
        for error in errors {
            let line = try ControlCoding.line(ControlSparkFields(error))
            #expect(try ControlCoding.decode(ControlSparkFields.self, from: Array(line.dropLast())).sparkError() == error)
        }
    }

    @Test("a Spark line missing what its case needs, or naming what no case has, is refused with the field")
    func refusedLines() throws {
        var ended = ControlSparkEvent(.ended(Self.to, .busy, by: .local))
        ended.reason = "bored"
        #expect(throws: ControlSparkDecoding.self) { try ended.sparkEvent() }
        var progress = ControlSparkEvent(.sendProgress(Self.to, send: 1, SparkProgress(fraction: 1, done: true)))
        progress.done = nil
        do {
            _ = try progress.sparkEvent()
            Issue.record("a progress line without done was read")
        } catch { #expect(error.description.contains("done")) }
        #expect(throws: ControlSparkDecoding.self) { try ControlSparkEvent(event: "sparkFromTheFuture").sparkEvent() }
        var file = ControlSparkEvent(.fileAvailable(Self.from, SparkFileData(transfer: 1, name: "early.bin", progress: 1, transferComplete: true, path: "/c/early.bin")))
        file.name = nil
        #expect(throws: ControlSparkDecoding.self) { try file.sparkEvent() }
        var block = ControlSparkEvent(.dataAvailable(Self.from, SparkChannelData(kind: .data, id: 5, description: "d", data: [1], progress: 1, transferComplete: true)))
        block.data = nil
        #expect(throws: ControlSparkDecoding.self) { try block.sparkEvent() }
        #expect(throws: ControlSparkDecoding.self) { try ControlSparkFields("keyError").sparkError() }
        #expect(throws: ControlSparkDecoding.self) { try ControlSparkFields("teapot").transferError() }
    }
}
