extension Int {
    /// The sum, clamped to `Int.max`: offsets and limits come from the app and may be huge.
    func saturatingAdding(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }
}
