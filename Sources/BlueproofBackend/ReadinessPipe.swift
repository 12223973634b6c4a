import BlueproofTransport
import CBlueproofSystem
import Foundation

/// The pipe on which the preload library announces each listening socket of a controller
/// process ("unix PATH" / "tcp PORT", see bp_preload.h). Reading it is how the harness learns
/// that a backend is ready, without polling for its socket.
final class ReadinessPipe: Sendable {
    /// Descriptor to hand to the child as its descriptor 3.
    let writeEnd: Int32
    /// Every announcement, in order; ends when the child (and so the write end) is gone.
    let lines: AsyncStream<String>

    init() throws(BackendError) {
        var fds: [Int32] = [-1, -1]
        let result = bp_pipe_cloexec(&fds)
        guard result == 0 else {
            throw .spawnFailed(program: "readiness pipe", reason: errnoText(-result))
        }
        writeEnd = fds[1]
        let readEnd = fds[0]
        let (stream, continuation) = AsyncStream.makeStream(of: String.self)
        lines = stream
        let thread = Thread {
            var pending = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 512)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                pending += buffer[0..<count]
                while let newline = pending.firstIndex(of: 0x0A) {
                    continuation.yield(String(decoding: pending[..<newline], as: UTF8.self))
                    pending.removeSubrange(...newline)
                }
            }
            close(readEnd)
            continuation.finish()
        }
        thread.name = "readiness pipe"
        thread.start()
    }

    /// Closes the harness's copy of the write end, once the child holds its own: end-of-file
    /// then means the child is gone.
    func childStarted() { close(writeEnd) }

    /// Waits for the first announcement that satisfies `match`; nil when the child exits first.
    func first(where match: @Sendable (String) -> Bool) async -> String? {
        for await line in lines where match(line) { return line }
        return nil
    }
}
