import BlueproofSpark
import Foundation

/// One send of `spark send` as its progress events come: a file or data block (one send, a
/// known size) or standard input (a send per block, ended by closing its channel).
final class Outgoing {
    private let label: String
    private let bar: ProgressBar
    private let started = ContinuousClock.now
    private let total: Int
    private let sha256: String
    private let send: UInt64?
    private let stream: SparkStdinStream?

    init(label: String, total: Int, sha256: String, send: UInt64) {
        self.label = label
        bar = ProgressBar(label: label)
        self.total = total
        self.sha256 = sha256
        self.send = send
        stream = nil
    }

    init(label: String, stream: SparkStdinStream) {
        self.label = label
        bar = ProgressBar(label: label)
        total = 0
        sha256 = ""
        send = nil
        self.stream = stream
    }

    /// The summary once the send is done; nil while it goes on; throws when it failed.
    func progress(_ send: UInt64, _ progress: SparkProgress) throws(SparkSendFailure) -> String? {
        if let stream {
            let done = try stream.completed(send, progress)
            bar.update(bytes: done, total: nil, bytesPerSecond: SparkText.rate(UInt64(done), since: started))
            return nil
        }
        guard send == self.send else { return nil }
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
        guard let stream, channel == stream.channel else { return nil }
        bar.finish()
        let (bytes, sha256) = stream.totals
        if let failure = stream.failure { throw SparkSendFailure("the stream failed after \(bytes) bytes: \(failure)") }
        guard side == .local else { throw SparkSendFailure("the listener closed \(label) after \(bytes) bytes had left") }
        return "sent \(label): " + SparkText.summary(bytes: UInt64(bytes), since: started, sha256: sha256)
    }
}
