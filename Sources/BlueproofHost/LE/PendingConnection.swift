import BlueproofAsync
import BlueproofWire

/// A connection attempt as central, waiting for LE Connection Complete.
struct PendingConnection {
    let peer: BDAddress
    let outcome = OneShot<Result<LEConnection, LEHostError>>()
}
