/// The range each integer of a profile must fall in, checked when the profile is loaded, so a
/// case never meets an impossible value (a negative size, a zero timeout) and a refusal names
/// the line and the range (docs/runner.md, "Profiles"). A number word (`unlimited`, …) is not
/// an integer and is not checked.
public enum ProfileRanges {
    /// The largest payload size: 512 KiB. Size cases send N+1 bytes, which travel base64'd
    /// (about 700 KB) in one control-protocol line of at most 1 MiB; the documented limits
    /// are 1, 2 and 120 KB.
    public static let maxPayloadBytes = 512 * 1024
    /// The longest duration, in seconds: a day. Cases wait for these; runs last minutes.
    public static let maxSeconds = 86_400
    /// RSSI in dBm, as an advertising report carries it (Core Vol 4, Part E §7.7.65.2).
    public static let rssi: ClosedRange<Int> = -127...20
    /// The largest attribute value (Core Vol 3, Part F §3.2.9).
    public static let maxAttributeBytes = 512
    /// The most a receiving central buffers: the harness's own `TransferReassembler` limit.
    public static let maxTransferBytes = 64 * 1024 * 1024

    /// An allowed range and what the value means, for the refusal.
    public struct Range: Hashable, Sendable {
        public var bounds: ClosedRange<Int>
        public var meaning: String
    }

    static let payloadSize = Range(bounds: 1...maxPayloadBytes, meaning: "a payload size in bytes")
    static let seconds = Range(bounds: 1...maxSeconds, meaning: "a duration in seconds, at most a day")
    static let dBm = Range(bounds: rssi, meaning: "an RSSI in dBm")
    static let smallCount = Range(bounds: 1...255, meaning: "a count")
    static let byte = Range(bounds: 0...255, meaning: "a byte value")

    /// By dotted key; a list of integers is checked item by item.
    public static let ranges: [String: Range] = [
        "version": Range(bounds: 1...1, meaning: "the profile format version"),
        "bridgefy.limits.kilobyte_bytes": Range(bounds: 1000...1024, meaning: "bytes in a kilobyte"),
        "bridgefy.limits.ble.dictionary_bytes": payloadSize,
        "bridgefy.limits.ble.dictionary_recommended_bytes": payloadSize,
        "bridgefy.limits.ble.binary_bytes": payloadSize,
        "bridgefy.limits.ble.mesh_dictionary_bytes": payloadSize,
        "bridgefy.limits.ble.mesh_binary": payloadSize,
        "bridgefy.limits.wifi.dictionary_bytes": payloadSize,
        "bridgefy.limits.wifi.binary_bytes": payloadSize,
        "bridgefy.limits.wifi.mesh_dictionary_bytes": payloadSize,
        "bridgefy.limits.wifi.mesh_binary": payloadSize,
        "bridgefy.limits.mesh_dictionary_bytes": payloadSize,
        "bridgefy.throughput.ble_kbps": Range(bounds: 1...1_000_000, meaning: "a rate in kbit/s"),
        "bridgefy.throughput.wifi_mbps": Range(bounds: 1...100_000, meaning: "a rate in Mbit/s"),
        "bridgefy.on_demand.max_connections": smallCount,
        "bridgefy.mesh.hop_limit": Range(bounds: 1...255, meaning: "a number of hops (transmissions from the sender)"),
        "bridgefy.secure_connection.expiration_limit_default": seconds,
        "bridgefy.log.levels.error": byte,
        "bridgefy.log.levels.info": byte,
        "bridgefy.log.levels.debug": byte,
        "bridgefy.log.levels.trace": byte,
        "bridgefy.chat.name_prefix_chars": Range(bounds: 1...36, meaning: "characters of a UUID"),
        "transfer.rssi_gate_dbm": dBm,
        "transfer.rssi_max_dbm": dBm,
        "transfer.rssi_unavailable_value": Range(bounds: -128...127, meaning: "an HCI RSSI byte (signed)"),
        "transfer.att_header_bytes": Range(bounds: 1...maxAttributeBytes, meaning: "a header size in bytes"),
        "transfer.max_attribute_bytes": Range(bounds: 1...maxAttributeBytes, meaning: "an attribute value size in bytes"),
        "transfer.payload_limit_bytes": Range(bounds: 1...maxTransferBytes, meaning: "a transfer size in bytes"),
        "spark.metadata_max_bytes": payloadSize,
        "spark.concurrent_connections_sample": smallCount,
        "bluenet.connect_timeout_s": seconds,
        "bluenet.disconnect_timeout_s": seconds,
        "bluenet.switch_states": Range(bounds: 0...100, meaning: "a switch state (0 off, 1 on, up to 100 dimmed)"),
        "bluenet.ranging_interval_s": seconds,
        "bluenet.min_beacons_for_prediction": smallCount,
        "bluenet.service_data_byte_max": byte,
    ]

    /// The words a list may hold, by dotted key.
    public static let words: [String: Set<String>] = [
        Profile.optionalPreconditionsKey: Set(Precondition.allCases.map(\.rawValue)),
    ]

    /// Why `value` does not fit `key`'s range or words, or nil when it does (or `key` has none).
    static func problem(_ key: String, _ value: ProfileValue) -> String? {
        if let allowed = words[key], case let .list(items) = value,
           let unknown = items.first(where: { !allowed.contains($0.text) }) {
            return "\(key): '\(unknown.text)' is not one of \(allowed.sorted().joined(separator: ", "))"
        }
        guard let range = ranges[key] else { return nil }
        let numbers: [Int]
        switch value {
        case let .int(number): numbers = [number]
        case let .list(items): numbers = items.compactMap { if case let .int(number) = $0 { number } else { nil } }
        default: return nil
        }
        guard let outside = numbers.first(where: { !range.bounds.contains($0) }) else { return nil }
        return "\(key): \(outside) is outside \(range.bounds.lowerBound)...\(range.bounds.upperBound) (\(range.meaning))"
    }
}
