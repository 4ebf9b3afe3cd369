/// A format string that cannot be parsed, or format arguments that do not fit it.
struct PredicateSyntaxError: Error {
    /// Where the problem is, in Unicode scalars from the start of the format string.
    let offset: Int
    /// What was expected and what was found, e.g. "expected an expression after '==', found the
    /// end of the format string".
    let reason: String

    /// The `NSError` Core Data reports: `NSCocoaErrorDomain`, code 2048 (`NSFormattingError`), with
    /// a description naming the format string, the character offset and the reason.
    func nsError(format: String) -> NSError {
        let characterOffset = Self.characterOffset(ofScalarOffset: offset, in: format)
        return CoreDataError.make(
            CocoaError.Code.formatting.rawValue,
            "Unable to parse the format string \"\(format)\" at character \(characterOffset): \(reason)"
        )
    }

    /// Converts an offset in Unicode scalars to one in characters, as a reader counts them.
    private static func characterOffset(ofScalarOffset offset: Int, in format: String) -> Int {
        let scalars = format.unicodeScalars
        let end = scalars.index(scalars.startIndex, offsetBy: offset, limitedBy: scalars.endIndex) ?? scalars.endIndex
        return String(scalars[..<end]).count
    }
}
