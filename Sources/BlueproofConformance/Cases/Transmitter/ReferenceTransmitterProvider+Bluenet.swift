import BlueproofBluenet
import BlueproofBluenetHost
import BlueproofHost

// issue 18: Bluenet
extension ReferenceTransmitterProvider {
    /// The reference Bluenet library on the case's node `node`, its deadlines on the case's
    /// clock; with `bluenet…` defects, the broken variant (``DefectiveBluenet``).
    public func bluenet(on node: Int, for context: CaseContext) async throws -> any BluenetControl {
        let (host, clock) = (try context.host(node), context.clock)
        let faults = DefectiveBluenet.relevant(defects)
        guard !faults.isEmpty else { return await Self.referenceBluenet(on: host, clock: clock) }
        let reading = DefectiveBluenet.beaconReading(faults)
        let reference = await Self.referenceBluenet(on: host, clock: clock, connection: DefectiveBluenet.connection(faults),
                                                    localization: DefectiveBluenet.localization(faults), beaconReader: reading.reader)
        return DefectiveBluenet(wrapping: reference, defects: faults, beacons: reading.beacons) {
            await Self.referenceBluenet(on: host, clock: clock)
        }
    }

    private static func referenceBluenet(on host: LEHost, clock: some Clock<Duration>, connection: BluenetConnection.Configuration = .init(),
                                         localization: BluenetLocalization.Configuration = .init(),
                                         beaconReader: @escaping IBeaconReader = standardIBeaconReader) async -> any BluenetControl {
        await ReferenceBluenet(host: host, clock: clock, connection: connection, localization: localization, beaconReader: beaconReader)
    }
}
