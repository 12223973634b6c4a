/// The SPK behaviours no interface of a Spark implementation lets the runner judge.
extension NotApplicableCase {
    /// SPK/CONN/BV-06 (spark-data-transfer-readme.md, "DataTransfers & Push"): a PushKit push
    /// carrying call data, handed to the service, leads to `incomingDataConnectionOffered`.
    /// Peer to peer over LE there is no push service: the offer arrives on the Spark channel
    /// itself (docs/spark-wire.md, "Exchange"), and SPK/CONN/BV-01 checks it leads to the
    /// callback. No interface an implementation offers takes a push from the runner.
    static let sparkPush = NotApplicableCase(
        id: "SPK/CONN/BV-06",
        reason: "no interface an implementation offers takes a push from the runner: peer to peer over LE the offer comes on "
            + "the Spark channel itself, and SPK/CONN/BV-01 judges that it leads to incomingDataConnectionOffered")

    /// SPK/CONN/BV-07 (spark-data-transfer-readme.md, "Configuring BBMMediaManager"): incoming
    /// data calls are silent by default. An alert is the platform's user interface, outside the
    /// API: neither the delegate callbacks nor the control protocol report one.
    static let sparkSilent = NotApplicableCase(
        id: "SPK/CONN/BV-07",
        reason: "no interface an implementation offers shows whether it raised a user alert: the delegate callbacks "
            + "and the control protocol report none")
}
