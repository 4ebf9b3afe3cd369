/// What happens to the destinations of a relationship when its source object is deleted.
public enum NSDeleteRule: UInt, Sendable {
    /// Destinations keep dangling references; the app must fix the inverses.
    case noActionDeleteRule = 0
    /// Removes the deleted object from the inverse relationship of each destination.
    case nullifyDeleteRule = 1
    /// Deletes the destinations too, following their own delete rules.
    case cascadeDeleteRule = 2
    /// Refuses the delete at save time when the relationship is not empty.
    case denyDeleteRule = 3
}
