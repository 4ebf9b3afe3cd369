// A program that imports SwiftData sees Foundation (dates, predicates, sort descriptors) and
// Observation (the models' registrar), as with Apple's SwiftData. The CoreData engine underneath
// stays hidden: its NS-prefixed predicate types would clash with Foundation's in the program.
@_exported import Foundation
@_exported import Observation
// Linux Foundation has no value transformers: a program names CoreData's, which
// `@Attribute(.transformable(by:))` takes.
@_exported public import class CoreData.ValueTransformer
@_exported public import struct CoreData.NSValueTransformerName
// Nor an undo manager: a context's is CoreData's.
@_exported public import class CoreData.UndoManager
