extension Array {
    /// The elements in consecutive slices of at most `size` elements, in order.
    /// A size below 1 counts as 1.
    package func chunked(into size: Int) -> [ArraySlice<Element>] {
        let size = Swift.max(size, 1)
        return stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
