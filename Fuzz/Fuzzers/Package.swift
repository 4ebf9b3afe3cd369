// swift-tools-version:6.0
//
// Fuzz targets of Core Data for Linux, one executable each (README.md in this folder).
//
//     Fuzz/run [--short | --seconds N] [predicate|model|archive|store]...
//
// A package of its own, so that building the targets with libFuzzer builds neither the root
// package's tests nor its command-line tool, whose `main` would clash with libFuzzer's.

import PackageDescription

let fuzzTargets = ["PredicateFuzzer", "ModelFileFuzzer", "ArchiveFuzzer", "StoreFuzzer"]

let package = Package(
    name: "OpenCoreDataFuzz",
    dependencies: [
        // The library under test: the root package, product "CoreData".
        .package(name: "OpenCoreData", path: "../.."),
    ],
    targets: [
        .target(name: "FuzzSupport"),
    ] + fuzzTargets.map { name in
        .executableTarget(name: name, dependencies: [
            "FuzzSupport",
            .product(name: "CoreData", package: "OpenCoreData"),
        ])
    }
)
