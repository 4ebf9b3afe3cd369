/// A value that an object-ID attribute (`NSAttributeType.objectIDAttributeType`) accepts:
/// `NSManagedObjectID`, which conforms in Objects/. The layer plan lets Model/ name only the
/// request types of the folders beside it, so the attribute rules name this protocol instead.
protocol ObjectIDAttributeValue: AnyObject {}
