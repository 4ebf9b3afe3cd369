import Foundation

/// The ``Fixture/shared(key:describedAs:build:)`` templates already built in this process, so
/// that the workloads reading one large fixture (W3, W4 and W9 read the same million rows) build
/// it once. The files live under the benchmark's temporary directory until it is removed.
final class FixtureCache {
    /// A built template and how it was made.
    struct Entry {
        var url: URL
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
}
