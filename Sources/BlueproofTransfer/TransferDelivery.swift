/// What a sender has handed its host and what the controller has completed, sans I/O
/// (Number Of Completed Packets, Core Vol 4, Part E §7.7.19): a chunk counts as sent only once
/// the controller has completed its PDU, so a connection that ends with chunks still queued
/// reports what left, not what was handed over, and a controller that takes chunks faster than
/// it sends them cannot make the throughput look higher than it is.
///
/// Values are numbered as the host numbers a connection's outbound PDUs
/// (``LEHost/notifyTracked(_:of:to:)``); the controller completes them in that order.
struct TransferDelivery: Sendable {
    /// One value handed over and not yet completed: its PDU's number, and its data bytes (nil
    /// for the "EOM" marker).
    private struct Pending: Sendable {
        var pdu: Int
        var bytes: Int?
    }

    private var pending: [Pending] = []
    private var head = 0
    /// Data bytes and chunks completed so far, and the longest chunk among them.
    private(set) var bytes = 0
    private(set) var chunks = 0
    private(set) var largestChunk = 0
    /// Whether the marker has been completed.
    private(set) var markerSent = false

    /// A value was handed to the host as outbound PDU `pdu`; `dataBytes` nil for the marker.
    mutating func handedOver(pdu: Int, dataBytes: Int?) {
        pending.append(Pending(pdu: pdu, bytes: dataBytes))
    }

    /// The controller has completed the connection's first `completedPDUs` PDUs. Returns
    /// whether a value of this transfer was among the newly completed ones.
    @discardableResult
    mutating func completed(through completedPDUs: Int) -> Bool {
        let before = head
        while head < pending.count, pending[head].pdu <= completedPDUs {
            count(pending[head].bytes)
            head += 1
        }
        if head > 64, head * 2 > pending.count {
            pending.removeFirst(head)
            head = 0
        }
        return head != before
    }

    /// A value the peer confirmed (an indication's Handle Value Confirmation, Core Vol 3,
    /// Part F §3.4.7.3): it arrived, so it counts at once.
    mutating func confirmed(dataBytes: Int?) {
        count(dataBytes)
    }

    private mutating func count(_ dataBytes: Int?) {
        if let dataBytes {
            bytes += dataBytes
            chunks += 1
            largestChunk = max(largestChunk, dataBytes)
        } else {
            markerSent = true
        }
    }

    /// The PDU number of the oldest value not yet completed; nil when all were.
    var nextPending: Int? { head < pending.count ? pending[head].pdu : nil }
}
