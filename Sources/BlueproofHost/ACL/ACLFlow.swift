import BlueproofWire

/// Host-to-controller ACL data flow control for LE-U (Core Vol 4, Part E §4.1.1), sans I/O.
///
/// The controller has `bufferCount` ACL data buffers of `bufferSize` octets each (LE Read
/// Buffer Size, §7.8.2, or Read Buffer Size, §4.10.1, when the LE size is zero). The host
/// counts the packets it has written and not yet seen returned by Number Of Completed Packets
/// (§7.7.19) and never has more in flight than there are buffers. L2CAP PDUs are split into
/// fragments of at most `bufferSize` octets (§5.4.2): the first with Packet_Boundary
/// `firstNonFlushable`, the rest `continuing`.
///
/// Callers feed PDUs, completions and disconnections in and write the returned packets to the
/// controller in the order given. When buffers free up, connections with queued data take
/// turns one packet at a time (round robin); the fragments of one connection keep their
/// order, so a PDU is never interleaved with another PDU of the same connection. Fragments
/// of different connections may interleave, which §5.4.2 allows.
public struct ACLFlow: Sendable {
    /// Octets of data per ACL packet, at least 1 (a zero or negative size given at creation is
    /// taken as 1 so that fragmenting always progresses).
    public let bufferSize: Int
    /// Packets the controller can hold, at least 0 (a negative count given is taken as 0).
    public let bufferCount: Int

    /// One queued PDU and how much of it has been released.
    private struct PendingPDU: Sendable {
        var bytes: [UInt8]
        var sent: Int = 0
    }

    /// One open connection.
    private struct Link: Sendable {
        var queue = FIFO<PendingPDU>()
        /// Why it is held; while any reason is left its fragments stay queued and take no
        /// buffer (``pause(handle:for:)``).
        var holds: Set<HoldReason> = []
        var inFlight = 0
        /// PDUs ever queued, and of them those whose every fragment the controller completed.
        var queuedTotal = 0
        var completedTotal = 0
        /// Fragments ever queued and ever completed, and, per PDU not yet completed, the
        /// fragment count at which it is (a controller completes a connection's packets in
        /// the order they were written).
        var fragmentsQueued = 0
        var fragmentsCompleted = 0
        var pduEnds = FIFO<Int>()

        /// Counts `count` more fragments completed and the PDUs they finish.
        mutating func complete(_ count: Int) {
            fragmentsCompleted += count
            while let end = pduEnds.first, end <= fragmentsCompleted {
                pduEnds.removeFirst()
                completedTotal += 1
            }
        }

        /// Cuts the next fragment off the oldest queued PDU; nil when nothing is queued.
        mutating func nextFragment(size: Int, handle: UInt16) -> HCIACLPacket? {
            guard var pdu = queue.first else { return nil }
            let end = min(pdu.bytes.count, pdu.sent + size)
            let packet = HCIACLPacket(handle: handle,
                                      packetBoundary: pdu.sent == 0 ? .firstNonFlushable : .continuing,
                                      data: Array(pdu.bytes[pdu.sent..<end]))
            pdu.sent = end
            if pdu.sent >= pdu.bytes.count {
                queue.removeFirst()
            } else {
                queue.first = pdu
            }
            return packet
        }
    }

    private var links: [UInt16: Link] = [:]
    /// Open handles in the order they were opened: the round-robin order.
    private var order: [UInt16] = []
    /// Index in `order` of the handle whose turn is next.
    private var cursor = 0
    private var totalInFlight = 0

    /// A flow for a controller with `bufferCount` buffers of `bufferSize` octets, from LE Read
    /// Buffer Size (or Read Buffer Size when the LE size is zero).
    public init(bufferSize: Int, bufferCount: Int) {
        self.bufferSize = max(1, bufferSize)
        self.bufferCount = max(0, bufferCount)
    }

    /// Controller buffers not holding a packet of ours.
    public var freeBuffers: Int { bufferCount - totalInFlight }

    /// A connection exists (LE Connection Complete or its enhanced form); data may be sent on
    /// it. Opening a handle that is already open changes nothing.
    public mutating func open(handle: UInt16) {
        let handle = handle & 0x0FFF
        guard links[handle] == nil else { return }
        links[handle] = Link()
        order.append(handle)
    }

    /// Queues a whole L2CAP PDU (its 4-byte basic header included) for `handle`, fragmented to
    /// `bufferSize`: the first fragment `firstNonFlushable`, the rest `continuing`. Returns the
    /// fragments that may be written now; the rest leave as buffers are returned.
    ///
    /// The bytes are not checked against the L2CAP header: the layer above owns that format,
    /// and fault injection may need malformed PDUs to reach the air.
    public mutating func send(_ pdu: [UInt8], on handle: UInt16) throws(ACLFlowViolation) -> [HCIACLPacket] {
        let handle = handle & 0x0FFF
        guard links[handle] != nil else { throw .unknownHandle(handle) }
        guard !pdu.isEmpty else { throw .emptyPDU(handle: handle) }
        links[handle]?.queue.append(PendingPDU(bytes: pdu))
        links[handle]?.queuedTotal += 1
        links[handle]?.fragmentsQueued += (pdu.count + bufferSize - 1) / bufferSize
        if let end = links[handle]?.fragmentsQueued { links[handle]?.pduEnds.append(end) }
        return drain()
    }

    /// Number Of Completed Packets for one handle (§7.7.19): frees `count` buffers and returns
    /// the fragments now allowed. A count above what is in flight on the handle frees only what
    /// is in flight and reports the excess; a count for a handle that is not open, or a negative
    /// count, frees nothing and is reported. None of these stop the flow.
    public mutating func completed(_ count: Int, on handle: UInt16) -> (packets: [HCIACLPacket], violation: ACLFlowViolation?) {
        let handle = handle & 0x0FFF
        guard count != 0 else { return ([], nil) }
        guard let link = links[handle] else { return ([], .completedForUnknownHandle(handle)) }
        guard count > 0 else { return ([], .negativeCompleted(handle: handle, reported: count)) }
        var violation: ACLFlowViolation?
        var freed = count
        if count > link.inFlight {
            violation = .tooManyCompleted(handle: handle, reported: count, inFlight: link.inFlight)
            freed = link.inFlight
        }
        links[handle]?.inFlight -= freed
        links[handle]?.complete(freed)
        totalInFlight -= freed
        return (drain(), violation)
    }

    /// Why a handle's fragments are held.
    public enum HoldReason: Hashable, Sendable {
        /// The host asked the controller to disconnect it; released if the controller refuses.
        case disconnecting
        /// Its end (or the handle's reuse) has been read but not yet handled; only
        /// ``close(handle:)`` ends this hold.
        case endRead
    }

    /// Holds `handle`'s queued fragments for `reason`: none is released until every reason is
    /// resumed, and other connections take the buffers. Returns false, changing nothing, for a
    /// handle not open.
    @discardableResult
    public mutating func pause(handle: UInt16, for reason: HoldReason) -> Bool {
        guard links[handle & 0x0FFF] != nil else { return false }
        links[handle & 0x0FFF]?.holds.insert(reason)
        return true
    }

    /// Ends the hold for `reason`; once none is left, `handle`'s fragments go on as buffers
    /// allow. Returns those allowed now.
    public mutating func resume(handle: UInt16, from reason: HoldReason) -> [HCIACLPacket] {
        guard links[handle & 0x0FFF]?.holds.remove(reason) != nil, links[handle & 0x0FFF]?.holds.isEmpty == true else { return [] }
        return drain()
    }

    /// Disconnection Complete (§7.7.5): forgets the handle and drops its queued PDUs (one only
    /// partly written counts as dropped). Its packets in flight are counted free, since the
    /// controller flushes them without reporting them completed (§4.3). Returns the number of
    /// PDUs dropped and the fragments of other connections now allowed. Closing a handle that
    /// is not open changes nothing.
    public mutating func close(handle: UInt16) -> (droppedPDUs: Int, packets: [HCIACLPacket]) {
        let handle = handle & 0x0FFF
        guard let link = links.removeValue(forKey: handle) else { return (0, []) }
        totalInFlight -= link.inFlight
        if let index = order.firstIndex(of: handle) {
            order.remove(at: index)
            // Keep the turn with the handle that followed the closed one.
            if index < cursor { cursor -= 1 }
            if cursor >= order.count { cursor = 0 }
        }
        return (link.queue.count, drain())
    }

    /// PDUs on `handle` not yet wholly written, the one being fragmented included; 0 for a
    /// handle that is not open.
    public func queuedPDUs(on handle: UInt16) -> Int {
        links[handle & 0x0FFF]?.queue.count ?? 0
    }

    /// PDUs ever queued on `handle` (the last one's number, counting from 1); 0 for a handle
    /// that is not open.
    public func pdusQueued(on handle: UInt16) -> Int {
        links[handle & 0x0FFF]?.queuedTotal ?? 0
    }

    /// PDUs on `handle` whose every fragment the controller reported completed (§7.7.19): the
    /// first this many of ``pdusQueued(on:)``; 0 for a handle that is not open.
    public func pdusCompleted(on handle: UInt16) -> Int {
        links[handle & 0x0FFF]?.completedTotal ?? 0
    }

    /// Packets written on `handle` and not yet reported completed; 0 for a handle that is not
    /// open.
    public func inFlight(on handle: UInt16) -> Int {
        links[handle & 0x0FFF]?.inFlight ?? 0
    }

    /// Releases fragments while buffers are free, one per connection with queued data in turn.
    private mutating func drain() -> [HCIACLPacket] {
        var packets: [HCIACLPacket] = []
        while freeBuffers > 0, let index = nextReady() {
            let handle = order[index]
            cursor = (index + 1) % order.count
            guard let packet = links[handle]?.nextFragment(size: bufferSize, handle: handle) else { break }
            links[handle]?.inFlight += 1
            totalInFlight += 1
            packets.append(packet)
        }
        return packets
    }

    /// Index in `order` of the first handle with queued data and not paused, starting at `cursor`.
    private func nextReady() -> Int? {
        guard !order.isEmpty else { return nil }
        for step in 0..<order.count {
            let index = (cursor + step) % order.count
            if let link = links[order[index]], link.holds.isEmpty, !link.queue.isEmpty { return index }
        }
        return nil
    }
}

/// A first-in first-out queue with O(1) amortised removal at the front.
struct FIFO<Element: Sendable>: Sendable {
    private var storage: [Element] = []
    private var head = 0

    var count: Int { storage.count - head }
    var isEmpty: Bool { head >= storage.count }

    var first: Element? {
        get { isEmpty ? nil : storage[head] }
        set {
            guard !isEmpty, let newValue else { return }
            storage[head] = newValue
        }
    }

    mutating func append(_ element: Element) { storage.append(element) }

    @discardableResult
    mutating func removeFirst() -> Element? {
        guard !isEmpty else { return nil }
        let element = storage[head]
        head += 1
        if head >= 64, head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return element
    }
}
