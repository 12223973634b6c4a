import BlueproofAsync
import BlueproofHost
import BlueproofSpark
import Foundation
import Synchronization

/// What `spark send` does: finds the listener, links, offers, and once accepted sends one
/// thing, following the node's events to its end.
final class SparkSender {
    enum What {
        case file(String)
        case text(String, description: String)
        case stream(description: String)
    }

    private let terminal: SparkTerminal
    private let connection = Mutex<SparkConnectionID?>(nil)
    private let link = Mutex<LEConnection?>(nil)

    init(terminal: SparkTerminal) { self.terminal = terminal }

    /// Sends `what` to `peer`; the summary line, or a failure that says what went wrong.
    func send(_ what: What, to peer: UInt64, metadata: String, scanTimeout: Double) async throws(SparkSendFailure) -> String {
        let node = terminal.node
        let found = try await find(peer, within: scanTimeout)
        Console.progress("found listener \(peer) at \(found.address); connecting")
        let link: LEConnection
        do {
            link = try await terminal.host.connect(to: found.address, type: found.addressType, timeout: .seconds(5))
        } catch {
            throw SparkSendFailure("could not connect to \(found.address): \(error)")
        }
        self.link.withLock { $0 = link }
        let named: UInt64
        do { named = try await node.open(on: link) } catch { throw SparkSendFailure("could not open the Spark channel (SPSM 0x0081): \(error)") }
        guard named == peer else { throw SparkSendFailure("the device advertising registration id \(peer) named itself \(named) in its hello") }
        let id: SparkConnectionID, timeout: TimeInterval
        do {
            (id, timeout) = try await node.perform { core in (try core.startDataConnection(to: peer, metadata: metadata), core.configuration.offerTimeout) }
        } catch SparkError.keyError {
            throw SparkSendFailure("no key for registration id \(peer) in \(terminal.directory.path): keys are exchanged before a connection "
                                   + "(kMediaFailureKeyError); the listener publishes its key there when it starts, so give both the same --keys")
        } catch {
            throw SparkSendFailure("the offer was refused: \(error)")
        }
        connection.withLock { $0 = id }
        Console.progress("offered connection \(id); waiting for the listener to accept (an offer unanswered for \(Int(timeout)) s ends)")
        // The core ends an offer past its deadline when its clock is looked at (`tick`): once, then.
        let deadline = Task {
            try? await Task.sleep(for: .seconds(timeout))
            await node.perform { $0.tick() }
        }
        defer { deadline.cancel() }
        var transfer: Outgoing?
        for await event in node.events {
            switch event {
            case .accepted(id):
                Console.progress("accepted")
                transfer = try await start(what, on: id)
            case .sendProgress(id, let send, let progress):
                guard let outgoing = transfer, let done = try outgoing.progress(send, progress) else { continue }
                return try await drained(done, peer)
            case .channelClosed(id, let channel, let side):
                guard let outgoing = transfer, let done = try outgoing.closed(channel, by: side) else { continue }
                return try await drained(done, peer)
            case .ended(id, let reason, let side):
                connection.withLock { $0 = nil }
                let what = side == .remote ? "the listener ended the connection" : "the connection ended"
                throw SparkSendFailure(reason == .timeout ? "the listener did not answer the offer within \(Int(timeout)) s" : "\(what): \(reason)")
            default:
                continue
            }
        }
        throw SparkSendFailure("the Spark node stopped")
    }

    /// How long the last frames may take to leave once the core counts a send done: the
    /// listener returns no credits or the controller no buffers past it.
    static let drainLimit: Duration = .seconds(60)

    /// `summary` once everything queued for `peer` has left this host.
    private func drained(_ summary: String, _ peer: UInt64) async throws(SparkSendFailure) -> String {
        let node = terminal.node
        do {
            try await withTimeout(Self.drainLimit, what: "the last frames to leave (the listener gave no credits, or the controller no buffers)") {
                try await node.drain(peer)
            }
        } catch {
            throw SparkSendFailure("not all of it left: \(error)")
        }
        return summary
    }

    /// Ends the data connection, if one is live, and then the LE link once the `end` has
    /// left: the listener sees both go at once, not when a supervision timeout notices.
    func hangUp() async {
        let node = terminal.node
        if let id = connection.withLock({ $0 }) {
            await node.perform { core in try? core.end(id) }
            _ = try? await withTimeout(.seconds(10), what: "the end to leave") { try await node.drain(id.peer) }
        }
        if let link = link.withLock({ $0 }) { try? await terminal.host.disconnect(link) }
    }

    /// Scans until the listener's advertisement is heard.
    private func find(_ peer: UInt64, within seconds: Double) async throws(SparkSendFailure) -> LEAdvertisement {
        Console.progress("looking for Spark listener \(peer) (at most \(seconds) s)")
        let reports: AsyncStream<LEAdvertisement>
        do { reports = try await terminal.host.scan() } catch { throw SparkSendFailure("cannot scan: \(error)") }
        do {
            return try await withTimeout(.seconds(seconds), what: "listener \(peer)'s advertisement") {
                for await report in reports where report.eventType == .advInd && SparkAdvertisement.registrationID(in: report.data) == peer {
                    return report
                }
                throw CancellationError()
            }
        } catch {
            throw SparkSendFailure("no Spark listener with registration id \(peer) was heard within \(seconds) s: start "
                                   + "`blueproof spark listen --id \(peer)` on the same controller (--controller as it prints)")
        }
    }

    /// Queues `what` on the accepted connection.
    private func start(_ what: What, on id: SparkConnectionID) async throws(SparkSendFailure) -> Outgoing {
        let node = terminal.node
        do {
            switch what {
            case .file(let path):
                let (send, header) = try await node.perform { core in
                    let send = try core.sendFile(path, on: id)
                    return (send, core.outgoingHeader(ofSend: send))
                }
                return try Outgoing(label: "file \"\((path as NSString).lastPathComponent)\"", send: send, header: header)
            case .text(let text, let description):
                let (send, header) = try await node.perform { core in
                    let send = try core.send(Array(text.utf8), description: description, on: id)
                    return (send, core.outgoingHeader(ofSend: send))
                }
                return try Outgoing(label: "data \"\(description)\"", send: send, header: header)
            case .stream(let description):
                let channel = try await node.perform { core in try core.createDataChannel(id, description: description) }
                return Outgoing(label: "stream \"\(description)\"", stream: SparkStdinStream(node: node, connection: id, channel: channel))
            }
        } catch {
            throw SparkSendFailure("not sent: \(error)")
        }
    }
}
