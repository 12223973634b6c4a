import Foundation

/// A location's fingerprint (bluenet-lib-ios README, "Fingerprint"): for each beacon's
/// idString, the RSSI values collected there. Built from, and written to, the stringified JSON
/// `{"<idString>": [rssi, …], …}`.
public struct Fingerprint: Hashable, Sendable {
    public private(set) var samples: [String: [Int]]

    /// Checks the bounds of ``BluenetLimits`` and the RSSI range.
    public init(samples: [String: [Int]]) throws(BluenetError) {
        guard samples.count <= BluenetLimits.fingerprintBeaconsMaximum else {
            throw .fingerprintTooLarge(what: "beacons", count: samples.count, limit: BluenetLimits.fingerprintBeaconsMaximum)
        }
        // Sorted, so that the refusal named is the same on every run.
        for (key, values) in samples.sorted(by: { $0.key < $1.key }) {
            guard !key.isEmpty, key.utf8.count <= BluenetLimits.identifierMaximum else {
                throw .fingerprintMalformed("an id string of \(key.utf8.count) octets (1 to \(BluenetLimits.identifierMaximum))")
            }
            guard values.count <= BluenetLimits.fingerprintSamplesMaximum else {
                throw .fingerprintTooLarge(what: "samples for one beacon", count: values.count, limit: BluenetLimits.fingerprintSamplesMaximum)
            }
            if let bad = values.first(where: { !BluenetLimits.rssiRange.contains($0) }) { throw .rssiOutOfRange(bad) }
        }
        guard samples.values.contains(where: { !$0.isEmpty }) else { throw .fingerprintEmpty }
        self.samples = samples
    }

    /// Parses the stringified form; refuses more than ``BluenetLimits/fingerprintTextMaximum``
    /// octets before parsing, then anything but an object of arrays of integers.
    public init(string: String) throws(BluenetError) {
        let octets = string.utf8.count
        guard octets <= BluenetLimits.fingerprintTextMaximum else {
            throw .fingerprintTooLong(octets: octets, limit: BluenetLimits.fingerprintTextMaximum)
        }
        let decoded: [String: [Int]]
        do {
            decoded = try JSONDecoder().decode([String: [Int]].self, from: Data(string.utf8))
        } catch {
            throw .fingerprintMalformed(Self.reason(error))
        }
        try self.init(samples: decoded)
    }

    /// The stringified JSON, keys sorted, no whitespace.
    public func stringify() -> String { BluenetJSON.string(samples) }

    private static func reason(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "not JSON" }
        switch error {
        case let .typeMismatch(_, context), let .valueNotFound(_, context), let .keyNotFound(_, context), let .dataCorrupted(context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? String(context.debugDescription.prefix(120)) : "at \(path.prefix(120))"
        @unknown default:
            return "not JSON"
        }
    }
}
