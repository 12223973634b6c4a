import ArgumentParser
import BlueproofHost
import BlueproofWire

/// What `blueproof advertise` puts on the air, and how it becomes advertising data and a scan
/// response that each fit a legacy PDU (31 octets, Vol 4, Part E §7.8.7).
struct AdvertisementOptions: ParsableArguments {
    @Option(name: .long, help: "Complete local name.")
    var name: String?

    @Option(name: .long, help: ArgumentHelp("A service UUID to list (repeatable).", valueName: "uuid"))
    var service: [BluetoothUUID] = []

    @Option(name: .long, help: ArgumentHelp(
        "Advertise as an iBeacon: proximity UUID, major, minor and measured power at 1 m.",
        valueName: "uuid:major:minor[:power]"))
    var ibeacon: String?

    @Option(name: .long, help: ArgumentHelp("Manufacturer data: company id in hex, then the data in hex.",
                                            valueName: "company:hex"))
    var manufacturer: String?

    // Unconditional: `--tx-power -4` is a value, not an option.
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("TX power level to advertise, dBm.", valueName: "dBm"))
    var txPower: Int8?

    @Flag(name: .long, help: "Advertise as non-connectable.")
    var nonConnectable = false

    /// The advertising parameters: flags, services, beacon, manufacturer data and TX power in
    /// the advertising data; the name there too when it fits, else in the scan response.
    func parameters() throws -> LEAdvertisingParameters {
        var data = AdvertisingData([.flags(.generalDiscoverableLEOnly)])
        data.append(contentsOf: AdvertisingDataStructure.serviceUUIDs(service, complete: true))
        // The beacon's own advertising data starts with Flags too; one Flags structure per
        // advertisement (Core Supplement Part A §1.3.1: at most once), so only the beacon is added.
        if let ibeacon { data.append(.manufacturerSpecificData(try parseIBeacon(ibeacon).manufacturerData)) }
        if let manufacturer { data.append(.manufacturerSpecificData(try parseManufacturer(manufacturer))) }
        if let txPower { data.append(.txPowerLevel(txPower)) }
        var scanResponse = AdvertisingData()
        if let name {
            let structure = AdvertisingDataStructure.localName(name)
            if data.encodedCount + structure.encodedCount <= AdvertisingData.legacyMaximumLength {
                data.append(structure)
            } else {
                scanResponse.append(structure)
            }
        }
        do {
            return LEAdvertisingParameters(data: try data.encodedLegacy(), scanResponse: try scanResponse.encodedLegacy(),
                                           connectable: !nonConnectable)
        } catch {
            throw ValidationError("the advertisement does not fit a legacy PDU: \(error)")
        }
    }

    private func parseIBeacon(_ text: String) throws -> IBeacon {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard (3...4).contains(parts.count), let uuid = BluetoothUUID(parts[0]),
              let major = UInt16(parts[1]), let minor = UInt16(parts[2]) else {
            throw ValidationError("--ibeacon: expected uuid:major:minor[:power], e.g. E2C56DB5-DFFB-48D2-B060-D0F5A71096E0:1:2:-59")
        }
        let power = parts.count == 4 ? Int8(parts[3]) : -59
        guard let power else { throw ValidationError("--ibeacon: measured power must be -128...127 dBm") }
        return IBeacon(proximityUUID: uuid, major: major, minor: minor, measuredPower: power)
    }

    private func parseManufacturer(_ text: String) throws -> ManufacturerSpecificData {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2, let company = UInt16(parts[0], radix: 16), let bytes = bytes(fromHex: parts[1]) else {
            throw ValidationError("--manufacturer: expected company:hex, e.g. 004C:0102")
        }
        return ManufacturerSpecificData(companyIdentifier: company, data: bytes)
    }
}
