// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "okit",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "OKitEngine", targets: ["OKitEngine"]),
        .library(name: "OKitSQLite", targets: ["OKitSQLite"]),
        .library(name: "OKitPostgres", targets: ["OKitPostgres"]),
        .library(name: "OKitBackends", targets: ["OKitBackends"]),
        .library(name: "OKitLua", targets: ["OKitLua"]),
        .library(name: "OKitWeb", targets: ["OKitWeb"]),
        .executable(name: "okit-run", targets: ["okit-run"]),
        // The fuzz targets, for Fuzz/'s libFuzzer build (scripts/fuzz) and the corpus replay in the tests.
        .library(name: "OKitFuzzTargets", targets: ["OKitFuzzTargets"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", "4.0.0"..<"5.0.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
    ],
    targets: [
        // Lua 5.4 from Debian's liblua5.4-dev: the macros as inline functions, plus the few lines of C that must be C.
        .target(
            name: "CLua",
            linkerSettings: [.linkedLibrary("lua5.4")]
        ),
        // The processor's prefetch instruction for the engine's passes over entities (`__builtin_prefetch`, inline).
        .target(name: "CPrefetch"),
        // Line editing for the terminal shell: libedit from Debian's libedit-dev.
        .target(
            name: "CLineEdit",
            linkerSettings: [.linkedLibrary("edit")]
        ),
        // Pure Swift: schema, entities, models, storage (sealed with swift-crypto, backups zipped with ZIPFoundation;
        // the relational layer the database kinds share), bindings, invalidation, screens, the app session. No Lua,
        // and no database or network package: those are the backends' (LayerTests checks).
        .target(name: "OKitEngine", dependencies: [
            "CPrefetch",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "CryptoExtras", package: "swift-crypto"),
            .product(name: "ZIPFoundation", package: "ZIPFoundation"),
        ]),
        // The `sqlite` storage kind: the relational layer on GRDB over Debian's libsqlite3-dev.
        .target(name: "OKitSQLite", dependencies: [
            "OKitEngine",
            .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        // The `postgres` storage kind: shared models, the relational layer on postgres-nio.
        .target(name: "OKitPostgres", dependencies: [
            "OKitEngine",
            .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Crypto", package: "swift-crypto"),       // the announcements' signatures
        ]),
        // Every storage kind okit ships, in one registry (`StorageRegistry.builtIn`): the engine's and the backends'.
        // The front ends link it and register it.
        .target(name: "OKitBackends", dependencies: ["OKitEngine", "OKitSQLite", "OKitPostgres"]),
        // The bridge: lua_State ownership, value conversion, the `okit` module, sandbox and limits.
        .target(name: "OKitLua", dependencies: ["CLua", "OKitEngine"]),
        // The web front end's pages: a typed HTML renderer, a page per snapshot, the stylesheet and the script.
        .target(name: "OKitWeb", dependencies: [
            "OKitEngine",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "NIOPosix", package: "swift-nio"),        // the event loops as the tasks' executor
        ]),
        .executableTarget(
            name: "okit-run",
            dependencies: [
                "OKitEngine", "OKitLua", "OKitWeb", "CLineEdit", "OKitBackends", "OKitSQLite", "OKitPostgres",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // okit's fuzz targets (a model file, a binding, a backup, JSON-lines commands): Fuzz/ builds them with
        // libFuzzer; FuzzCorpusTests replays Fuzz/corpus/ through them, under the sanitizers in scripts/sanitize.
        .target(name: "OKitFuzzTargets", dependencies: ["OKitEngine", "OKitLua"]),
        // What the test targets share: the one process runner, the okit-run under test, temporary folders, a throwaway
        // PostgreSQL cluster.
        .target(name: "OKitTestSupport", path: "Tests/OKitTestSupport"),
        // okit-run for its words (`CommandLineAdvice`): a test of what a person reads words the engine's errors.
        .testTarget(name: "OKitEngineTests", dependencies: [
            "OKitEngine", "OKitTestSupport", "OKitLua", "okit-run",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "ZIPFoundation", package: "ZIPFoundation"),
        ]),
        .testTarget(name: "OKitSQLiteTests", dependencies: [
            "OKitSQLite", "OKitEngine", "OKitTestSupport",
            .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        .testTarget(name: "OKitPostgresTests", dependencies: ["OKitPostgres", "OKitEngine", "OKitTestSupport"]),
        .testTarget(name: "OKitWebTests", dependencies: [
            "OKitWeb", "OKitEngine", "OKitSQLite", "OKitTestSupport",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOEmbedded", package: "swift-nio"),
        ]),
        .testTarget(name: "OKitLuaTests", dependencies: [
            "OKitLua", "CLua", "OKitEngine", "OKitBackends", "OKitTestSupport", "OKitFuzzTargets",
        ]),
        // The extension points end to end: a screen kind of its own in one folder (JSON lines, the terminal, the
        // web) and a front end of its own (docs/engine.md), over okit-run's front ends in-process.
        .testTarget(name: "OKitFrontEndTests", dependencies: ["okit-run", "OKitWeb", "OKitLua", "OKitEngine", "OKitTestSupport"]),
    ]
)
