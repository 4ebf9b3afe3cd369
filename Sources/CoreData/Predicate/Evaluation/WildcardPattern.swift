/// `LIKE` matching: `*` matches any run of characters (including none), `?` exactly one character,
/// and everything else itself; the pattern must cover the whole string.
enum WildcardPattern {
    /// Whether `string` matches `pattern`, comparing characters exactly.
    ///
    /// Runs in time proportional to the product of the lengths at worst, without recursion, by
    /// remembering only the last `*` seen: a later `*` can absorb anything an earlier one could.
    static func matches(_ string: String, pattern: String) -> Bool {
        let text = Array(string)
        let pattern = Array(pattern)
        var textIndex = 0
        var patternIndex = 0
        var lastStar: (pattern: Int, text: Int)?

        while textIndex < text.count {
            if patternIndex < pattern.count, pattern[patternIndex] == "*" {
                lastStar = (patternIndex, textIndex)
                patternIndex += 1
            } else if patternIndex < pattern.count, pattern[patternIndex] == "?" || pattern[patternIndex] == text[textIndex] {
                patternIndex += 1
                textIndex += 1
            } else if let star = lastStar {
                lastStar = (star.pattern, star.text + 1)
                patternIndex = star.pattern + 1
                textIndex = star.text + 1
            } else {
                return false
            }
        }
        return pattern[patternIndex...].allSatisfy { $0 == "*" }
    }
}
