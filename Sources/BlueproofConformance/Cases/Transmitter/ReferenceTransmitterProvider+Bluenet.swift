import BlueproofHost

// issue 18: Bluenet
extension ReferenceTransmitterProvider {
    /// The reference Bluenet library on the case's node `node`, its deadlines on the case's
    /// clock; with `bluenet…` defects, the broken variant (``DefectiveBluenet``).
    public func bluenet(on node: Int, for context: CaseContext) async throws -> any BluenetControl {
        let (host, clock) = (try context.host(node), context.clock)
        let reference = await Self.referenceBluenet(on: host, clock: clock)
        let faults = DefectiveBluenet.relevant(defects)
        return faults.isEmpty ? reference : DefectiveBluenet(wrapping: reference, defects: faults) {
            await Self.referenceBluenet(on: host, clock: clock)
        }
    }

    private static func referenceBluenet(on host: LEHost, clock: some Clock<Duration>) async -> any BluenetControl {
        await ReferenceBluenet(host: host, clock: clock)
    }
}
