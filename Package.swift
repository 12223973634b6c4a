// swift-tools-version: 6.1
import PackageDescription

/// Layers (see docs/design.md): CLI → Host → Transport/Backend → Capture → Wire.
/// C stays at the edge: one system-library target per C library, one C target of small
/// process helpers, and the preload library that btvirt and Rootcanal run with.
let package = Package(
    name: "blueproof",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "blueproof", targets: ["BlueproofCLI"]),
        .library(name: "BlueproofPreload", type: .dynamic, targets: ["CBlueproofPreload"]),
        // For the libFuzzer build in Fuzz/ (docs/fuzzing.md).
        .library(name: "BlueproofFuzzing", targets: ["BlueproofFuzzing"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    ],
    targets: [
        // C edge
        .systemLibrary(name: "CPcap", pkgConfig: "libpcap", providers: [.apt(["libpcap-dev"])]),
        .systemLibrary(name: "CBluetooth", pkgConfig: "bluez", providers: [.apt(["libbluetooth-dev"])]),
        .target(name: "CBlueproofSystem"),
        .target(name: "CBlueproofPreload", linkerSettings: [.linkedLibrary("dl")]),

        // Swift layers
        .target(name: "BlueproofWire"),
        .target(name: "BlueproofAsync"),
        .target(name: "BlueproofFiles"),
        .target(name: "BlueproofCapture", dependencies: ["BlueproofWire", "CPcap"]),
        .target(name: "BlueproofTransport", dependencies: [
            "BlueproofWire", "BlueproofCapture", "BlueproofAsync", "CBluetooth", "CBlueproofSystem",
            .product(name: "Logging", package: "swift-log"),
        ]),
        .target(name: "BlueproofBackend", dependencies: [
            "BlueproofTransport", "BlueproofAsync", "CBlueproofSystem",
            .product(name: "Logging", package: "swift-log"),
        ]),
        .target(name: "BlueproofHost", dependencies: [
            "BlueproofWire", "BlueproofTransport", "BlueproofAsync",
            .product(name: "Logging", package: "swift-log"),
        ]),
        .target(name: "BlueproofYAML", dependencies: [.product(name: "Yams", package: "Yams")]),
        .target(name: "BlueproofRadio", dependencies: [
            "BlueproofWire", "BlueproofTransport", "BlueproofAsync", "BlueproofYAML",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Yams", package: "Yams"),
        ]),
        .target(name: "BlueproofTransfer", dependencies: [
            "BlueproofHost", "BlueproofWire", "BlueproofAsync",
            .product(name: "Logging", package: "swift-log"),
        ]),
        .target(name: "BlueproofTransmitter", dependencies: [
            "BlueproofAsync",
            "BlueproofFiles",
            "BlueproofWire",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "_CryptoExtras", package: "swift-crypto"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .target(name: "BlueproofChat", dependencies: ["BlueproofTransmitter"]),
        // issue 18: Bluenet
        .target(name: "BlueproofBluenet", dependencies: ["BlueproofWire"]),
        // issue 17: Spark data connections (docs/spark-wire.md)
        .target(name: "BlueproofSpark", dependencies: [
            "BlueproofTransmitter", "BlueproofFiles", "BlueproofHost", "BlueproofWire", "BlueproofAsync",
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        // The core stays sans-I/O (and fuzzable without a host); its LE host adapter and the simulated Crownstone.
        .target(name: "BlueproofBluenetHost", dependencies: ["BlueproofBluenet", "BlueproofHost", "BlueproofWire", "BlueproofAsync"]),
        .target(name: "BlueproofControl", dependencies: [
            "BlueproofTransmitter", "BlueproofTransport", "BlueproofAsync",
            "BlueproofSpark", "BlueproofWire", // issue 17: the Spark commands
            "BlueproofBluenet", "BlueproofBluenetHost", // issue 18: the Bluenet commands
            .product(name: "Logging", package: "swift-log"),
        ]),
        .target(name: "BlueproofTransmitterLinks", dependencies: [
            "BlueproofTransmitter", "BlueproofHost", "BlueproofTransport", "BlueproofWire", "BlueproofAsync", "CBlueproofSystem",
            .product(name: "Logging", package: "swift-log"),
        ]),
        .target(name: "BlueproofCheck", dependencies: ["BlueproofWire", "BlueproofCapture", "BlueproofHost"]),
        .target(name: "BlueproofConformance", dependencies: [
            "BlueproofWire", "BlueproofCapture", "BlueproofCheck", "BlueproofHost", "BlueproofBackend", "BlueproofRadio",
            "BlueproofTransfer", "BlueproofTransmitter", "BlueproofTransmitterLinks", "BlueproofControl", "BlueproofAsync",
            "BlueproofFiles", "BlueproofYAML", "BlueproofChat", .product(name: "Yams", package: "Yams"),
            .product(name: "Logging", package: "swift-log"),
            "BlueproofSpark", // issue 17: the SPK cases
            "BlueproofBluenet", "BlueproofBluenetHost", // issue 18: Bluenet cases
        ]),
        .target(name: "BlueproofFuzzing", dependencies: [
            "BlueproofWire", "BlueproofCapture", "BlueproofTransmitter", "BlueproofTransmitterLinks", "BlueproofControl",
            "BlueproofConformance", "BlueproofRadio",
            "BlueproofBluenet", // issue 18: Bluenet
        ]),
        .executableTarget(name: "BlueproofCLI", dependencies: [
            "BlueproofWire", "BlueproofCapture", "BlueproofTransport", "BlueproofBackend", "BlueproofHost",
            "BlueproofTransfer", "BlueproofAsync", "BlueproofRadio", "BlueproofCheck", "BlueproofTransmitter", "BlueproofConformance",
            "BlueproofControl", "BlueproofChat", "BlueproofTransmitterLinks",
            "BlueproofBluenet", "BlueproofBluenetHost", // issue 18: Bluenet
            "BlueproofSpark", // issue 17: Spark in blueproof dut
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),

        // Tests
        .target(name: "BlueproofTestSupport", dependencies: ["BlueproofBackend", "BlueproofAsync", "CBlueproofSystem"], path: "Tests/BlueproofTestSupport"),
        .testTarget(name: "BlueproofWireTests", dependencies: ["BlueproofWire"]),
        .testTarget(name: "BlueproofAsyncTests", dependencies: ["BlueproofAsync"]),
        .testTarget(name: "BlueproofFuzzingTests", dependencies: ["BlueproofFuzzing"]),
        .testTarget(name: "BlueproofCaptureTests", dependencies: ["BlueproofCapture", "BlueproofWire", "BlueproofTestSupport"]),
        .testTarget(name: "BlueproofTransportTests", dependencies: ["BlueproofTransport", "BlueproofWire", "CBlueproofSystem"]),
        .testTarget(name: "BlueproofHostTests", dependencies: [
            "BlueproofHost", "BlueproofWire", "BlueproofTransport", "BlueproofTestSupport",
            // The transfer roles' tests run on the scripted controller, which lives here.
            "BlueproofTransfer",
            "BlueproofBluenet", "BlueproofBluenetHost", // issue 18: Bluenet's host adapter on the scripted controller
            .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "BlueproofRadioTests", dependencies: ["BlueproofRadio", "BlueproofTransport", "BlueproofAsync", "BlueproofWire", "BlueproofTestSupport"]),
        .testTarget(name: "BlueproofTransferTests", dependencies: ["BlueproofTransfer", "BlueproofHost", "BlueproofWire"]),
        .testTarget(name: "BlueproofTransmitterTests", dependencies: [
            "BlueproofTransmitter", "BlueproofTestSupport", "BlueproofAsync", .product(name: "Logging", package: "swift-log"),
        ]),
        // issue 17: Spark data connections
        .testTarget(name: "BlueproofSparkTests", dependencies: [
            "BlueproofSpark", "BlueproofTransmitter", "BlueproofFiles", .product(name: "Crypto", package: "swift-crypto"),
        ]),
        .testTarget(name: "BlueproofControlTests", dependencies: [
            "BlueproofControl", "BlueproofTransmitter", "BlueproofTransport", "BlueproofSpark",
            "BlueproofBluenet", "BlueproofBluenetHost", "BlueproofAsync", // issue 18: the Bluenet commands
        ]),
        .testTarget(name: "BlueproofTransmitterLinksTests", dependencies: [
            "BlueproofTransmitterLinks", "BlueproofTransmitter", "BlueproofWire", "BlueproofHost", "BlueproofAsync",
        ]),
        .testTarget(name: "BlueproofCheckTests", dependencies: ["BlueproofCheck", "BlueproofCapture", "BlueproofWire"]),
        .testTarget(name: "BlueproofConformanceTests", dependencies: [
            "BlueproofConformance", "BlueproofCapture", "BlueproofCheck", "BlueproofWire", "BlueproofTransfer",
            "BlueproofTransmitter", "BlueproofRadio", "BlueproofAsync", "BlueproofTestSupport",
            .product(name: "Logging", package: "swift-log"),
            "BlueproofBluenet", "BlueproofBluenetHost", // issue 18: the BLN case verdicts
        ]),
        // issue 18: Bluenet
        .testTarget(name: "BlueproofBluenetTests", dependencies: ["BlueproofBluenet", "BlueproofWire", "BlueproofRadio"]),
        .testTarget(name: "BlueproofBackendTests", dependencies: ["BlueproofBackend", "BlueproofTransport", "BlueproofTestSupport"]),
        .testTarget(name: "IntegrationTests", dependencies: [
            "BlueproofBackend", "BlueproofHost", "BlueproofCapture", "BlueproofTransport", "BlueproofWire",
            "BlueproofTestSupport", "BlueproofRadio", "BlueproofTransfer", "BlueproofConformance", "BlueproofTransmitter",
            "BlueproofTransmitterLinks", "BlueproofAsync", .product(name: "Crypto", package: "swift-crypto"),
            // issue 17: Spark over credit-based channels
            "BlueproofSpark",
            "BlueproofBluenet", "BlueproofBluenetHost", // issue 18: Bluenet
            "BlueproofControl", // issue 17: the Spark commands
        ], exclude: ["Bumble"]),
    ],
    swiftLanguageModes: [.v6]
)
