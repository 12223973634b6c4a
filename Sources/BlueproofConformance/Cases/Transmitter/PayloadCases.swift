import BlueproofTransmitter
import Foundation

/// Payload shapes (bridgefy-ios-sdk-readme.md, "Dictionaries", "Binary data (files)",
/// "5. Receive Data"): what a send carries arrives in the same shape, equal, and a dictionary
/// value with no JSON form is refused. The subject sends what the sender's side rules judge,
/// and receives what the receiver's side rules judge (the tester is the other end).
enum PayloadCases {
    /// The document's valid dictionary: a string, an integer, a floating-point number, a boolean.
    static let scalars: [String: TransmitterValue] = [
        "text": .string("Message text"), "sequence": .integer(3546), "duration": .number(656.2973), "success": .bool(true),
    ]
    static let file = Data((0..<200).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 1) })

    static func all() -> [ScriptCase] {
        [
            ScriptCase("BFT/PAY/BI-01", nodes: 2, brokenBy: [.unencodableValueDropped], judgesRefusals: true) { stage in
                guard await stage.subject.takesHarnessCalls() else {
                    return .notApplicable("the implementation speaks a control protocol before 3, which has no sendUnencodable (docs/control-protocol.md, \"Versions\")")
                }
                let (_, tester) = try await stage.connectedPair()
                do {
                    let id = try await stage.subject.sendUnencodable(["text": .string("Message text")], key: "image", to: tester, options: .directTransmission)
                    return .fail("a dictionary holding an image object was accepted (packet \(id))")
                } catch {
                    return try stage.judgeRefusal(error, of: "a dictionary holding an image object", by: [.unencodableValue])
                }
            },
            sentEqual("BFT/PAY/BV-01", dictionary: scalars, data: nil, brokenBy: [.floatsSentAsIntegers]),
            sentEqual("BFT/PAY/BV-02", dictionary: ["text": .string("Message text"), "file": .binary(file)], data: nil,
                      brokenBy: [.binaryValuesSentAsText]),
            sentEqual("BFT/PAY/BV-03", dictionary: ["text": .string("Data concerning to the file.")], data: file, brokenBy: [.dataSentApart]),
            receivedEqual("BFT/PAY/BV-04", dictionary: nil, data: file, brokenBy: [.receivedDictionaryNeverNil]),
            receivedEqual("BFT/PAY/BV-05", dictionary: scalars, data: nil, brokenBy: [.receivedDataNeverNil]),
        ]
    }

    /// The subject sends `dictionary` and `data` direct to the tester; one packet, the one the
    /// send named, must arrive with both equal.
    static func sentEqual(_ id: CaseID, dictionary: [String: TransmitterValue]?, data: Data?, brokenBy: Set<Defect>) -> ScriptCase {
        ScriptCase(id, nodes: 2, brokenBy: brokenBy) { stage in
            let (_, tester) = try await stage.connectedPair()
            let id = try await stage.subject.send(dictionary: dictionary, data: data, to: tester, options: .directTransmission)
            guard let packet = await stage.logs[1].received(id, within: stage.airTimeout) else {
                return .fail("packet \(id) never reached the tester")
            }
            return judge(packet, dictionary: dictionary, data: data, receiver: "the tester")
        }
    }

    /// The tester sends `dictionary` and `data` direct to the subject, which must report them as sent.
    static func receivedEqual(_ id: CaseID, dictionary: [String: TransmitterValue]?, data: Data?, brokenBy: Set<Defect>) -> ScriptCase {
        ScriptCase(id, nodes: 2, brokenBy: brokenBy) { stage in
            let (subject, _) = try await stage.connectedPair()
            let id = try await stage.send(from: 1, dictionary: dictionary, data: data, to: subject, options: .directTransmission)
            guard let packet = await stage.logs[0].received(id, within: stage.airTimeout) else {
                return .fail("the tester's packet \(id) was never reported received")
            }
            return judge(packet, dictionary: dictionary, data: data, receiver: "the subject")
        }
    }

    /// `pass` when `packet` holds exactly `dictionary` and `data` (nil where nil was sent).
    static func judge(_ packet: ReceivedPacket, dictionary: [String: TransmitterValue]?, data: Data?, receiver: String) -> CaseOutcome {
        guard packet.dictionary == dictionary else {
            return .fail("\(receiver) got dictionary \(describe(packet.dictionary)), sent \(describe(dictionary))")
        }
        guard packet.data == data else {
            return .fail("\(receiver) got data \(packet.data.map { "of \($0.count) bytes" } ?? "nil"), sent \(data.map { "\($0.count) bytes" } ?? "nil")")
        }
        return .pass("\(receiver) got packet \(packet.packetID) in one callback with dictionary \(describe(dictionary)) and data \(data.map { "of \($0.count) bytes" } ?? "nil"), equal to what was sent")
    }

    static func describe(_ dictionary: [String: TransmitterValue]?) -> String {
        guard let dictionary else { return "nil" }
        return "{" + dictionary.keys.sorted().map { "\($0): \(dictionary[$0].map { "\($0)" } ?? "")" }.joined(separator: ", ") + "}"
    }
}
