import BlueproofTransmitter
import Foundation

/// A fresh directory under the system temporary folder, removed by `cleanUp`.
struct SessionTestFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("blueproof-session-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A store in a not-yet-existing subdirectory, so the store creates it.
    func store(_ name: String = "store") -> SessionStore {
        SessionStore(directory: url.appendingPathComponent(name, isDirectory: true))
    }

    func cleanUp() { try? FileManager.default.removeItem(at: url) }
}

extension SessionStore {
    var sessionFile: URL { directory.appendingPathComponent("session.json") }

    /// The POSIX permission bits of `url`.
    static func mode(of url: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }
}
