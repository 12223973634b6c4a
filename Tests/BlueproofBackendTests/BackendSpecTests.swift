import BlueproofBackend
import BlueproofTransport
import Testing

@Suite("BackendSpec")
struct BackendSpecTests {
    static let valid: [(String, BackendSpec)] = [
        ("btvirt", .btvirt),
        ("rootcanal", .rootcanal),
        ("hci0", .transport(.hci(index: 0))),
        ("unix:/x", .transport(.unix(path: "/x"))),
        ("tcp:127.0.0.1:6402", .transport(.tcp(host: "127.0.0.1", port: 6402))),
        ("serial:/dev/ttyUSB0@115200", .transport(.serial(device: "/dev/ttyUSB0", baudRate: 115_200, flowControl: true))),
    ]

    @Test("every documented form parses to its backend, and its description parses back to it",
          arguments: valid.indices)
    func parses(_ index: Int) throws {
        let (text, expected) = Self.valid[index]
        let spec = try BackendSpec(parsing: text)
        #expect(spec == expected, "\(text)")
        #expect(try BackendSpec(parsing: spec.description) == spec)
    }

    @Test("canonical descriptions")
    func descriptions() throws {
        #expect(try BackendSpec(parsing: "btvirt").description == "btvirt")
        #expect(try BackendSpec(parsing: "hci0").description == "hci:0")
        #expect(try BackendSpec(parsing: "tcp:127.0.0.1:6402").description == "tcp:127.0.0.1:6402")
    }

    @Test("an unknown name is refused with a message listing every valid form",
          arguments: ["bluetooth", "BTVirt", "", "root canal"])
    func unknownName(_ text: String) {
        #expect {
            try BackendSpec(parsing: text)
        } throws: { error in
            guard let error = error as? BackendError, error == .unknownBackend(text) else { return false }
            let message = error.description
            return ["btvirt", "rootcanal", "hciN", "unix:PATH", "tcp:HOST:PORT", "serial:DEVICE[@BAUD]"]
                .allSatisfy(message.contains) && message.contains("'\(text)'")
        }
    }

    @Test("a malformed transport form is refused by the transport parser, naming the problem")
    func malformedTransport() {
        #expect {
            try BackendSpec(parsing: "tcp:127.0.0.1:99999")
        } throws: { error in
            guard case let .invalidSpec(input, problem)? = error as? TransportError else { return false }
            return input == "tcp:127.0.0.1:99999" && problem.contains("99999")
        }
        #expect(throws: TransportError.self) { try BackendSpec(parsing: "hcix") }
    }
}
