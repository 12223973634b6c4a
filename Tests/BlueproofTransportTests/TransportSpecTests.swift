import CBlueproofSystem
import Testing
@testable import BlueproofTransport

@Suite("Transport spec parsing")
struct TransportSpecTests {
    @Test("every good form parses and prints canonically", arguments: [
        ("unix:/tmp/bt-server-le", TransportSpec.unix(path: "/tmp/bt-server-le"), "unix:/tmp/bt-server-le"),
        ("unix:relative/sock", .unix(path: "relative/sock"), "unix:relative/sock"),
        ("tcp:127.0.0.1:6402", .tcp(host: "127.0.0.1", port: 6402), "tcp:127.0.0.1:6402"),
        ("tcp:localhost:1", .tcp(host: "localhost", port: 1), "tcp:localhost:1"),
        ("tcp:[::1]:65535", .tcp(host: "::1", port: 65535), "tcp:[::1]:65535"),
        ("hci:0", .hci(index: 0), "hci:0"),
        ("hci12", .hci(index: 12), "hci:12"),
        ("hci0", .hci(index: 0), "hci:0"),
        ("serial:/dev/ttyACM0", .serial(device: "/dev/ttyACM0", baudRate: 115_200, flowControl: true),
         "serial:/dev/ttyACM0@115200"),
        ("serial:/dev/ttyUSB0@1000000", .serial(device: "/dev/ttyUSB0", baudRate: 1_000_000, flowControl: true),
         "serial:/dev/ttyUSB0@1000000"),
        ("serial:/dev/ttyUSB0@921600,noflow", .serial(device: "/dev/ttyUSB0", baudRate: 921_600, flowControl: false),
         "serial:/dev/ttyUSB0@921600,noflow"),
        ("serial:/dev/ttyS1,noflow", .serial(device: "/dev/ttyS1", baudRate: 115_200, flowControl: false),
         "serial:/dev/ttyS1@115200,noflow"),
    ])
    func parses(text: String, expected: TransportSpec, canonical: String) throws {
        let spec = try TransportSpec(parsing: text)
        #expect(spec == expected)
        #expect(spec.description == canonical)
        #expect(try TransportSpec(parsing: canonical) == expected)
    }

    static let longPath = "/tmp/" + String(repeating: "x", count: 103)

    @Test("every bad form is refused with a message that teaches the syntax", arguments: [
        ("", "unknown transport kind"),
        ("btvirt", "unknown transport kind"),
        ("/tmp/bt-server-le", "unknown transport kind"),
        ("unix:", "unix: needs a socket path, e.g. unix:/tmp/bt-server-le"),
        ("unix:" + longPath, "unix socket path is 108 bytes, the limit is 107"),
        ("tcp:", "tcp: needs HOST:PORT, e.g. tcp:127.0.0.1:6402"),
        ("tcp:localhost", "tcp: needs HOST:PORT, e.g. tcp:127.0.0.1:6402"),
        ("tcp::6402", "tcp: needs a host before the port, e.g. tcp:127.0.0.1:6402"),
        ("tcp:[]:6402", "tcp: needs a host before the port, e.g. tcp:127.0.0.1:6402"),
        ("tcp:localhost:", "port \"\" is not a number from 1 to 65535"),
        ("tcp:localhost:0", "port \"0\" is not a number from 1 to 65535"),
        ("tcp:localhost:65536", "port \"65536\" is not a number from 1 to 65535"),
        ("tcp:localhost:+80", "port \"+80\" is not a number from 1 to 65535"),
        ("tcp:::1:6402", "an IPv6 host goes in brackets, e.g. tcp:[::1]:6402"),
        ("hci", "hci needs an adapter number, e.g. hci:0 or hci0"),
        ("hci:", "hci needs an adapter number, e.g. hci:0 or hci0"),
        ("hci:x", "hci needs an adapter number, e.g. hci:0 or hci0"),
        ("hci:-1", "hci needs an adapter number, e.g. hci:0 or hci0"),
        ("hci:65536", "hci needs an adapter number, e.g. hci:0 or hci0"),
        ("serial:", "serial: needs a device, e.g. serial:/dev/ttyACM0@115200"),
        ("serial:@115200", "serial: needs a device, e.g. serial:/dev/ttyACM0@115200"),
        ("serial:/dev/ttyACM0,flow", "unknown serial option \"flow\"; the only option is \",noflow\" (RTS/CTS off)"),
        ("serial:/dev/ttyACM0@115200,noflow,x",
         "unknown serial option \"x\"; the only option is \",noflow\" (RTS/CTS off)"),
        ("serial:/dev/ttyACM0@12345", "unsupported baud rate \"12345\"; supported: 9600, 19200, 38400, 57600, "
            + "115200, 230400, 460800, 500000, 921600, 1000000, 1500000, 2000000, 3000000, 4000000"),
        ("serial:/dev/ttyACM0@", "unsupported baud rate \"\"; supported: 9600, 19200, 38400, 57600, "
            + "115200, 230400, 460800, 500000, 921600, 1000000, 1500000, 2000000, 3000000, 4000000"),
    ])
    func refuses(text: String, problem: String) {
        let expected = TransportError.invalidSpec(input: text, problem: problem)
        #expect(throws: expected) { try TransportSpec(parsing: text) }
        #expect(expected.description ==
            "invalid transport \"\(text)\": \(problem) (expected unix:PATH | tcp:HOST:PORT | hci:N (or hciN) | serial:DEVICE[@BAUD][,noflow])")
    }

    @Test("every supported baud rate has a termios speed on this system")
    func baudRatesMapToTermios() {
        for rate in TransportSpec.supportedBaudRates {
            #expect(bp_transport_baud_constant(UInt32(rate)) != 0, "no termios speed for \(rate)")
        }
        #expect(bp_transport_baud_constant(12345) == 0)
    }
}
