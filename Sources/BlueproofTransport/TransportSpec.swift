/// Where the controller is and how to reach it, parsed from the user's `--controller`-style
/// string. ``description`` prints the canonical form, which parses back to the same value.
///
/// | form | transport |
/// |---|---|
/// | `unix:PATH` | H4 over an AF_UNIX stream socket (btvirt's `/tmp/bt-server-le`) |
/// | `tcp:HOST:PORT` | H4 over TCP (Rootcanal, port 6402); IPv6 hosts in brackets |
/// | `hci:N`, `hciN` | Linux HCI user channel on adapter hciN |
/// | `serial:DEVICE[@BAUD][,noflow]` | H4 over a UART, 115200 baud and RTS/CTS by default |
public enum TransportSpec: Hashable, Sendable, CustomStringConvertible {
    case unix(path: String)
    case tcp(host: String, port: UInt16)
    case hci(index: UInt16)
    case serial(device: String, baudRate: Int, flowControl: Bool)

    /// Baud rate of `serial:` when the spec names none.
    public static let defaultBaudRate = 115_200
    /// The rates `serial:` accepts: those with a termios speed constant on Linux.
    public static let supportedBaudRates = [
        9600, 19200, 38400, 57600, 115_200, 230_400, 460_800, 500_000, 921_600,
        1_000_000, 1_500_000, 2_000_000, 3_000_000, 4_000_000,
    ]
    /// Longest `sun_path` a `unix:` spec may name (the 108-byte field keeps a terminating NUL).
    public static let maxUnixPathBytes = 107

    public init(parsing text: String) throws(TransportError) {
        func fail(_ problem: String) -> TransportError { .invalidSpec(input: text, problem: problem) }

        if text.hasPrefix("unix:") {
            let path = String(text.dropFirst("unix:".count))
            guard !path.isEmpty else { throw fail("unix: needs a socket path, e.g. unix:/tmp/bt-server-le") }
            guard path.utf8.count <= Self.maxUnixPathBytes else {
                throw fail("unix socket path is \(path.utf8.count) bytes, the limit is \(Self.maxUnixPathBytes)")
            }
            guard !path.utf8.contains(0) else { throw fail("unix socket path contains a NUL byte") }
            self = .unix(path: path)
        } else if text.hasPrefix("tcp:") {
            let rest = Substring(text.dropFirst("tcp:".count))
            guard let colon = rest.lastIndex(of: ":") else {
                throw fail("tcp: needs HOST:PORT, e.g. tcp:127.0.0.1:6402")
            }
            var host = rest[..<colon]
            let portText = rest[rest.index(after: colon)...]
            if host.hasPrefix("[") && host.hasSuffix("]") && host.count >= 2 {
                host = host.dropFirst().dropLast()
            } else if host.contains(":") {
                throw fail("an IPv6 host goes in brackets, e.g. tcp:[::1]:6402")
            }
            guard !host.isEmpty else { throw fail("tcp: needs a host before the port, e.g. tcp:127.0.0.1:6402") }
            guard let port = Self.decimal(portText), port >= 1, port <= 65535 else {
                throw fail("port \"\(portText)\" is not a number from 1 to 65535")
            }
            self = .tcp(host: String(host), port: UInt16(port))
        } else if text.hasPrefix("hci:") || text.hasPrefix("hci") {
            let number = text.hasPrefix("hci:") ? text.dropFirst(4) : text.dropFirst(3)
            guard let index = Self.decimal(number), index <= Int(UInt16.max) else {
                throw fail("hci needs an adapter number, e.g. hci:0 or hci0")
            }
            self = .hci(index: UInt16(index))
        } else if text.hasPrefix("serial:") {
            var rest = Substring(text.dropFirst("serial:".count))
            var flowControl = true
            if let comma = rest.lastIndex(of: ",") {
                let option = rest[rest.index(after: comma)...]
                guard option == "noflow" else {
                    throw fail("unknown serial option \"\(option)\"; the only option is \",noflow\" (RTS/CTS off)")
                }
                flowControl = false
                rest = rest[..<comma]
            }
            var baudRate = Self.defaultBaudRate
            if let at = rest.lastIndex(of: "@") {
                let rateText = rest[rest.index(after: at)...]
                guard let rate = Self.decimal(rateText), Self.supportedBaudRates.contains(rate) else {
                    let list = Self.supportedBaudRates.map(String.init).joined(separator: ", ")
                    throw fail("unsupported baud rate \"\(rateText)\"; supported: \(list)")
                }
                baudRate = rate
                rest = rest[..<at]
            }
            guard !rest.isEmpty else { throw fail("serial: needs a device, e.g. serial:/dev/ttyACM0@115200") }
            self = .serial(device: String(rest), baudRate: baudRate, flowControl: flowControl)
        } else {
            throw fail("unknown transport kind")
        }
    }

    public var description: String {
        switch self {
        case let .unix(path): "unix:\(path)"
        case let .tcp(host, port): host.contains(":") ? "tcp:[\(host)]:\(port)" : "tcp:\(host):\(port)"
        case let .hci(index): "hci:\(index)"
        case let .serial(device, baudRate, flowControl):
            "serial:\(device)@\(baudRate)\(flowControl ? "" : ",noflow")"
        }
    }

    /// Plain ASCII decimal digits only: no sign, no spaces, at most 9 digits.
    private static func decimal(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 9, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int(text)
    }
}
