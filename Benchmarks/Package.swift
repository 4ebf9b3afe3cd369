// swift-tools-version:6.0
//
// Side-by-side benchmarks of Core Data for Linux ("ours") against the raw SQLite C API and GRDB,
// and of its PostgreSQL store against raw PostgresNIO.
// See README.md; the workloads are specified in spec/benchmarks.md §7.
//
//     swift run -c release --package-path Benchmarks bench [W1 W2 ...] [--runs N]

import PackageDescription

let package = Package(
    name: "OpenCoreDataBenchmarks",
    products: [
        .executable(name: "bench", targets: ["bench"]),
    ],
    dependencies: [
        // The library under test: the root package, product "CoreData".
        .package(name: "OpenCoreData", path: ".."),
        // The ORM baseline, pinned so that its figures stay comparable from run to run.
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        // The PostgreSQL baseline: the client the PostgreSQL store itself is built on.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        // The raw-SQLite baseline talks to the system libsqlite3 through its own module map
        // (the root package's `CSQLite` is not a product, and GRDB's `GRDBSQLite` is GRDB's).
        .systemLibrary(
            name: "BenchSQLite",
            path: "Sources/BenchSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // Counts heap allocations (allocs/object) by interposing malloc and its siblings.
        .target(name: "BenchMallocCounter", path: "Sources/BenchMallocCounter"),
        .executableTarget(
            name: "bench",
            dependencies: [
                "BenchSQLite",
                "BenchMallocCounter",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "CoreData", package: "OpenCoreData"),
                .product(name: "SwiftData", package: "OpenCoreData"),
                .product(name: "CoreDataPostgreSQL", package: "OpenCoreData"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            // W2c reads W1's `Item` through the class the plugin generates from this model.
            resources: [.copy("Peers/CoreData/Item.xcdatamodeld")],
            plugins: [.plugin(name: "CoreDataCodegen", package: "OpenCoreData")]
        ),
    ]
)
