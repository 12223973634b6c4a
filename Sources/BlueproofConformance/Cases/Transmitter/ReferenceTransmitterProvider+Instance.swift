import BlueproofTransmitter

extension ReferenceTransmitterProvider {
    /// Another reference transmitter in this process with the subject's defects, on a session in
    /// memory and a simulated link of its own (it needs no peer: the rules it serves are about
    /// the process, "Log levels"). The caller stops it.
    public func anotherInstance(for context: CaseContext) async throws -> any TransmitterControl {
        let network = SimulatedNetwork(airRate: Self.simulatedAirRate) { _, _ in true }
        let configuration = TransmitterConfiguration(
            link: network.link(kind: .ble), session: InMemorySession(identity: try Self.simulatedIdentities().make()),
            apiKey: Self.apiKey, licence: try Self.licence(), defects: defects.engine)
        let transmitter = Transmitter(configuration: configuration)
        return defects.isEmpty ? transmitter : DefectiveTransmitter(wrapping: transmitter, defects: defects)
    }
}
