/// Compiled `MATCHES` patterns, shared across evaluations.
///
/// Filtering a thousand objects with one `MATCHES` predicate must not compile the pattern a
/// thousand times. Invalid patterns are remembered too, as misses.
// All state is guarded by `lock`; compiled expressions are immutable and only used to match.
final class RegularExpressionCache: @unchecked Sendable {
    /// The process-wide cache.
    static let shared = RegularExpressionCache()

    /// Beyond this many patterns the cache starts over, bounding its memory.
    private let capacity = 256
    private let lock = NSLock()
    private var expressions: [Key: NSRegularExpression?] = [:]

    private struct Key: Hashable {
        let pattern: String
        let caseInsensitive: Bool
    }

    /// An expression that matches exactly the strings `pattern` matches in full, or nil when
    /// `pattern` is not a valid ICU regular expression.
    func wholeStringExpression(_ pattern: String, caseInsensitive: Bool) -> NSRegularExpression? {
        let key = Key(pattern: pattern, caseInsensitive: caseInsensitive)
        lock.lock()
        defer { lock.unlock() }
        if let cached = expressions[key] {
            return cached
        }
        if expressions.count >= capacity {
            expressions.removeAll(keepingCapacity: true)
        }
        let expression = Self.compileWholeString(pattern, caseInsensitive: caseInsensitive)
        expressions[key] = .some(expression)
        return expression
    }

    /// Anchors the pattern at both ends of the input (`\A…\z`); the pattern is first compiled on
    /// its own so that anchoring cannot turn an invalid pattern (such as `a)(b`) into a valid one.
    private static func compileWholeString(_ pattern: String, caseInsensitive: Bool) -> NSRegularExpression? {
        let options: NSRegularExpression.Options = caseInsensitive ? [.caseInsensitive] : []
        guard (try? NSRegularExpression(pattern: pattern, options: options)) != nil else { return nil }
        return try? NSRegularExpression(pattern: "\\A(?:" + pattern + ")\\z", options: options)
    }
}
