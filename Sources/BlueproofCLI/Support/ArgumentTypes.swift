import ArgumentParser
import BlueproofWire

extension BluetoothUUID: ExpressibleByArgument {
    /// `180D`, `0000180D` or `E20A39F4-73F5-4BC4-A12F-17D1AD07A961`.
    public init?(argument: String) { self.init(argument) }
}

extension BDAddress: ExpressibleByArgument {
    /// `AA:BB:CC:DD:EE:FF`, most significant octet first.
    public init?(argument: String) { self.init(argument) }
}

/// `public` or `random`, for `--peer-type`.
enum AddressTypeOption: String, ExpressibleByArgument, CaseIterable {
    case `public`, random

    var addressType: LEAddressType { self == .public ? .publicDevice : .randomDevice }
}
