/// Files a write creates (removed again if it fails) and files it makes obsolete (removed once
/// it commits), for a store that keeps large binary data in files beside its database.
package struct ExternalFileChanges {
    var written: [URL] = []
    var obsolete: [URL] = []

    package init() {}
}
