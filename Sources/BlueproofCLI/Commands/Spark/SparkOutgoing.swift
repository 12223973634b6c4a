import BlueproofSpark
import BlueproofWire
import Foundation

/// One send of `spark send` as its progress events come: a file or data block (one send,
/// summed up by the size and SHA-256 its header carries, as the core queued it) or standard
/// input (a send per block, ended by closing its channel).
final class Outgoing {
    private enum Kind {
        case whole(send: UInt64, total: Int, sha256: String)
        case stream(SparkStdinStream)
    }

    private let label: String
    private let bar: ProgressBar
    private let started = ContinuousClock.now
    private let kind: Kind

    /// `header`: the core's, for `send`; nil when the core has no such send queued.
    init(label: String, send: UInt64, header: SparkTransferHeader?) throws(SparkSendFailure) {
        guard let header else { throw SparkSendFailure("\(label): the core holds no header for send \(send)") }
        self.label = label
        bar = ProgressBar(label: label)
        kind = .whole(send: send, total: Int(header.size), sha256: hex(header.sha256))
    }

    init(label: String, stream: SparkStdinStream) {
        self.label = label
        bar = ProgressBar(label: label)
        kind = .stream(stream)
    }

    /// The summary once the send is done; nil while it goes on; throws when it failed.
    func progress(_ send: UInt64, _ progress: SparkProgress) throws(SparkSendFailure) -> String? {
        let (total, sha256): (Int, String)
        switch kind {
        case .stream(let stream):
            let done = try stream.completed(send, progress)
            bar.update(bytes: done, total: nil, bytesPerSecond: SparkText.rate(UInt64(done), since: started))
            return nil
        case .whole(let ours, let size, let digest):
            guard send == ours else { return nil }
            (total, sha256) = (size, digest)
        }
        let sent = Int((progress.fraction ?? 0) * Double(total))
        if let error = progress.error {
            bar.finish()
            throw SparkSendFailure("\(label) failed after about \(sent) of \(total) bytes: \(SparkText.text(error))")
        }
        guard progress.done else {
            bar.update(bytes: sent, total: total, bytesPerSecond: SparkText.rate(UInt64(sent), since: started))
            return nil
        }
        bar.finish()
        return "sent \(label): " + SparkText.summary(bytes: UInt64(total), since: started, sha256: sha256)
    }

    /// The stream's summary once this side closed its channel at the end of standard input.
    func closed(_ channel: UInt32, by side: SparkSide) throws(SparkSendFailure) -> String? {
        guard case .stream(let stream) = kind, channel == stream.channel else { return nil }
        bar.finish()
        let (bytes, sha256) = stream.totals
        if let failure = stream.failure { throw SparkSendFailure("the stream failed after \(bytes) bytes: \(failure)") }
        guard side == .local else { throw SparkSendFailure("the listener closed \(label) after \(bytes) bytes had left") }
        return "sent \(label): " + SparkText.summary(bytes: UInt64(bytes), since: started, sha256: sha256)
    }
}
