import ArgumentParser
import BlueproofSpark
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

// issue 17: `blueproof dut --spark-defect`
extension SparkDefects: ExpressibleByArgument {
    /// One deliberate fault by its name in ``SparkDefects/named``; a repeated option's values are joined.
    public init?(argument: String) {
        guard let named = Self.named.first(where: { $0.name == argument }) else { return nil }
        self = named.defect
    }

    public static var allValueStrings: [String] { named.map(\.name) }
}
