import BlueproofBluenet
import BlueproofBluenetHost
import BlueproofHost

// issue 18: Bluenet
extension ReferenceTransmitterProvider {
    /// The reference Bluenet library on the case's node `node`, its deadlines on the case's
    /// clock; with `bluenet…` defects, the broken variant (``DefectiveBluenet``).
    public func bluenet(on node: Int, for context: CaseContext) async throws -> any BluenetControl {
        await Self.bluenetLibrary(on: try context.host(node), clock: context.clock, defects: defects)
    }

    /// The reference Bluenet library on `host` (started), or the broken variant the `bluenet…`
    /// defects among `defects` make (`blueproof dut` serves it over the control protocol).
    public static func bluenetLibrary(on host: LEHost, clock: some Clock<Duration>, defects: Set<Defect>) async -> any BluenetControl {
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
