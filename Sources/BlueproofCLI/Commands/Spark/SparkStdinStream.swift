import BlueproofAsync
import BlueproofSpark
import Foundation
import Synchronization

/// Standard input sent as stream blocks on one data channel ("Streams"): read on its own
/// thread at most ``window`` blocks ahead of what the link has taken (the core's `done` per
/// send), so memory stays bounded however fast the input is; the channel is closed once the
/// input ended and every block has gone.
final class SparkStdinStream: Sendable {
    /// Bytes read per block.
    static let blockBytes = 64 << 10
    /// Blocks read but not yet handed to the link.
    static let window = 4

    private struct State {
        var pending: [UInt64: Int] = [:]
        var sentBytes = 0
        var queuedBytes = 0
        var digest = SparkDigest()
        var inputEnded = false
        var failure: String?
    }

    /// What the reading thread hands over.
    private enum Read: Sendable {
        case block([UInt8])
        case failed(String)
    }

    let channel: UInt32
    private let state = Mutex(State())
    /// Made at 0 and signalled ``window`` times: libdispatch traps when a semaphore is freed
    /// below the value it was made with, which one left mid-stream would be.
    private let room = DispatchSemaphore(value: 0)
    private let allSent = OneShot<Bool>()

    init(node: SparkChannelNode, connection: SparkConnectionID, channel: UInt32) {
        self.channel = channel
        let (blocks, input) = AsyncStream.makeStream(of: Read.self)
        let room = room
        for _ in 0..<Self.window { room.signal() }
        Thread.detachNewThread {
            while true {
                room.wait()
                let data: Data
                do {
                    data = try FileHandle.standardInput.read(upToCount: Self.blockBytes) ?? Data()
                } catch {
                    // Not the end of the input: the stream fails rather than end short.
                    input.yield(.failed("standard input could not be read: \(error)"))
                    break
                }
                if data.isEmpty { break }
                input.yield(.block(Array(data)))
            }
            input.finish()
        }
        Task { await self.pump(blocks, node: node, connection: connection) }
    }

    /// Why the stream stopped early, if it did.
    var failure: String? { state.withLock { $0.failure } }

    /// Bytes the link has taken and their SHA-256.
    var totals: (bytes: Int, sha256: String) { state.withLock { ($0.sentBytes, $0.digest.hex()) } }

    /// Hands each block to the core; at the end of input, waits for every block to go and
    /// closes the channel (its `channelClosed` event ends the send).
    private func pump(_ blocks: AsyncStream<Read>, node: SparkChannelNode, connection: SparkConnectionID) async {
        let channel = channel
        for await read in blocks {
            guard case .block(let block) = read else {
                if case .failed(let why) = read { state.withLock { $0.failure = why } }
                // Its `channelClosed` wakes the sender, which then reports the failure.
                await node.perform { core in try? core.closeDataChannel(connection, channel: channel) }
                return
            }
            do {
                // Recorded inside the core's turn, before its events go out: a `done` never
                // comes for a send not yet known here.
                _ = try await node.perform { core in
                    let send = try core.send(block, toChannel: channel, on: connection)
                    state.withLock { state in
                        state.pending[send] = block.count
                        state.queuedBytes += block.count
                        state.digest.update(block)
                    }
                    return send
                }
            } catch {
                state.withLock { $0.failure = "not sent: \(error)" }
                // Its `channelClosed` wakes the sender, which then reports the failure.
                await node.perform { core in try? core.closeDataChannel(connection, channel: channel) }
                return
            }
        }
        let idle = state.withLock { state in
            state.inputEnded = true
            return state.pending.isEmpty
        }
        let allGone = idle ? true : await allSent.wait()
        if allGone == true {
            await node.perform { core in try? core.closeDataChannel(connection, channel: channel) }
        }
    }

    /// Counts a block's send ending; returns the bytes sent so far, or throws when it failed.
    func completed(_ send: UInt64, _ progress: SparkProgress) throws(SparkSendFailure) -> Int {
        let (sent, failure, idle, known) = state.withLock { state -> (Int, String?, Bool, Bool) in
            guard let size = state.pending[send] else { return (state.sentBytes, nil, false, false) }
            if let error = progress.error { state.failure = "a block of \(size) bytes failed: \(SparkText.text(error))" }
            guard progress.done || progress.error != nil else { return (state.sentBytes, state.failure, false, false) }
            state.pending[send] = nil
            if progress.done { state.sentBytes += size }
            return (state.sentBytes, state.failure, state.inputEnded && state.pending.isEmpty, true)
        }
        if let failure {
            _ = allSent.resolve(false)
            throw SparkSendFailure("the stream failed after \(sent) bytes: \(failure)")
        }
        guard known else { return sent }
        room.signal()
        if idle { _ = allSent.resolve(true) }
        return sent
    }
}
