internal import CoreData

// The engine's predicate and sort types, which Foundation (exported by this module for its
// users) also declares under these names: inside SwiftData, the names mean the engine's.
typealias NSPredicate = CoreData.NSPredicate
typealias NSComparisonPredicate = CoreData.NSComparisonPredicate
typealias NSCompoundPredicate = CoreData.NSCompoundPredicate
typealias NSExpression = CoreData.NSExpression
typealias NSSortDescriptor = CoreData.NSSortDescriptor
