/// `blueproof run --dut-exec COMMAND`: the implementation under test as a program the runner
/// starts for each case, on the node the case gives it (docs/dut.md).
public struct DUTExec: Hashable, Sendable, CustomStringConvertible {
    /// A shell command line (`/bin/sh -c`), e.g. `python examples/duts/transfer_peripheral.py`.
    public var command: String
    /// How long the program has to end after SIGTERM before SIGKILL.
    public var grace: Duration
    /// How long the program may take to show it is up (a peripheral advertising, a transmitter
    /// listening on its control socket).
    public var startTimeout: Duration

    public init(command: String, grace: Duration = .seconds(2), startTimeout: Duration = .seconds(20)) {
        self.command = command
        self.grace = grace
        self.startTimeout = startTimeout
    }

    public var description: String { "exec: \(command)" }
}

/// The part the implementation plays in one launch (`BLUEPROOF_ROLE`).
public enum DUTRole: String, Hashable, Sendable, CaseIterable {
    /// The transfer sample's peripheral: advertises, notifies `BLUEPROOF_PAYLOAD` in chunks, then EOM.
    case peripheral
    /// The transfer sample's central: gates on RSSI, connects, reassembles, writes back.
    case central
    /// A transmitter serving the control protocol on `BLUEPROOF_CONTROL`.
    case transmitter
    // issue 17: Spark data connections
    /// A Spark subject serving the protocol's Spark commands (version 5) on `BLUEPROOF_CONTROL`.
    case spark
    // issue 18: Bluenet
    /// A Bluenet library serving the protocol's Bluenet commands (version 6) on `BLUEPROOF_CONTROL`.
    case bluenet
}

/// The environment a launch gets, added to the runner's own (docs/dut.md, "The environment").
public enum DUTEnvironment {
    /// The node's controller as an H4 server: `tcp:127.0.0.1:PORT`.
    public static let hci = "BLUEPROOF_HCI"
    public static let role = "BLUEPROOF_ROLE"
    public static let caseID = "BLUEPROOF_CASE"
    /// A file holding the bytes a peripheral sends.
    public static let payload = "BLUEPROOF_PAYLOAD"
    /// A folder the program may write into; a central writes `received.bin` there.
    public static let output = "BLUEPROOF_OUTPUT"
    /// Where a transmitter listens for the control protocol: `unix:PATH`.
    public static let control = "BLUEPROOF_CONTROL"
    /// The exit status that says "I do not play this role": the case does not apply.
    public static let unsupportedRoleStatus: Int32 = 77
    /// The file a central writes the message it reassembled to, in the output folder.
    public static let receivedFile = "received.bin"
    /// The prefix of the line that names the implementation (its first such line counts).
    public static let helloPrefix = "blueproof-dut:"
}
