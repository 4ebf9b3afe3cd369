/// The reserved words of the format language (spec §1.2), matched case-insensitively.
///
/// Every reserved word is listed, including those whose productions are not implemented yet, so
/// that they can never be mistaken for keys: a key with a reserved name is written with `#`
/// (`#size`).
enum FormatKeyword: String, CaseIterable {
    case and = "AND"
    case or = "OR"
    case not = "NOT"
    case `in` = "IN"
    case all = "ALL"
    case any = "ANY"
    case some = "SOME"
    case none = "NONE"
    case like = "LIKE"
    case matches = "MATCHES"
    case contains = "CONTAINS"
    case beginsWith = "BEGINSWITH"
    case endsWith = "ENDSWITH"
    case between = "BETWEEN"
    case caseInsensitive = "CASEINSENSITIVE"
    case ci = "CI"
    case null = "NULL"
    case `nil` = "NIL"
    case `self` = "SELF"
    case `true` = "TRUE"
    case yes = "YES"
    case `false` = "FALSE"
    case no = "NO"
    case first = "FIRST"
    case last = "LAST"
    case size = "SIZE"
    case anyKey = "ANYKEY"
    case subquery = "SUBQUERY"
    case fetch = "FETCH"
    case cast = "CAST"
    case function = "FUNCTION"
    case ternary = "TERNARY"
    case union = "UNION"
    case intersect = "INTERSECT"
    case minus = "MINUS"
    case truePredicate = "TRUEPREDICATE"
    case falsePredicate = "FALSEPREDICATE"
    case utiConformsTo = "UTI-CONFORMS-TO"
    case utiEquals = "UTI-EQUALS"

    /// The reserved word spelled `word` in any case, or nil when `word` is not reserved.
    init?(word: String) {
        self.init(rawValue: word.uppercased())
    }

    /// Whether `word` is reserved and must be escaped with `#` to be used as a key.
    static func isReserved(_ word: String) -> Bool {
        FormatKeyword(word: word) != nil
    }
}
