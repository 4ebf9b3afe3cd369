/// The `NSError` class of the errors Core Data reports: it describes itself as Apple's Foundation
/// describes an `NSError`.
///
/// Linux Foundation's `description` quotes the failure reason, which Core Data's errors do not
/// have, so `print(error)` (and the Xcode template's `fatalError("Unresolved error \(error)")`)
/// would read `Code=1570 "(null)"UserInfo={…}`. Apple's reads
/// `Error Domain=NSCocoaErrorDomain Code=1570 "title is a required value." UserInfo={…}`: the
/// localized description in quotes, then the user info. A `CocoaError` made from this error keeps
/// it, so it prints the same.
// Sendable as NSError is: every stored property is set once, in the initializer.
final class FormattedNSError: NSError, @unchecked Sendable {
    override var description: String {
        let quoted = userInfo[NSLocalizedDescriptionKey] as? String ?? "(null)"
        let head = "Error Domain=\(domain) Code=\(code) \"\(quoted)\""
        guard !userInfo.isEmpty else { return head }
        // Apple's order is its dictionary's; a sorted one reads the same from run to run.
        let entries = userInfo.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        return "\(head) UserInfo={\(entries.joined(separator: ", "))}"
    }
}
