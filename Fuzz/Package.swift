// swift-tools-version:5.3
// Tools version 5.3 on purpose: an executable target of that version keeps its entry point
// named `main`, which libFuzzer's runtime provides here (`-parse-as-library`); newer versions
// rename it, and the link fails.
import PackageDescription

/// The libFuzzer build of blueproof's parsers (docs/fuzzing.md): one executable whose target is
/// chosen by BLUEPROOF_FUZZ_TARGET. It is its own package so that the sanitizer flags never
/// reach the tool's build:
///   swift build --package-path Fuzz --scratch-path .build-fuzz \
///     -Xswiftc -sanitize=fuzzer -Xswiftc -parse-as-library
/// `scripts/fuzz` builds and runs it.
let package = Package(
    name: "blueproof-fuzz",
    platforms: [.macOS(.v10_15)],
    dependencies: [.package(name: "blueproof", path: "..")],
    targets: [
        .target(name: "blueproof-fuzz", dependencies: [.product(name: "BlueproofFuzzing", package: "blueproof")]),
    ]
)
