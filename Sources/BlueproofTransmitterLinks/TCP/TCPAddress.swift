/// An IPv4 address and port a TCP link node listens on, written `host:port`
/// (e.g. `127.0.0.1:7000`); `localhost` stands for 127.0.0.1.
public struct TCPAddress: Hashable, Sendable, CustomStringConvertible {
    /// Dotted IPv4.
    public var host: String
    public var port: UInt16

    public init(host: String = "127.0.0.1", port: UInt16) {
        self.host = host == "localhost" ? "127.0.0.1" : host
        self.port = port
    }

    /// Parses `host:port`; the host must be dotted IPv4 (or `localhost`), the port 1–65535.
    public init(_ text: String) throws(TCPAddressError) {
        guard let colon = text.lastIndex(of: ":") else { throw .missingPort(text) }
        let host = String(text[..<colon])
        guard let port = UInt16(text[text.index(after: colon)...]), port > 0 else { throw .badPort(text) }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        guard host == "localhost" || (parts.count == 4 && parts.allSatisfy { UInt8($0) != nil }) else {
            throw .badHost(text)
        }
        self.init(host: host, port: port)
    }

    public var description: String { "\(host):\(port)" }
}

/// Why a `host:port` was refused.
public enum TCPAddressError: Error, Hashable, Sendable {
    case missingPort(String)
    case badPort(String)
    case badHost(String)
}
