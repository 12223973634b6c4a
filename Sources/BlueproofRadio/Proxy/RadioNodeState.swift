import BlueproofWire

/// What the proxy knows about one node's link, learnt from the packets that pass.
struct RadioNodeState: Sendable {
    /// The controller's public address: set by the world, or read from Read BD_ADDR's answer.
    var address: BDAddress?
    /// Random addresses the host took (LE Set Random Address answered with success, Vol 4,
    /// Part E §7.8.4), newest last, at most ``randomAddressLimit``: a host that rotates its
    /// address is still this node to reports and connection requests naming an address it
    /// advertised a moment ago.
    var randomAddresses: [BDAddress] = []
    /// The address of an LE Set Random Address the controller has not answered yet.
    var pendingRandomAddress: BDAddress?
    static let randomAddressLimit = 8
    var scanning = false
    var filterDuplicates = false
    /// Counts scans, so a timer of an ended scan is recognised.
    var scan = 0
    /// Whether the host has advertising enabled (a connection as peripheral ends it).
    var advertising = false
    /// The last report of each advertiser heard during this scan.
    var cache: [RadioReportKey: RadioCachedReport] = [:]
    /// Reports delivered during this scan, for duplicate filtering (§7.8.11).
    var delivered: Set<RadioReportKey> = []
    /// Advertisers whose hiding was already logged since the pair's range last changed.
    var hiddenLogged: Set<Int> = []
    /// Open connections: handle → peer address.
    var connections: [UInt16: BDAddress] = [:]
    /// Whether a connection has ever completed (the origin of `since: connection` faults).
    var connectedOnce = false
    /// Handles the proxy ended: their late data, Disconnection Complete and credits are swallowed.
    var closedHandles: Set<UInt16> = []
    /// A connection attempt to an out-of-range peer, not passed to the controller.
    var held: HeldConnection?
    /// Commands the proxy sent itself: their Command Status or Complete is not the host's.
    var ownCommands: [HCIOpcode: Int] = [:]

    struct HeldConnection: Sendable {
        var command: HCICommandPacket
        var peer: BDAddress
        var peerType: LEAddressType
        var extended: Bool
    }

    /// Whether `candidate` is this node's public address or one of its random ones.
    func owns(_ candidate: BDAddress) -> Bool {
        address == candidate || randomAddresses.contains(candidate)
    }

    /// Takes the pending random address once its command succeeded.
    mutating func randomAddressTaken() {
        guard let taken = pendingRandomAddress else { return }
        pendingRandomAddress = nil
        randomAddresses.removeAll { $0 == taken }
        randomAddresses.append(taken)
        if randomAddresses.count > Self.randomAddressLimit { randomAddresses.removeFirst() }
    }

    /// Consumes one answer owed to the proxy for `opcode`, if any.
    mutating func takeOwnAnswer(_ opcode: HCIOpcode) -> Bool {
        guard let count = ownCommands[opcode], count > 0 else { return false }
        ownCommands[opcode] = count == 1 ? nil : count - 1
        return true
    }
}
