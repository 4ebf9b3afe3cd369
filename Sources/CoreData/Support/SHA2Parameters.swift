/// What distinguishes one SHA-2 hash function from another: the word size, the constants and the
/// rotation amounts of FIPS 180-4.
///
/// Padding, the message schedule and the compression rounds are the same for every function
/// (§5.1, §6.2, §6.4), so ``SHA2`` implements them once over a conforming type's ``Word``.
protocol SHA2Parameters {
    /// The word that the function computes on: 32 bits for SHA-256, 64 bits for SHA-512.
    associatedtype Word: FixedWidthInteger & UnsignedInteger

    /// The initial hash value H(0): eight words (§5.3).
    static var initialHashValue: [Word] { get }

    /// The round constants K, one per round (§4.2).
    static var roundConstants: [Word] { get }

    /// The right rotations of the Σ0 function, applied to the working variable `a` (§4.1).
    static var bigSigma0: (Int, Int, Int) { get }

    /// The right rotations of the Σ1 function, applied to the working variable `e` (§4.1).
    static var bigSigma1: (Int, Int, Int) { get }

    /// The σ0 function of the message schedule: two right rotations, then a right shift (§4.1).
    static var smallSigma0: (Int, Int, Int) { get }

    /// The σ1 function of the message schedule: two right rotations, then a right shift (§4.1).
    static var smallSigma1: (Int, Int, Int) { get }
}
