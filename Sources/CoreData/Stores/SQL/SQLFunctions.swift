/// The functions the SQL compiler calls for what SQL's own operators do differently from the
/// in-memory evaluator: string comparisons with options, `LIKE`, `MATCHES`, case changes and
/// division. Each store defines them on its database with the evaluator's semantics (SQLite's
/// in Swift, `SQLiteFunctions`; PostgreSQL's in the store's schema); each returns 1 or 0 for a
/// test, so a condition compares its result with 1.
///
/// - `cd_equal(a, b, options)`: 1 when `a ==[options] b`, 0 when not, NULL when either is NULL.
/// - `cd_compare(a, b, options)`: -1, 0 or 1, ordering with `[c]`/`[d]`/`[l]` options.
/// - `cd_search(string, needle, options, mode)`: 1 when `string` contains, begins with or ends
///   with `needle` (`SearchMode`); an empty needle never matches.
/// - `cd_like(string, pattern, options)`: the predicate language's `LIKE` (`*` and `?`).
/// - `cd_matches(string, pattern, options)`: `MATCHES`, a whole-string regular expression.
/// - `cd_uppercase(string)`, `cd_lowercase(string)`: `uppercase:` and `lowercase:` with Unicode's
///   full case mappings; NULL stays NULL.
/// - `cd_divide(a, b, integral)`, `cd_modulus(a, b, integral)`: `divide:by:` and `modulus:by:`
///   with the evaluator's arithmetic (by zero, integers give 0 and real numbers an infinity),
///   the operands taken as integers when `integral` is 1 and they are; NULL when either is NULL.
enum SQLFunctions {
    enum SearchMode: Int64 {
        case contains = 0
        case beginsWith = 1
        case endsWith = 2
    }

    static let equal = "cd_equal"
    static let compare = "cd_compare"
    static let search = "cd_search"
    static let like = "cd_like"
    static let matches = "cd_matches"
    static let uppercase = "cd_uppercase"
    static let lowercase = "cd_lowercase"
    static let divide = "cd_divide"
    static let modulus = "cd_modulus"
}
