import BlueproofWire

/// HCI command flow control (Core Vol 4, Part E §4.4), sans I/O.
///
/// The host may have as many commands in flight as the controller's last
/// Num_HCI_Command_Packets allows; after a reset it assumes one. Each Command Complete or
/// Command Status sets the allowance anew and answers the oldest outstanding command with the
/// same opcode. Callers feed submissions and events in, and carry out the returned actions.
public struct HCICommandFlow: Sendable {
    /// Identifies one submitted command.
    public struct Ticket: Hashable, Sendable, Comparable {
        public let id: UInt64
        public static func < (lhs: Ticket, rhs: Ticket) -> Bool { lhs.id < rhs.id }
    }

    /// How the controller answered a command.
    public enum Answer: Hashable, Sendable {
        /// Command Complete, with its return parameters (status first).
        case complete(returnParameters: [UInt8])
        /// Command Status; the outcome, if any, follows in a later event.
        case status(HCIStatus)
    }

    /// What the caller must do next.
    public enum Action: Hashable, Sendable {
        /// Write this command to the controller now.
        case send(Ticket, HCICommandPacket)
        /// The command was answered.
        case answer(Ticket, Answer)
        /// The controller broke the protocol; log it and go on.
        case violation(Violation)
    }

    /// A controller that answered what was never asked.
    public struct Violation: Error, Hashable, Sendable, CustomStringConvertible {
        public var opcode: HCIOpcode
        public var event: String
        public init(opcode: HCIOpcode, event: String) {
            self.opcode = opcode
            self.event = event
        }
        public var description: String { "\(event) for opcode \(opcode) that has no command outstanding" }
    }

    /// Commands the controller will accept now.
    public private(set) var credits: Int = 1
    private var queued: [(Ticket, HCICommandPacket)] = []
    private var outstanding: [(Ticket, HCIOpcode)] = []
    private var nextID: UInt64 = 0

    public init() {}

    /// Commands waiting for a credit.
    public var queuedCount: Int { queued.count }
    /// Commands sent and not yet answered.
    public var outstandingCount: Int { outstanding.count }

    /// Submits a command; it is sent at once when a credit is free, otherwise when one returns.
    public mutating func submit(_ command: HCICommandPacket) -> (Ticket, [Action]) {
        nextID += 1
        let ticket = Ticket(id: nextID)
        queued.append((ticket, command))
        return (ticket, drain())
    }

    /// Feeds a Command Complete (opcode 0x0000 only updates the allowance).
    public mutating func commandComplete(
        opcode: HCIOpcode, numHCICommandPackets: UInt8, returnParameters: [UInt8]
    ) -> [Action] {
        answer(opcode: opcode, credits: numHCICommandPackets, event: "Command Complete",
                   with: .complete(returnParameters: returnParameters))
    }

    /// Feeds a Command Status (opcode 0x0000 only updates the allowance).
    public mutating func commandStatus(
        opcode: HCIOpcode, numHCICommandPackets: UInt8, status: HCIStatus
    ) -> [Action] {
        answer(opcode: opcode, credits: numHCICommandPackets, event: "Command Status", with: .status(status))
    }

    /// Forgets a command that will not be answered (timed out, or its waiter went away);
    /// the credit it used is not returned, as the controller may still be working on it.
    public mutating func abandon(_ ticket: Ticket) {
        queued.removeAll { $0.0 == ticket }
        outstanding.removeAll { $0.0 == ticket }
    }

    /// Forgets everything (the controller is gone or was reset); returns the dropped tickets.
    public mutating func reset() -> [Ticket] {
        defer {
            queued.removeAll()
            outstanding.removeAll()
            credits = 1
        }
        return (outstanding.map(\.0) + queued.map(\.0)).sorted()
    }

    private mutating func answer(
        opcode: HCIOpcode, credits newCredits: UInt8, event: String, with answer: Answer
    ) -> [Action] {
        credits = Int(newCredits)
        var actions: [Action] = []
        if opcode.rawValue != 0 {
            if let index = outstanding.firstIndex(where: { $0.1 == opcode }) {
                actions.append(.answer(outstanding.remove(at: index).0, answer))
            } else {
                // The allowance still counts, so queued commands still leave.
                actions.append(.violation(Violation(opcode: opcode, event: event)))
            }
        }
        return actions + drain()
    }

    private mutating func drain() -> [Action] {
        var actions: [Action] = []
        while credits > 0, !queued.isEmpty {
            let (ticket, command) = queued.removeFirst()
            credits -= 1
            outstanding.append((ticket, command.opcode))
            actions.append(.send(ticket, command))
        }
        return actions
    }
}
