// Core Data for Linux: Apple's object graph and persistence framework, rebuilt in Swift.
//
// Files that use Core Data import `CoreData` alone, as on Apple platforms: the module re-exports
// Foundation and declares its own `NSPredicate`, `NSComparisonPredicate`, `NSCompoundPredicate`,
// `NSExpression` and `NSSortDescriptor`, because Linux Foundation's versions cannot parse format
// strings or take string keys.
@_exported import Foundation
