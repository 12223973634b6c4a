import Foundation

/// Where the catalogue and the default profile are: the `Conformance/` folder of the checkout,
/// found from the working folder upwards, else from the executable's folder upwards.
public enum ConformanceFiles {
    public static let defaultProfile = "Conformance/profiles/bridgefy-ios.yaml"
    public static let catalogue = "Conformance/catalogue.yaml"

    /// The checkout's root (the folder holding `Conformance/catalogue.yaml`), if found.
    public static func root(from start: String = FileManager.default.currentDirectoryPath) -> String? {
        var candidates = [start]
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append(URL(fileURLWithPath: exe).deletingLastPathComponent().path)
        }
        for candidate in candidates {
            var url = URL(fileURLWithPath: candidate).standardizedFileURL
            while url.path != "/" {
                if FileManager.default.fileExists(atPath: url.appendingPathComponent(catalogue).path) { return url.path }
                url.deleteLastPathComponent()
            }
        }
        return nil
    }

    /// `relative` under the root, or as given when no root is found.
    public static func path(_ relative: String) -> String {
        root().map { "\($0)/\(relative)" } ?? relative
    }
}
