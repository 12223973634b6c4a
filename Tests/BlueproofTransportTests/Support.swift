import BlueproofCapture
import BlueproofWire
import CBlueproofSystem
import Foundation
import Glibc
import Synchronization
import Testing
@testable import BlueproofTransport

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A capture sink that keeps every record.
final class RecordingSink: CaptureSink {
    private let records = Mutex<[CaptureRecord]>([])
    func record(_ record: CaptureRecord) { records.withLock { $0.append(record) } }
    var all: [CaptureRecord] { records.withLock { $0 } }
}

/// A capture sink that lets a test wait until a sender has recorded a packet, i.e. is past
/// the open check and writing it (or about to).
final class SendSignal: CaptureSink {
    private let sends: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() { (sends, continuation) = AsyncStream<Void>.makeStream() }

    func record(_ record: CaptureRecord) {
        if record.direction == .sent { continuation.yield() }
    }

    /// Returns once a packet was sent (at once if one already was).
    func firstSend() async {
        for await _ in sends { return }
    }
}

/// Runs `body`, failing with a timeout error if it has not finished within `limit`.
/// `body` must be cancellable (stream iteration is); blocking calls bound themselves.
func within<T: Sendable>(
    _ what: String, limit: Duration = .seconds(20), _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask(operation: body)
        group.addTask {
            try await Task.sleep(for: limit)
            throw TestFailure("timed out after \(limit) waiting for \(what)")
        }
        defer { group.cancelAll() }
        return try await group.next()!
    }
}

/// The first `count` packets of `stream`.
func take(_ count: Int, from stream: AsyncThrowingStream<H4Packet, any Error>) async throws -> [H4Packet] {
    try await within("\(count) packet(s)") {
        var packets: [H4Packet] = []
        guard count > 0 else { return packets }
        for try await packet in stream {
            packets.append(packet)
            if packets.count == count { return packets }
        }
        throw TestFailure("stream ended after \(packets.count) of \(count) packets")
    }
}

/// Every remaining packet of `stream` and how it ended: nil for a normal finish.
func drain(_ stream: AsyncThrowingStream<H4Packet, any Error>) async throws -> (packets: [H4Packet], error: TransportError?) {
    try await within("the end of the stream") {
        var packets: [H4Packet] = []
        do {
            for try await packet in stream { packets.append(packet) }
            return (packets, nil)
        } catch let error as TransportError {
            return (packets, error)
        }
    }
}

/// Waits up to `seconds` for `events` on `fd`; throws on timeout. Waiting on an event, bounded.
func waitFor(_ fd: Int32, _ events: Int32, seconds: Int32 = 20, _ what: String) throws {
    var one = pollfd(fd: fd, events: Int16(events), revents: 0)
    while true {
        let ready = poll(&one, 1, seconds * 1000)
        if ready > 0 { return }
        if ready == 0 { throw TestFailure("timed out after \(seconds) s waiting for \(what)") }
        if errno != EINTR { throw TestFailure("poll: \(errnoText(errno))") }
    }
}

/// The controller end of a link, played by the test: raw bytes in and out.
struct FakePeer: ~Copyable {
    let fd: Int32

    /// Writes all of `bytes`, waiting (bounded) whenever the link is full.
    func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            try waitFor(fd, POLLOUT, "room to write")
            let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw TestFailure("write: \(errnoText(errno))")
            }
            offset += written
        }
    }

    /// Reads exactly `count` bytes.
    func read(_ count: Int) throws -> [UInt8] { try Self.read(count, from: fd) }

    /// Reads exactly `count` bytes from `fd`, waiting (bounded) for each chunk.
    static func read(_ count: Int, from fd: Int32) throws -> [UInt8] {
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while out.count < count {
            try waitFor(fd, POLLIN, "\(count - out.count) more byte(s) from the transport")
            let want = min(chunk.count, count - out.count)
            let got = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, want) }
            if got < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw TestFailure("read: \(errnoText(errno))")
            }
            if got == 0 { throw TestFailure("end of file after \(out.count) of \(count) bytes") }
            out += chunk[..<got]
        }
        return out
    }

    /// True when the other end has closed: the next read gives end of file (or EIO on a pty).
    func seesEndOfFile() throws -> Bool {
        var byte: UInt8 = 0
        try waitFor(fd, POLLIN, "end of file")
        let got = Glibc.read(fd, &byte, 1)
        return got == 0 || (got < 0 && errno == EIO)
    }

    consuming func close() {
        Glibc.close(fd)
        discard self
    }

    deinit { Glibc.close(fd) }
}

/// Runs blocking work on a thread of its own, so it never holds one of the few threads of
/// Swift's cooperative pool while it waits.
func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        thread.start()
    }
}

/// A listening socket that plays btvirt (unix) or Rootcanal (TCP).
final class FakeListener {
    enum Kind: String, CaseIterable, Sendable, CustomStringConvertible {
        case unix, tcp
        var description: String { rawValue }
    }

    let fd: Int32
    let spec: TransportSpec
    private let directory: String?

    init(_ kind: Kind) throws {
        switch kind {
        case .unix:
            var template = Array("/tmp/bp-transport-XXXXXX".utf8CString)
            guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp: \(errnoText(errno))") }
            let directory = String(cString: made)
            let path = directory + "/bt-server-le"
            let fd = bp_transport_stream_socket(AF_UNIX, 0)
            self.fd = fd
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            guard bound == 0 else { throw TestFailure("bind \(path): \(errnoText(errno))") }
            self.directory = directory
            spec = .unix(path: path)
        case .tcp:
            let fd = bp_transport_stream_socket(AF_INET, 0)
            self.fd = fd
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
                }
            }
            guard bound else { throw TestFailure("bind 127.0.0.1:0: \(errnoText(errno))") }
            directory = nil
            spec = .tcp(host: "127.0.0.1", port: UInt16(bigEndian: address.sin_port))
        }
        guard listen(fd, 4) == 0 else { throw TestFailure("listen: \(errnoText(errno))") }
    }

    /// The transport's connection, once it has arrived.
    func accept() throws -> FakePeer {
        try waitFor(fd, POLLIN, "a connection")
        let peer = Glibc.accept(fd, nil, nil)
        guard peer >= 0 else { throw TestFailure("accept: \(errnoText(errno))") }
        return FakePeer(fd: peer)
    }

    deinit {
        Glibc.close(fd)
        if case let .unix(path) = spec, let directory {
            unlink(path)
            rmdir(directory)
        }
    }
}

/// A pseudo-terminal pair: the transport opens `slavePath` as its serial device, the test
/// plays the controller on the master side.
struct PseudoTerminal: ~Copyable {
    let master: FakePeer
    let slavePath: String

    init() throws {
        var name = [CChar](repeating: 0, count: 128)
        let fd = bp_transport_open_pty(&name, UInt(name.count))
        guard fd >= 0 else { throw TestFailure("opening a pseudo-terminal: \(errnoText(errno))") }
        master = FakePeer(fd: fd)
        slavePath = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

// MARK: packets

/// HCI Command Complete for `opcode` with status 0: `04 0E 04 01 <opcode LE> 00`.
func commandComplete(_ opcode: UInt16) -> H4Packet {
    H4Packet(type: .event, payload: [0x0E, 0x04, 0x01, UInt8(opcode & 0xFF), UInt8(opcode >> 8), 0x00])
}

/// An ACL packet on handle 0x0040 carrying `data`.
func acl(_ data: [UInt8]) -> H4Packet {
    H4Packet(type: .acl, payload: [0x40, 0x20, UInt8(data.count & 0xFF), UInt8(data.count >> 8)] + data)
}

/// HCI_Reset.
let resetCommand = H4Packet(type: .command, payload: [0x03, 0x0C, 0x00])
