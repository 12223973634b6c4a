@testable import BlueproofTransmitter
import Foundation
import Testing

@Suite("Offline licence")
struct LicenceTests {
    static let apiKey = "d3f1c2b0-5a6e-4f0b-9c3d-2e1f0a9b8c7d"
    static let expires = Date(timeIntervalSince1970: 1_900_000_000)  // 2030-03-17, whole seconds
    static let before = expires.addingTimeInterval(-86_400)

    static func issued(holder: String = "Conformance Lab") throws -> String {
        try LicenceIssuer.blueproofTest().issue(apiKey: apiKey, holder: holder, expires: expires)
    }

    static func expectInvalid(_ text: String, _ note: String, verifier: LicenceVerifier = .blueproofTestIssuer,
                              apiKey: String = LicenceTests.apiKey) {
        do {
            let licence = try verifier.verify(text, apiKey: apiKey, now: before)
            Issue.record("\(note): accepted as held by \(licence.holder)")
        } catch {
            #expect(error == .licenceInvalid, "\(note): \(error)")
            #expect(error.detail != nil, "\(note)")
        }
    }

    @Test("an issued licence verifies and carries its fields")
    func roundTrip() throws {
        let text = try Self.issued()
        let licence = try LicenceVerifier.blueproofTestIssuer.verify(text, apiKey: Self.apiKey, now: Self.before)
        #expect(licence == Licence(apiKey: Self.apiKey, holder: "Conformance Lab", expires: Self.expires))
        // The dashboard's .txt may end with a newline.
        #expect(try LicenceVerifier.blueproofTestIssuer.verify(text + "\n", apiKey: Self.apiKey, now: Self.before) == licence)
        // Two parts, both base64url without padding.
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 2)
        #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
    }

    @Test("the payload is JSON with apiKey, holder and an ISO 8601 expiry")
    func payloadShape() throws {
        let first = try #require(try Self.issued().split(separator: ".").first)
        var base64 = first.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        let data = try #require(Data(base64Encoded: base64))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: String])
        #expect(json == ["apiKey": Self.apiKey, "holder": "Conformance Lab", "expires": "2030-03-17T17:46:40Z"])
    }

    @Test("a licence at or after its expiry is licenceExpired")
    func expired() throws {
        let text = try Self.issued()
        for now in [Self.expires, Self.expires.addingTimeInterval(1), Self.expires.addingTimeInterval(86_400 * 365)] {
            #expect(throws: TransmitterError.licenceExpired) {
                try LicenceVerifier.blueproofTestIssuer.verify(text, apiKey: Self.apiKey, now: now)
            }
        }
        #expect(try LicenceVerifier.blueproofTestIssuer.verify(text, apiKey: Self.apiKey, now: Self.expires.addingTimeInterval(-1))
                .expires == Self.expires)
    }

    @Test("a licence for another API key is licenceInvalid")
    func wrongAPIKey() throws {
        Self.expectInvalid(try Self.issued(), "other api key", apiKey: "another-key")
        Self.expectInvalid(try Self.issued(), "empty api key", apiKey: "")
    }

    @Test("a changed payload under the original signature is licenceInvalid")
    func tamperedPayload() throws {
        let text = try Self.issued()
        let parts = text.split(separator: ".").map(String.init)
        let otherHolder = try Self.issued(holder: "Conformance Lad")
        let forged = String(otherHolder.split(separator: ".")[0]) + "." + parts[1]
        #expect(forged != text)
        Self.expectInvalid(forged, "payload of another licence")
        // Change one character of the payload part.
        var chars = Array(parts[0])
        chars[10] = chars[10] == "A" ? "B" : "A"
        Self.expectInvalid(String(chars) + "." + parts[1], "one payload character changed")
    }

    @Test("a changed signature is licenceInvalid")
    func tamperedSignature() throws {
        let parts = try Self.issued().split(separator: ".").map(String.init)
        var chars = Array(parts[1])
        chars[5] = chars[5] == "A" ? "B" : "A"
        Self.expectInvalid(parts[0] + "." + String(chars), "one signature character changed")
        Self.expectInvalid(parts[0] + "." + String(parts[1].dropLast(2)), "signature shortened")
        Self.expectInvalid(parts[0] + ".", "signature missing")
    }

    @Test("a licence from another issuer is licenceInvalid for the test issuer and valid for its own")
    func otherIssuer() throws {
        let otherKey = (0..<32).map { UInt8($0 * 3 + 1) }
        let other = try LicenceIssuer(privateKey: otherKey)
        let text = try other.issue(apiKey: Self.apiKey, holder: "Someone", expires: Self.expires)
        Self.expectInvalid(text, "other issuer")
        let own = LicenceVerifier(issuerPublicKey: other.publicKey)
        #expect(try own.verify(text, apiKey: Self.apiKey, now: Self.before).holder == "Someone")
        Self.expectInvalid(try Self.issued(), "test licence under the other issuer", verifier: own)
        Self.expectInvalid(try Self.issued(), "verifier with a short key", verifier: LicenceVerifier(issuerPublicKey: [1, 2, 3]))
    }

    @Test("garbage is licenceInvalid", arguments: [
        "", "   ", "licence", "a.b", "a.b.c", ".", "..", "abc.", ".abc", "!!!!.????",
        "eyJhIjoiYiJ9.AAAA", "eyJhIjoiYiJ9+.AAAA", "eyJhIjoiYiJ9.AAAA=",
    ])
    func garbage(text: String) {
        Self.expectInvalid(text, "garbage \(text)")
    }

    @Test("a correctly signed payload that is not a licence is licenceInvalid", arguments: [
        "{}", "[]", "not json", #"{"apiKey":"k","holder":"h"}"#,
        #"{"apiKey":"d3f1c2b0-5a6e-4f0b-9c3d-2e1f0a9b8c7d","holder":"h","expires":"next tuesday"}"#,
        #"{"apiKey":7,"holder":"h","expires":"2030-03-17T17:46:40Z"}"#,
    ])
    func signedNonLicence(payload: String) throws {
        let text = try LicenceIssuer.blueproofTest().signed(payload: Array(payload.utf8))
        Self.expectInvalid(text, "signed \(payload)")
    }

    @Test("issuer keys must be 32 bytes")
    func issuerKeyLength() {
        #expect(throws: TransmitterError.licenceInvalid) { try LicenceIssuer(privateKey: Array(repeating: 1, count: 31)) }
        #expect(throws: TransmitterError.licenceInvalid) { try LicenceIssuer(privateKey: []) }
    }

    @Test("Conformance/licences/test-issuer.key holds the embedded test issuer key")
    func testIssuerKeyFile() throws {
        let file = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Conformance/licences/test-issuer.key")
        let text = try String(contentsOf: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let key = try #require(Data(base64Encoded: text))
        #expect(key.count == 32)
        let fromFile = try LicenceIssuer(privateKey: Array(key))
        #expect(fromFile.publicKey == LicenceVerifier.blueproofTestIssuer.issuerPublicKey)
        #expect(try LicenceIssuer.blueproofTest().publicKey == fromFile.publicKey)
        #expect(LicenceVerifier.blueproofTestIssuer.issuerPublicKey.count == 32)
        let licence = try fromFile.issue(apiKey: Self.apiKey, holder: "file", expires: Self.expires)
        #expect(try LicenceVerifier.blueproofTestIssuer.verify(licence, apiKey: Self.apiKey, now: Self.before).holder == "file")
    }
}
