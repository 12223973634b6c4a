import BlueproofTestSupport
import Foundation
import Glibc
import Testing

/// A capture the user may not read says so. Root reads every file, so as root (CI) the tool
/// runs as nobody through `setpriv`, and the test still runs rather than being skipped.
extension Integration {
    @Suite("inspect: a capture that may not be read")
    struct InspectPermissionTests {
        @Test("inspect of a file without read permission exits 2 saying permission denied", .requires(.cli))
        func permissionDenied() throws {
            let cli = try RequiredComponent.require(.cli)[0]
            let folder = try WorkFolder("inspect-locked")
            defer { folder.cleanUp() }
            // An empty pcap header: what matters is that it cannot be opened.
            let header: [UInt8] = [0xD4, 0xC3, 0xB2, 0xA1, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0, 0, 201, 0, 0, 0]
            let path = folder.file("locked.pcap")
            #expect(FileManager.default.createFile(atPath: path, contents: Data(header), attributes: [.posixPermissions: 0o000]))
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
            let result = geteuid() == 0
                ? try run("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", cli, "inspect", path])
                : try run(cli, ["inspect", path])
            #expect(result.status == 2, "\(result.stderr)")
            #expect(result.stderr.contains("locked.pcap") && result.stderr.contains("permission denied"), "\(result.stderr)")
        }
    }
}
