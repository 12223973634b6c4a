/// An application protocol carried in the values of one GATT characteristic, which
/// ``TraceDecoder`` decodes once the capture's own discovery found that characteristic: the
/// values written (Write Request, Write Command) and notified or indicated on its value handle
/// go through it, one describer per connection. It keeps its own state, bounded.
public protocol ATTValueDescriber: Sendable {
    /// The characteristic whose values it reads.
    var characteristic: BluetoothUUID { get }
    /// The fields one value adds; `sent` is true for host to controller.
    mutating func describe(_ value: [UInt8], sent: Bool) -> [HCIPacketDescription.Field]
    /// A fresh describer for another connection.
    func fresh() -> Self
}
