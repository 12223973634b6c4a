/// A credit-based channel server registered with ``LEHost/listen(spsm:mtu:mps:credits:)``.
struct ChannelServer {
    let parameters: L2CAPSignaling.ServerParameters
    let continuation: AsyncStream<L2CAPChannel>.Continuation
}
