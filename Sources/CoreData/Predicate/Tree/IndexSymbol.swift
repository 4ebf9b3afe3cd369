/// The symbolic indexes of `a[…]`: `FIRST`, `LAST` and `SIZE` (spec §3).
enum IndexSymbol: String, Hashable, Sendable {
    case first = "FIRST"
    case last = "LAST"
    case size = "SIZE"
}
