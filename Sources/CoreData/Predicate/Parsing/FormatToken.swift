/// One token of a format string and where it starts.
struct FormatToken {
    let kind: FormatTokenKind
    /// Offset of the token's first character, in Unicode scalars from the start of the string.
    let offset: Int
}
