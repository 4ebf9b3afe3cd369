import Foundation

/// The ``Fixture/shared(key:describedAs:build:)`` and ``Fixture/sharedSchema(key:describedAs:build:)``
/// templates already built in this process, so that the workloads reading one large fixture (W3,
/// W4 and W9 read the same million rows) build it once. The files live under the benchmark's
/// temporary directory until it is removed; the schemas live on their server until
/// ``removeSchemas()``.
final class FixtureCache {
    /// A built template and how it was made.
    struct Entry {
        /// The template file, for a file template.
        var url: URL?
        /// The template schema, for a schema template.
        var schema: SchemaFixture?
        var note: String
    }

    private var entries: [String: Entry] = [:]

    /// The entry for `key`, if it was built.
    func entry(for key: String) -> Entry? {
        entries[key]
    }

    /// Records a built template under `key`.
    func store(_ entry: Entry, for key: String) {
        entries[key] = entry
    }

    /// Drops the template schemas built so far, which the temporary directory does not hold.
    func removeSchemas() {
        for entry in entries.values {
            entry.schema?.remove()
        }
        entries = entries.filter { $0.value.schema == nil }
    }
}
