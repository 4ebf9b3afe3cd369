/// An error SwiftData reports.
public struct SwiftDataError: Error, Hashable, Sendable, CustomStringConvertible {
    enum Code: Int, Sendable {
        case loadIssueModelContainer = 1
        case unsupportedPredicate
        case unsupportedSortDescriptor
        case unsupportedKeyPath
        case includePendingChangesWithBatchSize
        case sortingPendingChangesWithIdentifiers
        case configurationFileNameContainsInvalidCharacters
        case configurationFileNameTooLong
        case configurationSchemaNotFoundInContainerSchema
        case duplicateConfiguration
        case modelValidationFailure
        case missingModelContext
        case backwardMigration
        case unknownSchema
    }

    let code: Code
    /// What went wrong, in words; not part of the error's identity.
    let reason: String

    init(_ code: Code, _ reason: String = "") {
        self.code = code
        self.reason = reason
    }

    public static let loadIssueModelContainer = SwiftDataError(.loadIssueModelContainer)
    public static let unsupportedPredicate = SwiftDataError(.unsupportedPredicate)
    public static let unsupportedSortDescriptor = SwiftDataError(.unsupportedSortDescriptor)
    public static let unsupportedKeyPath = SwiftDataError(.unsupportedKeyPath)
    public static let includePendingChangesWithBatchSize = SwiftDataError(.includePendingChangesWithBatchSize)
    public static let sortingPendingChangesWithIdentifiers = SwiftDataError(.sortingPendingChangesWithIdentifiers)
    public static let configurationFileNameContainsInvalidCharacters = SwiftDataError(.configurationFileNameContainsInvalidCharacters)
    public static let configurationFileNameTooLong = SwiftDataError(.configurationFileNameTooLong)
    public static let configurationSchemaNotFoundInContainerSchema = SwiftDataError(.configurationSchemaNotFoundInContainerSchema)
    public static let duplicateConfiguration = SwiftDataError(.duplicateConfiguration)
    public static let modelValidationFailure = SwiftDataError(.modelValidationFailure)
    public static let missingModelContext = SwiftDataError(.missingModelContext)
    public static let backwardMigration = SwiftDataError(.backwardMigration)
    public static let unknownSchema = SwiftDataError(.unknownSchema)

    /// Whether an error is this SwiftData error, for `catch SwiftDataError.unsupportedPredicate`.
    public static func ~= (lhs: SwiftDataError, rhs: any Error) -> Bool {
        (rhs as? SwiftDataError) == lhs
    }

    public static func == (lhs: SwiftDataError, rhs: SwiftDataError) -> Bool {
        lhs.code == rhs.code
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
    }

    public var description: String {
        reason.isEmpty ? "SwiftDataError.\(code)" : "SwiftDataError.\(code): \(reason)"
    }

    public var localizedDescription: String { description }

    static func schemaProblem(_ reason: String) -> SwiftDataError {
        SwiftDataError(.loadIssueModelContainer, reason)
    }

    static func unsupportedPredicate(_ reason: String) -> SwiftDataError {
        SwiftDataError(.unsupportedPredicate, reason)
    }

    static func unsupportedKeyPath(_ reason: String) -> SwiftDataError {
        SwiftDataError(.unsupportedKeyPath, reason)
    }

    static func unsupportedSortDescriptor(_ reason: String) -> SwiftDataError {
        SwiftDataError(.unsupportedSortDescriptor, reason)
    }
}
