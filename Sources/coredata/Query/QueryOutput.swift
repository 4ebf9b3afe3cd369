import ArgumentParser
import CoreData

/// How `coredata query` prints the objects it fetched.
enum QueryOutput: String, ExpressibleByArgument, CaseIterable {
    case table, json, csv

    /// The objects' rows, each the object's URI then its cells, under the columns `objectID`
    /// and the property names.
    func render(columns: [String], rows: [(uri: String, cells: [QueryCell])]) throws -> String {
        let header = ["objectID"] + columns
        switch self {
        case .table:
            var table = TextTable(columns: header)
            for row in rows {
                table.append(cells: [row.uri] + row.cells.map { ($0.text ?? "nil").replacingOccurrences(of: "\n", with: "\\n") })
            }
            return table.rendered + "\n  (\(rows.count) \(rows.count == 1 ? "object" : "objects"))"
        case .json:
            let objects = rows.map { row in
                Dictionary(uniqueKeysWithValues: zip(header, [row.uri as Any] + row.cells.map(\.json)))
            }
            let data = try JSONSerialization.data(withJSONObject: objects, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
            return String(decoding: data, as: UTF8.self)
        case .csv:
            let lines = [header] + rows.map { [$0.uri] + $0.cells.map { $0.text ?? "" } }
            return lines.map { $0.map(Self.csvField).joined(separator: ",") }.joined(separator: "\n")
        }
    }

    /// A CSV field, quoted when it holds a comma, a quote or a line break (RFC 4180).
    private static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
