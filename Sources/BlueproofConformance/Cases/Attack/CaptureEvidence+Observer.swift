import BlueproofWire

/// One thing a passive observer heard a node advertise that may tell it apart (issue 15:
/// passive observers and the hello; docs/security.md "Tracking by a passive observer"): its
/// address, or an AD structure of its advertising data or scan response.
struct ObservedIdentifier: Hashable, Sendable, CustomStringConvertible {
    enum Kind: Hashable, Sendable {
        case address
        case advertised(AdvertisingDataType)
        /// Advertising data that does not decode, kept whole.
        case undecodable
    }

    var kind: Kind
    var bytes: [UInt8]

    var description: String {
        switch kind {
        case .address: "address \(BDAddress(littleEndian: bytes))"
        case .advertised(let type): "\(type) \(hex(bytes))"
        case .undecodable: "advertising data \(hex(bytes))"
        }
    }
}

extension ObservedIdentifier {
    /// An AD structure written as the profile declares one, `TYPE:HEX` (the AD type and its data
    /// in hexadecimal, `ff:ffff00`); nil when `text` is not of that form.
    init?(declared text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let type = BlueproofWire.bytes(fromHex: String(parts[0])), type.count == 1,
              let data = BlueproofWire.bytes(fromHex: String(parts[1])) else { return nil }
        self.init(kind: .advertised(AdvertisingDataType(rawValue: type[0])), bytes: data)
    }
}

extension CaptureEvidence {
    /// What cannot tell one node from another: the flags (Core Supplement Part A §1.3), one
    /// octet of discoverability and BR/EDR support. Service UUID lists do count: a UUID can be
    /// made per device as easily as any other payload; the service every node lists is one of
    /// the constants a profile declares (``ObservedIdentifier/init(declared:)``).
    static let sharedADTypes: Set<AdvertisingDataType> = [.flags]

    /// Every identifier in the advertising reports of `frames` (1-based; all when nil): what a
    /// scanner that never connects records, as this capture shows it.
    func observedIdentifiers(in frames: ClosedRange<Int>? = nil) -> Set<ObservedIdentifier> {
        var found: Set<ObservedIdentifier> = []
        for report in advertisingReports where frames?.contains(report.frame) ?? true {
            found.formUnion(Self.identifiers(address: report.address, data: report.data))
        }
        return found
    }

    /// What one advertising report shows of its sender: the address, and each AD structure
    /// but the shared ones (the whole data when it does not decode).
    static func identifiers(address: BDAddress, data bytes: [UInt8]) -> Set<ObservedIdentifier> {
        var found: Set<ObservedIdentifier> = [ObservedIdentifier(kind: .address, bytes: address.littleEndianBytes)]
        guard let data = try? AdvertisingData(bytes: bytes) else {
            found.insert(ObservedIdentifier(kind: .undecodable, bytes: bytes))
            return found
        }
        for structure in data.structures where !sharedADTypes.contains(structure.type) {
            found.insert(ObservedIdentifier(kind: .advertised(structure.type), bytes: structure.data))
        }
        return found
    }

    /// The identifiers heard in more than one of `runs`: what lets an observer link them.
    static func linking(_ runs: [Set<ObservedIdentifier>]) -> Set<ObservedIdentifier> {
        var seen: Set<ObservedIdentifier> = []
        var linked: Set<ObservedIdentifier> = []
        for run in runs {
            linked.formUnion(run.intersection(seen))
            seen.formUnion(run)
        }
        return linked
    }
}
