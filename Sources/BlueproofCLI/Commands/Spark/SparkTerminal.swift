import ArgumentParser
import BlueproofHost
import BlueproofSpark
import BlueproofTransmitter
import Foundation

/// One Spark node of `blueproof spark`: a `SparkChannelNode` on the command's LE host, its key
/// published in the key directory, peers' keys read from there when their `hello` names them.
struct SparkTerminal {
    let session: ControllerSession
    let host: LEHost
    let node: SparkChannelNode
    let registrationID: UInt64
    let directory: SparkKeyDirectory

    /// Starts the controller and host, publishes a fresh key id; exits 3 when the controller
    /// or the key directory fails.
    /// Its key is withdrawn again by ``close()``, or by `teardown` when a signal stops the command.
    static func start(_ controller: ControllerOptions, registrationID: UInt64, directory: SparkKeyDirectory, cacheFolder: String,
                      concurrency: SparkConcurrency, acceptance: SparkAnswer, teardown: Teardown) async throws -> SparkTerminal {
        let key = SparkNodeFolders.randomKeyID()
        do {
            try directory.publish(key, for: registrationID)
        } catch {
            Console.error("\(error)")
            throw ExitCode(3)
        }
        teardown.beforeExit { directory.withdraw(registrationID) }
        let session: ControllerSession, host: LEHost
        do {
            (session, host) = try await ControllerSession.openOneHost(controller)
        } catch {
            directory.withdraw(registrationID)
            throw error
        }
        let configuration = SparkConfiguration(registrationID: registrationID, keyID: key, setup: .automatic, acceptance: acceptance,
                                               concurrency: concurrency)
        let core = SparkCore(configuration: configuration, clock: SystemTimeSource(), source: DiskFileSource(),
                             sink: CacheFolderSink(directory: cacheFolder))
        let node = SparkChannelNode(host: host, core: core, keys: { peer in
            do {
                return try directory.key(for: peer)
            } catch {
                Console.error("\(error)")
                return nil
            }
        })
        return SparkTerminal(session: session, host: host, node: node, registrationID: registrationID, directory: directory)
    }

    /// Withdraws the key and closes the controller.
    func close() async {
        directory.withdraw(registrationID)
        await session.close()
    }

}
