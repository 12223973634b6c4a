/// The K-frame payload size this side declares (its MPS): the reference's tuning. Any MPS from
/// 23 to 65 533 is valid (Core Vol 3, Part A §4.22) and a peer must take what is declared, so
/// Conformance/mutation/map.txt leaves this out of its judging; `blueproof bench spark`
/// measures what it buys.
extension SparkChannelNode {
    /// The longest K-frame ``mps(aclBufferSize:)`` makes: about 1 KiB a receiver holds per frame.
    public static let maxKFrameBytes = 1028

    /// The K-frame payload this side takes (its MPS, Core Vol 3, Part A §4.22): the most whole
    /// LE ACL buffers of its controller, less the 4-byte K-frame header (§3.4), within
    /// ``maxKFrameBytes``, so a peer with the same buffers sends every K-frame in full
    /// buffers (Rootcanal's 27-byte buffers give 1022, btvirt's 192 give 956, 251-byte ones
    /// 1000). 247 when the buffer size is unknown or larger.
    public static func mps(aclBufferSize size: Int) -> UInt16 {
        guard size > 4, size <= maxKFrameBytes else { return 247 }
        return UInt16(max(23, maxKFrameBytes / size * size - 4))
    }
}
