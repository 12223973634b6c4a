extension BDAddress {
    /// A non-resolvable private address (Core Vol 6, Part B §1.3.2.2): the two most significant
    /// bits 00, the 46 random bits neither all 0 nor all 1.
    public static func nonResolvablePrivate<G: RandomNumberGenerator>(using generator: inout G) -> BDAddress {
        while true {
            var octets = (0..<6).map { _ in UInt8.random(in: 0...255, using: &generator) }
            octets[5] &= 0x3F
            if octets.allSatisfy({ $0 == 0 }) { continue }
            if octets[0..<5].allSatisfy({ $0 == 0xFF }) && octets[5] == 0x3F { continue }
            return BDAddress(littleEndian: octets)
        }
    }

    /// ``nonResolvablePrivate(using:)`` from the system's generator.
    public static func nonResolvablePrivate() -> BDAddress {
        var generator = SystemRandomNumberGenerator()
        return nonResolvablePrivate(using: &generator)
    }
}
