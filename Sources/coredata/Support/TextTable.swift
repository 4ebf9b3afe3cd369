/// A plain-text table with aligned columns, for printing query results.
struct TextTable {
    let columns: [String]
    private(set) var rows: [[String]] = []

    init(_ columns: String...) {
        self.init(columns: columns)
    }

    init(columns: [String]) {
        self.columns = columns
    }

    mutating func append(_ cells: String...) {
        append(cells: cells)
    }

    mutating func append(cells: [String]) {
        rows.append(cells)
    }

    var rendered: String {
        let widths = columns.indices.map { column in
            ([columns[column]] + rows.map { $0[column] }).map(\.count).max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ").trimmingSuffix()
        }
        let rule = widths.map { String(repeating: "─", count: $0) }.joined(separator: "  ")
        return ([line(columns), rule] + rows.map(line)).map { "  " + $0 }.joined(separator: "\n")
    }
}

private extension String {
    func trimmingSuffix() -> String {
        var result = self
        while result.last == " " { result.removeLast() }
        return result
    }
}
