import Testing
@testable import CoreData

/// Builds keyed archives, so that tests can write archives that `NSKeyedArchiver` never would.
/// They are written as XML, where `<dict><key>CF$UID</key><integer>n</integer></dict>` is a
/// reference, and converted to the binary form Core Data reads.
enum ArchiveXML {
    /// A reference to entry `index` of `$objects`.
    static func uid(_ index: Int) -> String {
        "<dict><key>CF$UID</key><integer>\(index)</integer></dict>"
    }

    /// An array of references, as collections store their elements.
    static func uids(_ indexes: [Int]) -> String {
        "<array>" + indexes.map(uid).joined() + "</array>"
    }

    /// A text value.
    static func string(_ text: String) -> String {
        let escaped = text.replacingOccurrences(of: "&", with: "&amp;")
            .replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
        return "<string>\(escaped)</string>"
    }

    /// An integer value.
    static func integer(_ value: Int) -> String {
        "<integer>\(value)</integer>"
    }

    /// A data value.
    static func data(_ bytes: [UInt8]) -> String {
        "<data>\(Data(bytes).base64EncodedString())</data>"
    }

    /// A class description, with the superclass chain Apple's archiver writes.
    static func classDescription(_ name: String?, classes: [String]? = nil, hints: [String]? = nil) -> String {
        var entries = ""
        if let name { entries += "<key>$classname</key>" + string(name) }
        if let classes { entries += "<key>$classes</key><array>" + classes.map(string).joined() + "</array>" }
        if let hints { entries += "<key>$classhints</key><array>" + hints.map(string).joined() + "</array>" }
        return "<dict>\(entries)</dict>"
    }

    /// An archived object whose class description is entry `classIndex`.
    static func object(class classIndex: Int, _ fields: [(key: String, value: String)] = []) -> String {
        "<dict><key>$class</key>\(uid(classIndex))"
            + fields.map { "<key>\($0.key)</key>\($0.value)" }.joined() + "</dict>"
    }

    /// The archive whose `$objects` are `"$null"` followed by `objects` (so the first of them is
    /// entry 1), with entry `root` as its root.
    static func archive(root: Int = 1, _ objects: [String]) -> Data {
        archive(top: "<key>root</key>\(uid(root))", objects: objects)
    }

    /// An archive with the given `$top` entries and `$objects` (after `"$null"`), and
    /// optionally another `$archiver` or `$version`.
    static func archive(
        top: String, objects: [String], archiver: String = "NSKeyedArchiver", version: Int = 100_000
    ) -> Data {
        binary(xml(top: top, objects: objects, archiver: archiver, version: version))
    }

    /// The XML property list of an archive.
    static func xml(
        top: String, objects: [String], archiver: String = "NSKeyedArchiver", version: Int = 100_000
    ) -> Data {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>$archiver</key>\(string(archiver))
            <key>$version</key>\(integer(version))
            <key>$top</key><dict>\(top)</dict>
            <key>$objects</key><array><string>$null</string>\(objects.joined())</array>
            </dict></plist>
            """
        return Data(xml.utf8)
    }

    /// The binary form of the XML property list `xml`.
    static func binary(_ xml: Data) -> Data {
        do {
            let plist = try PropertyListSerialization.propertyList(from: xml, options: [], format: nil)
            return try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
        } catch {
            Issue.record(error, "a test wrote a malformed XML property list")
            return Data()
        }
    }
}
