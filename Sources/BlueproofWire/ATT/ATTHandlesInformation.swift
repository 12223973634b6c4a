/// One entry of a Find By Type Value Response (Core Vol 3, Part F §3.4.3.4): the handle of
/// a matching attribute and the last handle of its group (the same handle when the attribute
/// does not group others).
public struct ATTHandlesInformation: Hashable, Sendable {
    public var foundAttributeHandle: UInt16
    public var groupEndHandle: UInt16

    public init(foundAttributeHandle: UInt16, groupEndHandle: UInt16) {
        self.foundAttributeHandle = foundAttributeHandle
        self.groupEndHandle = groupEndHandle
    }
}
