extension CoreDataError {
    /// The error for data that is not a keyed archive Core Data can decode:
    /// `NSCoderReadCorruptError` (4864), as Apple's unarchiver reports it: Foundation's description, the
    /// reason under `NSDebugDescriptionErrorKey`.
    static func unreadableArchive(_ reason: String, underlying: Error? = nil) -> NSError {
        var userInfo: [String: Any] = [NSDebugDescriptionErrorKey: reason]
        if let underlying { userInfo[NSUnderlyingErrorKey] = underlying }
        return make(
            CocoaError.Code.coderReadCorrupt.rawValue,
            localizedDescription: "The data couldn’t be read because it isn’t in the correct format.",
            userInfo: userInfo
        )
    }

    /// The error for a value that cannot be archived: `NSCoderInvalidValueError` (4866), as
    /// Apple's archiver reports it: Foundation's description, the reason under `NSDebugDescriptionErrorKey`.
    static func unarchivableValue(_ reason: String) -> NSError {
        make(
            CocoaError.Code.coderInvalidValue.rawValue,
            localizedDescription: "The data couldn’t be written because it isn’t in the correct format.",
            userInfo: [NSDebugDescriptionErrorKey: reason]
        )
    }
}
