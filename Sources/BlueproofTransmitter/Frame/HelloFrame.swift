/// The first frame on every connection: the sender's user id, and for the chat app its name and
/// device type (bridgefy-chat-app-tutorial.md shows a peer by name once it is known).
public struct HelloFrame: Hashable, Sendable {
    public var user: UserID
    public var displayName: String?
    public var deviceType: String?

    public init(user: UserID, displayName: String? = nil, deviceType: String? = nil) {
        self.user = user
        self.displayName = displayName
        self.deviceType = deviceType
    }

    static let hasName: UInt8 = 0x01
    static let hasDeviceType: UInt8 = 0x02

    func encodeBody(into out: inout [UInt8]) {
        out.append(contentsOf: user.bytes)
        out.append((displayName == nil ? 0 : Self.hasName) | (deviceType == nil ? 0 : Self.hasDeviceType))
        if let displayName { out.appendShortText(displayName) }
        if let deviceType { out.appendShortText(deviceType) }
    }

    static func decodeBody(_ reader: inout FrameReader) throws(FrameError) -> HelloFrame {
        let user = try reader.userID()
        let flagsOffset = reader.offset
        let flags = try reader.u8()
        guard flags & ~(hasName | hasDeviceType) == 0 else {
            throw FrameError(offset: flagsOffset, reason: .invalidField("unknown hello flags \(flags)"))
        }
        var name: String?
        var device: String?
        if flags & hasName != 0 { name = try reader.shortText() }
        if flags & hasDeviceType != 0 { device = try reader.shortText() }
        return HelloFrame(user: user, displayName: name, deviceType: device)
    }
}
