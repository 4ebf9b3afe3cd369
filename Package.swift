// swift-tools-version:6.1
import CompilerPluginSupport
import PackageDescription

let package = Package(
    name: "OpenCoreData",
    products: [
        .library(name: "CoreData", targets: ["CoreData"]),
        .library(name: "SwiftData", targets: ["SwiftData"]),
        .library(name: "CoreDataPostgreSQL", targets: ["CoreDataPostgreSQL"]),
        .executable(name: "coredata", targets: ["coredata"]),
        .plugin(name: "CoreDataCodegen", targets: ["CoreDataCodegen"]),
    ],
    traits: [
        // Off by default, so that `swift run coredata demo` does not build PostgresNIO.
        .trait(name: "PostgreSQL", description: "The coredata tool opens PostgreSQL stores: `swift run --traits PostgreSQL coredata demo --store postgres://…`."),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // The version that matches the Swift 6.3 toolchain, for the SwiftData macros.
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        // `swift package generate-documentation`: the DocC catalogs of CoreData and SwiftData.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .target(
            name: "CoreData",
            dependencies: [
                "CSQLite",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ]
        ),
        // Writes a model's classes as Swift source: the tool's `generate` command, which the plugin runs.
        // It has no product; what it needs of CoreData's internals is `package`.
        .target(
            name: "CoreDataCodeGeneration",
            dependencies: ["CoreData"]
        ),
        // Apple's SwiftData API over the CoreData engine; its macros are a compiler plug-in of their own.
        .target(
            name: "SwiftData",
            dependencies: ["CoreData", "SwiftDataMacros"]
        ),
        // The plug-in compiles the expansion library's sources (linked into its folder) as its
        // own, since the compiler finds a macro's type in the module `#externalMacro` names.
        .macro(
            name: "SwiftDataMacros",
            dependencies: [
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
            ]
        ),
        // What the macros expand to, as a library, so that the tests check expansions without
        // depending on a macro target: SwiftPM builds tests that do for the host's tools, where
        // the tests cannot import the crash writer's executable module.
        .target(
            name: "SwiftDataMacroExpansion",
            dependencies: [
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
            ]
        ),
        // A store on a PostgreSQL server, on the CoreData engine's store boundary; its own
        // target, so that a program that does not use it does not build PostgresNIO.
        .target(
            name: "CoreDataPostgreSQL",
            dependencies: [
                "CoreData",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "coredata",
            dependencies: [
                "CoreData",
                .target(name: "CoreDataPostgreSQL", condition: .when(traits: ["PostgreSQL"])),
                "CoreDataCodeGeneration",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .plugin(
            name: "CoreDataCodegen",
            capability: .buildTool(),
            dependencies: ["coredata"]
        ),
        // The writer the crash and multi-process tests run as a child process and kill. It has no
        // product: it is built with the tests and never offered to packages that depend on this one.
        // Logs and metrics as a server sees them: a child process of the tests that bootstraps
        // swift-log and swift-metrics with handlers of its own before Core Data starts.
        .executableTarget(
            name: "CoreDataObservabilityProbe",
            dependencies: [
                "CoreData",
                "CoreDataPostgreSQL",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ],
            path: "Tests/CoreDataObservabilityProbe"
        ),
        .executableTarget(
            name: "CoreDataCrashWriter",
            dependencies: ["CoreData"],
            path: "Tests/CoreDataCrashWriter"
        ),
        // Test-only: a SQLite VFS that fails chosen file operations (I/O-error injection).
        .target(
            name: "CSQLiteFaultVFS",
            path: "Tests/CSQLiteFaultVFS",
            linkerSettings: [.linkedLibrary("sqlite3")]
        ),
        .testTarget(
            name: "CoreDataTests",
            dependencies: [
                "CoreData",
                "CoreDataCrashWriter",
                "CoreDataObservabilityProbe",
                "CSQLiteFaultVFS",
                // The examples, built with the tests, which run them (Examples/CoreDataExamplesTests.swift).
                "MovieCatalog",
                "StudentList",
                "WorkshopStack",
                "NewsImporter",
                "FetchedResultsWalkthrough",
                // The conformance table runs against the PostgreSQL store too, when a server is there.
                "CoreDataPostgreSQL",
            ],
            resources: [
                // At the top of the test bundle's resources, where a program ships its models.
                .copy("ModelFile/Fixtures/Library.xcdatamodeld"),
                .copy("ModelFile/Fixtures/Notes.xcdatamodel"),
                .copy("ModelFile/Fixtures/Unreadable"),
                .copy("Migration/Fixtures/Shelf.xcdatamodeld"),
                // Stores written by Apple's Core Data, with their models (see its README.md).
                .copy("Stores/SQLite/AppleStores"),
            ]
        ),
        .testTarget(
            name: "SwiftDataTests",
            dependencies: [
                "SwiftData",
                "CoreData",
                "SwiftDataMacroExpansion",
                "SwiftDataTrips",
                "SwiftDataLibrary",
                .product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax"),
            ],
            // The script that wrote GeneratedPredicates.swift.
            exclude: ["Fetching/generate_predicates.py"]
        ),
        // A server process of the PostgreSQL multi-process tests, which run it as a child
        // process; built with the tests, no product.
        .executableTarget(
            name: "CoreDataPostgreSQLWriter",
            dependencies: ["CoreData", "CoreDataPostgreSQL"],
            path: "Tests/CoreDataPostgreSQLWriter",
            resources: [.copy("Counter.xcdatamodeld")]
        ),
        .testTarget(
            name: "CoreDataPostgreSQLTests",
            dependencies: [
                "CoreData",
                "CoreDataPostgreSQL",
                "CoreDataPostgreSQLWriter",
                // To break the server's side of a store's connection, as an administrator would.
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "CoreDataCodeGenerationTests",
            dependencies: ["CoreData", "CoreDataCodeGeneration"]
        ),
        // The README's example of a store of one's own, written as a program would write it
        // (`import CoreData`, public API only); no product, its tests run with the package's.
        .target(
            name: "JSONDirectoryStore",
            dependencies: ["CoreData"],
            path: "Examples/JSONDirectoryStore/Sources/JSONDirectoryStore"
        ),
        .testTarget(
            name: "JSONDirectoryStoreTests",
            dependencies: ["CoreData", "JSONDirectoryStore"],
            path: "Examples/JSONDirectoryStore/Tests/JSONDirectoryStoreTests"
        ),
        // The SwiftData tutorials' models as programs, run by the SwiftData tests.
        .executableTarget(
            name: "SwiftDataTrips",
            dependencies: ["SwiftData"],
            path: "Examples/SwiftDataTrips"
        ),
        .executableTarget(
            name: "SwiftDataLibrary",
            dependencies: ["SwiftData"],
            path: "Examples/SwiftDataLibrary"
        ),
        // The Core Data tutorials' programs, run by the CoreData tests.
        .executableTarget(
            name: "MovieCatalog",
            dependencies: ["CoreData"],
            path: "Examples/MovieCatalog"
        ),
        .executableTarget(
            name: "StudentList",
            dependencies: ["CoreData"],
            path: "Examples/StudentList",
            resources: [.copy("Students.xcdatamodeld")]
        ),
        .executableTarget(
            name: "WorkshopStack",
            dependencies: ["CoreData"],
            path: "Examples/WorkshopStack",
            resources: [.copy("Workshop.xcdatamodeld")]
        ),
        .executableTarget(
            name: "NewsImporter",
            dependencies: ["CoreData"],
            path: "Examples/NewsImporter"
        ),
        .executableTarget(
            name: "FetchedResultsWalkthrough",
            dependencies: ["CoreData"],
            path: "Examples/FetchedResultsWalkthrough"
        ),
        // Compiles and runs against the classes the plugin generates from its model.
        .testTarget(
            name: "CoreDataCodegenTests",
            dependencies: ["CoreData"],
            resources: [.copy("Cinema.xcdatamodeld")],
            plugins: ["CoreDataCodegen"]
        ),
    ]
)
