import BlueproofWire

/// One LE credit-based connection-oriented channel (Core Vol 3, Part A §10.1, §3.4), sans I/O.
///
/// Sending: SDUs are cut into K-frames of at most the peer's MPS, the first carrying the SDU
/// length; each K-frame costs one credit the peer granted, and frames without a credit wait
/// in a queue until a Flow Control Credit Indication brings more.
///
/// Receiving: each K-frame uses one credit this side granted; frames are checked against the
/// local MPS and MTU and reassembled into SDUs. Credits go back to the peer once half the
/// initial grant is used, so a steady stream never stalls. Every breach throws an
/// ``L2CAPCreditChannelViolation``, after which the channel must be disconnected.
public struct L2CAPCreditChannel: Sendable {
    /// One side of the channel: its CID and what it can receive.
    public struct Endpoint: Hashable, Sendable {
        public var cid: L2CAPChannelID
        /// Largest SDU this side receives.
        public var mtu: UInt16
        /// Largest K-frame information payload this side receives, SDU length field included.
        public var mps: UInt16
        /// Credits this side granted the other when the channel opened.
        public var initialCredits: UInt16

        public init(cid: L2CAPChannelID, mtu: UInt16, mps: UInt16, initialCredits: UInt16) {
            self.cid = cid
            self.mtu = mtu
            self.mps = mps
            self.initialCredits = initialCredits
        }
    }

    /// What one received K-frame produced.
    public struct Reception: Hashable, Sendable {
        /// The SDU this frame completed, if it did.
        public var sdu: [UInt8]?
        /// Credits to give back now in a Flow Control Credit Indication; 0 for none.
        public var creditsToReturn: UInt16
    }

    public let spsm: L2CAPSPSM
    /// This side: the CID the peer sends to, with the local MTU, MPS and credit grant.
    public let local: Endpoint
    /// The peer: the CID this side sends to, with its MTU, MPS and credit grant.
    public let remote: Endpoint

    /// K-frames this side may send now (credits the peer granted, not yet used).
    public private(set) var sendCredits: Int
    /// K-frames the peer may still send (credits this side granted, not yet used).
    public private(set) var peerCredits: Int
    /// While true no credits go back to the peer, so its sends stall on flow control once it
    /// has used the ones it holds (§10.1): a tester's fault, see ``withholdCredits(_:)``.
    public private(set) var creditsWithheld = false
    private var queue: [[UInt8]] = []
    private var queueHead = 0
    private var partial: [UInt8] = []
    private var expectedSDULength: Int?

    /// Largest credit count a side may hold (§4.24).
    public static let maximumCredits = Int(UInt16.max)

    public init(spsm: L2CAPSPSM, local: Endpoint, remote: Endpoint) {
        self.spsm = spsm
        self.local = local
        self.remote = remote
        sendCredits = Int(remote.initialCredits)
        peerCredits = Int(local.initialCredits)
    }

    /// K-frames waiting for credits.
    public var queuedFrameCount: Int { queue.count - queueHead }

    /// True while a received SDU is incomplete.
    public var isReassembling: Bool { expectedSDULength != nil }

    /// Segments `sdu` and returns the K-frames the current credits allow; the rest wait for
    /// ``receiveCredits(_:)``. Throws, sending nothing, when the SDU exceeds the peer's MTU.
    public mutating func send(sdu: [UInt8]) throws(L2CAPRequestError) -> [L2CAPBasicFrame] {
        guard sdu.count <= Int(remote.mtu) else {
            throw .sduExceedsRemoteMTU(size: sdu.count, mtu: remote.mtu)
        }
        guard let payloads = try? L2CAPKFrame.segment(sdu: sdu, mps: Int(remote.mps)) else {
            throw .remoteMPSTooSmall(remote.mps)
        }
        queue.append(contentsOf: payloads)
        return drain()
    }

    /// Adds credits from a Flow Control Credit Indication and returns the queued K-frames they
    /// release. Throws when the count would pass 65535 (§4.24: the channel must be
    /// disconnected).
    public mutating func receiveCredits(_ credits: UInt16) throws(L2CAPCreditChannelViolation) -> [L2CAPBasicFrame] {
        guard sendCredits + Int(credits) <= Self.maximumCredits else {
            throw .creditOverflow(current: sendCredits, added: credits)
        }
        sendCredits += Int(credits)
        return drain()
    }

    /// Takes the information payload of one K-frame received on ``local``'s CID.
    public mutating func receive(payload: [UInt8]) throws(L2CAPCreditChannelViolation) -> Reception {
        guard peerCredits > 0 else { throw .frameWithoutCredit }
        peerCredits -= 1
        guard payload.count <= Int(local.mps) else {
            throw .frameExceedsMPS(size: payload.count, mps: local.mps)
        }
        var completed: [UInt8]?
        if let expected = expectedSDULength {
            let received = partial.count + payload.count
            guard received <= expected else { throw .sduOverrun(sduLength: expected, received: received) }
            partial += payload
        } else {
            guard let (sduLength, data) = try? L2CAPKFrame.splitFirst(payload) else {
                throw .missingSDULength(size: payload.count)
            }
            guard sduLength <= Int(local.mtu) else { throw .sduExceedsMTU(sduLength: sduLength, mtu: local.mtu) }
            guard data.count <= sduLength else { throw .sduOverrun(sduLength: sduLength, received: data.count) }
            expectedSDULength = sduLength
            partial = data
            partial.reserveCapacity(sduLength)
        }
        if partial.count == expectedSDULength {
            completed = partial
            partial = []
            expectedSDULength = nil
        }
        return Reception(sdu: completed, creditsToReturn: replenish())
    }

    /// Stops returning credits to the peer (`true`), or resumes (`false`): the credits to give
    /// back now, which on resuming are those the peer used meanwhile.
    public mutating func withholdCredits(_ withheld: Bool) -> UInt16 {
        creditsWithheld = withheld
        return replenish()
    }

    /// Credit policy: once the peer has used half the initial grant (or more), top it back up.
    private mutating func replenish() -> UInt16 {
        let target = Int(local.initialCredits)
        guard !creditsWithheld, target > 0, peerCredits <= target / 2 else { return 0 }
        let returned = target - peerCredits
        peerCredits = target
        return UInt16(returned)
    }

    private mutating func drain() -> [L2CAPBasicFrame] {
        var frames: [L2CAPBasicFrame] = []
        while sendCredits > 0, queueHead < queue.count {
            frames.append(L2CAPBasicFrame(channelID: remote.cid, payload: queue[queueHead]))
            queueHead += 1
            sendCredits -= 1
        }
        if queueHead == queue.count {
            queue.removeAll(keepingCapacity: true)
            queueHead = 0
        } else if queueHead > 64, queueHead * 2 > queue.count {
            queue.removeFirst(queueHead)
            queueHead = 0
        }
        return frames
    }
}
