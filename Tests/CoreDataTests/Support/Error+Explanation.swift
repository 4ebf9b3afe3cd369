@testable import CoreData

extension Error {
    /// What a Core Data error explains, for tests that check it says why: the reason it gives
    /// under `reason` (its description is Apple's, as general as "A Core Data error occurred."),
    /// or its description.
    var explanation: String {
        CoreDataError.reason(of: self)
    }
}
