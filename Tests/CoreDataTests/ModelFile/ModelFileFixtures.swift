@testable import CoreData

/// The model files of `ModelFile/Fixtures`, written by hand the way Xcode writes them:
///
/// - `Library.xcdatamodeld`: three versions and a `.xccurrentversion` naming `Library 3`.
///   `Library` (identifier "1") has `Author` (name), `Book` (pages, title) and `Patron` (name);
///   `Library 2` ("2") renames `Author.name` to `fullName` (elementID "name") and adds `Book.isbn`;
///   `Library 3` ("3") uses every element and attribute of the format: abstract `Item` with
///   sub-entities `Book` and `Periodical`, `Author`, `Genre`, `Loan`, `Member` (renamed from
///   `Patron`), the composites `Dimensions` and `Unit`, three fetch request templates and the
///   configurations `Catalog` and `Circulation`.
/// - `Notes.xcdatamodel`: a stand-alone model saved by Xcode 4.6 (`Note` ↔ `Tag`).
/// - `Unreadable/Legacy.xcdatamodel`: a model saved before Xcode 4, binary `elements` and
///   `layout` only; in a folder of its own so that searches of the bundle do not meet it.
///
/// The test target copies them to the top of its resource bundle, where a program ships models.
enum ModelFileFixtures {
    static var directory: URL {
        Bundle.module.resourceURL!
    }

    static var library: URL { directory.appendingPathComponent("Library.xcdatamodeld") }
    static var notes: URL { directory.appendingPathComponent("Notes.xcdatamodel") }
    static var legacy: URL { directory.appendingPathComponent("Unreadable/Legacy.xcdatamodel") }

    /// The directory of a version of the library, such as "Library 2".
    static func library(version name: String) -> URL {
        library.appendingPathComponent("\(name).xcdatamodel")
    }

    /// The current version of the library model (`Library 3`).
    static func libraryModel() throws -> NSManagedObjectModel {
        try NSManagedObjectModel(validatingContentsOf: library)
    }

    /// The model of one version of the library.
    static func libraryModel(version name: String) throws -> NSManagedObjectModel {
        try NSManagedObjectModel(validatingContentsOf: library(version: name))
    }

    /// The current library model without its derived and composite attributes, which stores do
    /// not support yet, so that a coordinator accepts it.
    static func storeCompatibleLibraryModel() throws -> NSManagedObjectModel {
        let model = try libraryModel()
        for entity in model.entities {
            entity.properties = entity.declaredProperties.filter { property in
                !(property is NSDerivedAttributeDescription) && !(property is NSCompositeAttributeDescription)
            }
        }
        return model
    }
}
