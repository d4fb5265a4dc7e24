// swift-tools-version: 6.0
// libFuzzer targets for okit (spec/quality.md §6), opt-in and outside scripts/test: see docs/testing.md "Fuzzing"
// and scripts/fuzz. The targets are the main package's OKitFuzzTargets (the tests replay the corpora through them);
// a package of its own so the main package's build never needs the fuzzer runtime.
import PackageDescription

let package = Package(
    name: "okit-fuzz",
    dependencies: [.package(name: "okit", path: "..")],
    targets: [
        .executableTarget(
            name: "okit-fuzz",
            dependencies: [.product(name: "OKitFuzzTargets", package: "okit")],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
    ]
)
