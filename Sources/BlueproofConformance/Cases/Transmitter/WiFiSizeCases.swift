import BlueproofTransmitter
import Foundation

/// The size table's unrestricted Wi-Fi rows (bridgefy-ios-sdk-readme.md, "Maximum package sizes
/// and throughput": direct dictionaries and binary data over Wi-Fi peer-to-peer are not
/// restricted), judged between two iOS-like nodes on Wi-Fi peer-to-peer: a payload of twice
/// the largest BLE number of its kind is accepted and delivered intact.
enum WiFiSizeCases {
    static func all() -> [any TransmitterCase] {
        [
            WiFiDirectCase(id: "BFT/SIZE/BV-12", binary: false, brokenBy: [.wifiDictionaryLimited]),
            WiFiDirectCase(id: "BFT/SIZE/BV-13", binary: true, brokenBy: [.wifiBinaryLimited]),
        ]
    }
}

/// One direct send over Wi-Fi, far over what BLE allows, that must arrive whole.
struct WiFiDirectCase: TransmitterCase {
    let id: CaseID
    /// Binary data (BV-13) or a dictionary (BV-12).
    let binary: Bool
    let brokenBy: Set<Defect>
    let nodes = 2
    var wifiNodes: Set<Int> { [0, 1] }

    func check(_ stage: TransmitterStage) async throws -> CaseOutcome {
        let profile = stage.context.profile
        // Twice BLE's number plus one: over the binary limit, over the recommended dictionary size.
        let bleNumber = try profile.int(binary ? "bridgefy.limits.ble.binary_bytes" : "bridgefy.limits.ble.dictionary_recommended_bytes")
        let size = 2 * bleNumber + 1
        let data = binary ? Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 11) }) : nil
        let dictionary = binary ? nil : try SizeCase.dictionary(ofJSONSize: size)
        let what = "a direct \(binary ? "binary payload" : "dictionary") of \(size) bytes over Wi-Fi peer-to-peer (twice BLE's \(bleNumber) bytes, plus one)"
        let (_, tester) = try await stage.connectedPair()
        let id: PacketID
        do {
            id = try await stage.subject.send(dictionary: dictionary, data: data, to: tester, options: [.directTransmission, .noEncrypted])
        } catch {  // any refusal fails the case: the size table restricts neither over Wi-Fi
            return .fail("\(what) was refused, though the size table does not restrict it: \(error)")
        }
        guard let packet = await stage.logs[1].received(id, within: stage.airTimeout) else {
            return .fail("\(what) was accepted (packet \(id)) but never delivered")
        }
        guard packet.data == data, packet.dictionary == dictionary else { return .fail("\(what) arrived altered") }
        return .pass("\(what) was accepted and delivered intact")
    }
}
