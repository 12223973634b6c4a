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

extension CaptureEvidence {
    /// What every node of the service advertises alike (Core Supplement Part A §1.3 flags, §1.1
    /// service UUID lists): it names the service, which peers must find, not the node.
    static let sharedADTypes: Set<AdvertisingDataType> = [
        .flags, .incompleteServiceUUIDs16, .completeServiceUUIDs16, .incompleteServiceUUIDs32,
        .completeServiceUUIDs32, .incompleteServiceUUIDs128, .completeServiceUUIDs128,
    ]

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
