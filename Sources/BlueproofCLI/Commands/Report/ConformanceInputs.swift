import ArgumentParser
import BlueproofConformance

/// The profile and the catalogue a conformance command reads; a bad one exits 2 with
/// `file:line: reason`.
enum ConformanceInputs {
    static func load(profile path: String?) throws -> (Profile, Catalogue) {
        do {
            let defaultProfile = try Profile.loadDefault()
            var profile = defaultProfile
            if let path { profile = try Profile.load(path: path, schema: ProfileSchema(defaultProfile: defaultProfile)) }
            let catalogue = try Catalogue.load(path: ConformanceFiles.path(ConformanceFiles.catalogue))
            return (profile, catalogue)
        } catch {
            Console.error("\(error)")
            throw ExitCode(2)
        }
    }
}
