import Glibc
import BlueproofCapture
import BlueproofWire
import CBlueproofSystem
import Logging
import Synchronization

/// The one implementation of ``HCITransport`` behind every file-descriptor transport:
/// unix and TCP sockets, the HCI user channel and serial lines differ only in how their
/// descriptor is opened.
///
/// A dedicated reader thread blocks in `poll()` on the descriptor and a wake pipe, reads
/// whatever is available into an ``H4Deframer``, records each complete packet to the
/// capture sink and yields it into an unbounded stream. It never waits for the consumer, so
/// the peer never sees a full socket. The descriptor is non-blocking: a sender that finds it
/// full waits in `poll()` for room *or* the wake pipe. Whoever ends the link first (`close()`,
/// or the reader on an error) writes to the wake pipe, which frees the reader and every
/// waiting sender alike, on sockets and terminals; the reader then finishes the stream and
/// closes the descriptors. Dropping the last reference to the link closes it too.
final class FileDescriptorLink: HCITransport {
    let endpoint: String
    let inbound: AsyncThrowingStream<H4Packet, any Error>
    let core: LinkCore<H4Framing>
    private let ledger: H4LinkLedger

    /// Takes ownership of `fd` (closed on every path, failure included) and starts reading.
    init(
        fd: Int32, endpoint: String, writeMode: LinkCore<H4Framing>.WriteMode, capture: (any CaptureSink)?,
        afterRead: (@Sendable (Int32) -> Void)? = nil
    ) throws(TransportError) {
        let ledger = H4LinkLedger(capture: capture)
        let (stream, core) = try LinkCore.open(
            fd: fd, endpoint: endpoint, writeMode: writeMode, framing: H4Framing(ledger: ledger), afterRead: afterRead)
        self.endpoint = endpoint
        self.inbound = stream
        self.core = core
        self.ledger = ledger
    }

    deinit { core.close() }

    /// Data on a handle whose Disconnection Complete this link has already read is discarded,
    /// neither written nor recorded (see ``EndedHandles``).
    func send(_ packet: H4Packet) throws(TransportError) {
        try core.send(packet.h4Bytes) { [ledger] in ledger.admitAndRecord(sent: packet) }
    }

    func close() { core.close() }

    func tapInbound(_ tap: @escaping @Sendable (H4Packet) -> Void) -> Bool {
        ledger.tap.withLock { installed in
            guard installed == nil else { return false }
            installed = InboundTap(tap)
            return true
        }
    }
}

/// How a link cuts the bytes it reads into the values its stream yields. Used by the reader
/// thread alone, so it may keep state between reads.
protocol LinkFraming: Sendable {
    associatedtype Output: Sendable
    /// Takes the bytes of one read, arrived at `arrival` (microseconds since the epoch), and
    /// yields the values they complete; throws, after yielding the good ones, when the stream
    /// turns out malformed.
    mutating func feed(_ bytes: ArraySlice<UInt8>, arrival: Int64, yield: (Output) -> Void) throws(TransportError)
    /// Whether the peer closing the stream is a failure (an HCI controller must not go away)
    /// or its normal end.
    static var peerCloseIsFailure: Bool { get }
}

/// What an H4 link records and remembers as packets cross it, in one order for both ways:
/// the capture, and the handles the controller ended.
final class H4LinkLedger: Sendable {
    private let capture: (any CaptureSink)?
    private let ended = Mutex(EndedHandles())
    /// ``HCITransport/tapInbound(_:)``'s tap; called outside `ended`'s lock, since it may send.
    let tap = Mutex<InboundTap?>(nil)

    init(capture: (any CaptureSink)?) { self.capture = capture }

    /// A packet from the controller, read at `arrival` (microseconds since the epoch).
    func record(received packet: H4Packet, arrival: Int64) {
        ended.withLock { ended in
            capture?.record(CaptureRecord(timestampMicros: arrival, direction: .received, packet: packet))
            ended.observe(received: packet)
        }
    }

    /// Records a packet for the controller and returns true, or returns false, recording
    /// nothing, when it is data on an ended handle.
    func admitAndRecord(sent packet: H4Packet) -> Bool {
        ended.withLock { ended in
            guard ended.admits(sent: packet) else { return false }
            capture?.record(CaptureRecord(timestampMicros: wallClockMicros(), direction: .sent, packet: packet))
            return true
        }
    }
}

/// H4 packets, each recorded in the link's ledger as it is completed.
struct H4Framing: LinkFraming {
    let ledger: H4LinkLedger
    private var deframer = H4Deframer()

    init(ledger: H4LinkLedger) { self.ledger = ledger }

    static var peerCloseIsFailure: Bool { true }

    mutating func feed(_ bytes: ArraySlice<UInt8>, arrival: Int64, yield: (H4Packet) -> Void) throws(TransportError) {
        deframer.append(bytes)
        do throws(WireError) {
            while let packet = try deframer.next() {
                ledger.record(received: packet, arrival: arrival)
                ledger.tap.withLock { $0 }?.call(packet)
                yield(packet)
            }
        } catch {
            throw .malformedStream(error)
        }
    }
}

private let linkLogger = Logger(label: "blueproof.transport")

/// The state shared by a link's reader thread and its senders.
///
/// Locks: `writeLock` serialises writers and guards the descriptor against being closed
/// under a write; `ending` is held only briefly. Order when both are held: `writeLock`, then
/// `ending`. The descriptors are closed by the reader thread alone, after `ending` was set
/// (so `close()` no longer touches them) and under `writeLock` (so no write is in flight).
final class LinkCore<Framing: LinkFraming>: Sendable {
    enum WriteMode: Sendable {
        /// `send(MSG_NOSIGNAL)`: a peer that left gives EPIPE instead of killing us with SIGPIPE.
        case socket
        /// `write()`: terminals raise no SIGPIPE.
        case file
    }

    let fd: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    let endpoint: String
    private let writeMode: WriteMode
    private let framing: Framing
    private let afterRead: (@Sendable (Int32) -> Void)?
    private let continuation: AsyncThrowingStream<Framing.Output, any Error>.Continuation
    /// nil while the link is open. Once set, what `send` throws: `.closed` from `close()`,
    /// otherwise why the reader stopped. Set once, by whichever comes first.
    private let ending = Mutex<TransportError?>(nil)
    private let writeLock = Mutex<Void>(())

    private init(
        fd: Int32, wakeRead: Int32, wakeWrite: Int32, endpoint: String, writeMode: WriteMode,
        framing: Framing, afterRead: (@Sendable (Int32) -> Void)?,
        continuation: AsyncThrowingStream<Framing.Output, any Error>.Continuation
    ) {
        self.fd = fd
        self.wakeRead = wakeRead
        self.wakeWrite = wakeWrite
        self.endpoint = endpoint
        self.writeMode = writeMode
        self.framing = framing
        self.afterRead = afterRead
        self.continuation = continuation
    }

    /// Takes ownership of `fd` (closed on every path, failure included), makes it non-blocking
    /// and starts the reader thread; returns the stream of what `framing` cuts from it.
    static func open(
        fd: Int32, endpoint: String, writeMode: WriteMode, framing: Framing,
        afterRead: (@Sendable (Int32) -> Void)? = nil
    ) throws(TransportError) -> (AsyncThrowingStream<Framing.Output, any Error>, LinkCore) {
        guard bp_transport_set_nonblocking(fd, 1) == 0 else {
            let code = errno
            _ = Glibc.close(fd)
            throw .io(operation: "fcntl(O_NONBLOCK) on \(endpoint)", errno: code)
        }
        var pipeEnds: [Int32] = [-1, -1]
        guard bp_transport_cloexec_pipe(&pipeEnds) == 0 else {
            let code = errno
            _ = Glibc.close(fd)
            throw .io(operation: "pipe2", errno: code)
        }
        let (stream, continuation) = AsyncThrowingStream<Framing.Output, any Error>.makeStream()
        let core = LinkCore(
            fd: fd, wakeRead: pipeEnds[0], wakeWrite: pipeEnds[1], endpoint: endpoint,
            writeMode: writeMode, framing: framing, afterRead: afterRead, continuation: continuation)
        // A consumer that stops iterating by cancellation no longer wants the link.
        continuation.onTermination = { [weak core] termination in
            if case .cancelled = termination { core?.close() }
        }
        try core.startReader()
        return (stream, core)
    }

    // MARK: reader thread

    /// Starts the detached reader thread, which keeps `self` alive until it exits.
    /// On failure the descriptors are closed and the stream finished.
    private func startReader() throws(TransportError) {
        let code = startDetachedThread { self.run() }
        guard code == 0 else {
            end(.io(operation: "pthread_create", errno: code))
            throw .io(operation: "pthread_create", errno: code)
        }
    }

    private func run() {
        bp_transport_name_thread("bp-rx")
        end(readUntilDone())
    }

    /// Reads until the link ends; nil when woken by `close()`.
    private func readUntilDone() -> TransportError? {
        var framing = framing
        var buffer = [UInt8](repeating: 0, count: 65536)
        var watched = [
            pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            watched[0].revents = 0
            watched[1].revents = 0
            if poll(&watched, 2, -1) < 0 {
                let code = errno
                if code == EINTR { continue }
                return .io(operation: "poll", errno: code)
            }
            if watched[1].revents != 0 { return nil }
            if watched[0].revents == 0 { continue }
            let (count, code) = buffer.withUnsafeMutableBytes { raw in
                let count = read(fd, raw.baseAddress, raw.count)
                return (count, count < 0 ? errno : 0)
            }
            if count == 0 { return .closedByPeer }
            if count < 0 {
                switch code {
                case EINTR, EAGAIN, EWOULDBLOCK: continue
                case ECONNRESET, EPIPE: return .closedByPeer
                default: return .io(operation: "read from \(endpoint)", errno: code)
                }
            }
            afterRead?(fd)
            do throws(TransportError) {
                try framing.feed(buffer[..<count], arrival: wallClockMicros()) { continuation.yield($0) }
            } catch {
                return error
            }
        }
    }

    /// Ends the link once: records why, finishes the stream, closes the descriptors.
    private func end(_ failure: TransportError?) {
        let closedHere = ending.withLock { ending -> Bool in
            if ending != nil { return true }  // close() came first
            ending = failure ?? .closedByPeer
            // Frees a sender waiting for room, so the descriptor can be closed.
            wake()
            return false
        }
        if closedHere {
            linkLogger.debug("link closed", metadata: ["endpoint": "\(endpoint)"])
            continuation.finish()
        } else {
            let reason = failure ?? .closedByPeer
            linkLogger.debug("link ended", metadata: ["endpoint": "\(endpoint)", "reason": "\(reason)"])
            if reason == .closedByPeer && !Framing.peerCloseIsFailure {
                continuation.finish()
            } else {
                continuation.finish(throwing: reason)
            }
        }
        writeLock.withLock { _ in _ = Glibc.close(fd) }
        // `ending` is set, so `close()` will not write to the pipe again.
        _ = Glibc.close(wakeRead)
        _ = Glibc.close(wakeWrite)
    }

    // MARK: senders

    func close() {
        ending.withLock { ending in
            guard ending == nil else { return }
            ending = .closed
            wake()
        }
    }

    /// Makes the wake pipe readable for good. Called under `ending` at the moment it is set,
    /// so one byte ever goes into the pipe (this never blocks) and never after `end()` closed it.
    private func wake() {
        var byte: UInt8 = 1
        _ = Glibc.write(wakeWrite, &byte, 1)
    }

    /// Writes all of `bytes`, unless `beforeWrite` returns false; it runs under the write lock
    /// once the link is known open, so what it records is in the order the bytes go out.
    func send(_ bytes: [UInt8], beforeWrite: () -> Bool = { true }) throws(TransportError) {
        try writeLock.withLock { _ throws(TransportError) in
            try throwUnlessOpen()
            guard beforeWrite() else { return }
            do throws(TransportError) {
                try writeAll(bytes)
            } catch {
                // A failure caused by our own close() is reported as such.
                try throwUnlessOpen()
                throw error
            }
        }
    }

    private func throwUnlessOpen() throws(TransportError) {
        if let reason = ending.withLock({ $0 }) { throw reason }
    }

    /// Writes every byte, through EINTR and partial writes. Caller holds `writeLock`.
    private func writeAll(_ bytes: [UInt8]) throws(TransportError) {
        var offset = 0
        while offset < bytes.count {
            let (written, code) = bytes.withUnsafeBytes { raw in
                let start = raw.baseAddress! + offset
                let remaining = raw.count - offset
                let written = switch writeMode {
                case .socket: Glibc.send(fd, start, remaining, Int32(MSG_NOSIGNAL))
                case .file: Glibc.write(fd, start, remaining)
                }
                return (written, written < 0 ? errno : 0)
            }
            if written > 0 {
                offset += written
                continue
            }
            switch written == 0 ? EIO : code {
            case EINTR:
                continue
            case EAGAIN, EWOULDBLOCK:
                try waitForRoom()
            case EPIPE, ECONNRESET:
                throw .closedByPeer
            case let other:
                throw .io(operation: "write to \(endpoint)", errno: other)
            }
        }
    }

    /// Waits until the descriptor takes more bytes, or throws once the link is ending (the
    /// wake pipe stays readable from then on). Caller holds `writeLock`, so neither descriptor
    /// is closed meanwhile.
    private func waitForRoom() throws(TransportError) {
        var watched = [
            pollfd(fd: fd, events: Int16(POLLOUT), revents: 0),
            pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
        ]
        while poll(&watched, 2, -1) < 0 {
            let code = errno
            guard code == EINTR else { throw .io(operation: "poll", errno: code) }
        }
        // `send` reports the ending's own reason in place of this.
        if watched[1].revents != 0 { throw .closed }
    }
}

/// Microseconds since the Unix epoch, for capture records.
func wallClockMicros() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000
}
