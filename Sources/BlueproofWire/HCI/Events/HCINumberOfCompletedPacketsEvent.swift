/// Number Of Completed Packets (Core Vol 4, Part E §7.7.19): per connection, how many data
/// packets the controller has finished with since the last such event, returning ACL credits.
///
/// On the wire: Num_Handles, then for each handle its Connection_Handle and its
/// Num_Completed_Packets, pair after pair (as BlueZ, the Linux kernel and Bumble read it).
public struct HCINumberOfCompletedPacketsEvent: HCIEventParameters {
    public static let code: UInt8 = 0x13
    public static let name = "Number of Completed Packets"

    /// One Connection_Handle[i] / Num_Completed_Packets[i] pair.
    public struct Entry: Hashable, Sendable {
        /// Connection_Handle, 12 significant bits.
        public var connectionHandle: UInt16
        public var numCompletedPackets: UInt16

        public init(connectionHandle: UInt16, numCompletedPackets: UInt16) {
            self.connectionHandle = connectionHandle
            self.numCompletedPackets = numCompletedPackets
        }
    }

    /// The handles in wire order; Num_Handles is their count (at most 255 are encodable).
    public var handles: [Entry]

    public init(handles: [Entry]) { self.handles = handles }

    public init(parameters reader: inout ByteReader) throws(WireError) {
        let count = Int(try reader.u8("num handles"))
        var handles: [Entry] = []
        handles.reserveCapacity(count)
        for index in 0..<count {
            let handle = try reader.u16("connection handle[\(index)]")
            let completed = try reader.u16("num completed packets[\(index)]")
            handles.append(Entry(connectionHandle: handle, numCompletedPackets: completed))
        }
        self.handles = handles
    }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.u8(UInt8(truncatingIfNeeded: handles.count))
        for entry in handles {
            writer.u16(entry.connectionHandle)
            writer.u16(entry.numCompletedPackets)
        }
    }
}
