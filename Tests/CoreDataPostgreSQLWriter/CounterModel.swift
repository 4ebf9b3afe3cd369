import CoreData
import Foundation

/// One shared counter that writer processes change at once: `total`, which every writer
/// increments, and `byWriter0` … `byWriter3`, each of which one writer alone increments.
///
/// The model file `Counter.xcdatamodeld` has two versions: version 2 adds an optional `note` to
/// the counter and an entity `Tally`, a lightweight migration that processes starting at once
/// with it race to run (the migration finds version 1 beside it in the file).
enum CounterModel {
    static let writerCount = 4

    static func make(version: Int = 1) throws -> NSManagedObjectModel {
        guard let file = Bundle.module.url(forResource: "Counter", withExtension: "xcdatamodeld") else {
            throw CocoaError(.fileNoSuchFile)
        }
        return try NSManagedObjectModel(validatingContentsOf: file.appendingPathComponent(version == 1 ? "Counter.xcdatamodel" : "Counter \(version).xcdatamodel"))
    }

    static func propertyName(ofWriter writer: Int) -> String {
        "byWriter\(writer)"
    }
}
