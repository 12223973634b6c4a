/// The ATT default (Core Vol 3, Part F §3.2.8).
enum ATTBearerDefaults {
    static let mtu = 23
}
