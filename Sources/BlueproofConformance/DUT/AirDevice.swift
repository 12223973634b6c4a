import BlueproofWire

/// `blueproof run --dut-address`: a device under test on the air (a phone running the
/// transfer sample, a board), sharing the backend with the runner's controllers but not behind
/// them: the runner cannot see its HCI traffic, put the radio proxy in front of it, or read
/// what it reports. It plays one role; the runner's reference plays the other, and only the
/// cases whose rule shows on the reference's side apply (docs/dut.md, "A device on the air").
public struct AirDevice: Hashable, Sendable, CustomStringConvertible {
    /// The device's address; nil: the first advertiser of the transfer service (phones
    /// change their address; a central under test is recognised by connecting to us).
    public var address: BDAddress?
    /// The role it plays: `peripheral` (node 0 of a transfer case) or `central` (node 1).
    public var role: DUTRole
    /// What a peripheral device sends (the text or file it was given), for byte-exact checks.
    public var payload: [UInt8]?

    public init(address: BDAddress?, role: DUTRole, payload: [UInt8]?) {
        self.address = address
        self.role = role
        self.payload = payload
    }

    /// The transfer case node this device stands for.
    public var node: Int { role == .central ? 1 : 0 }

    public var description: String { "air: \(address?.description ?? "any advertiser of the service") as \(role.rawValue)" }
}
