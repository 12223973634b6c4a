import BlueproofWire

extension LEHost {
    /// Hands one L2CAP PDU to its channel (Vol 3, Part A §2.1).
    func receiveL2CAP(_ frame: L2CAPBasicFrame, on connection: LEConnection) {
        violation("no handler for \(frame.channelID) on 0x\(hex(connection.handle))")
    }

    func linkOpened(_ connection: LEConnection) {}

    func linkClosed(_ connection: LEConnection, reason: HCIStatus) {}
}
