/// Why a model file cannot be read or written, and where: the file, the line and the element.
struct ModelFileError: Error {
    /// The Cocoa error code: `NSFileReadCorruptFileError` (259) for a file that is not a model
    /// Core Data can read, `NSFileReadNoSuchFileError` (260) for a missing one,
    /// `NSFileWriteUnknownError` (512) for a model that cannot be written.
    var code = CocoaError.fileReadCorruptFile.rawValue
    var file: URL?
    var line: Int?
    /// The element that is wrong, as it starts in the file: `<attribute name="title">`.
    var element: String?
    let message: String

    init(_ message: String, at element: XMLDocumentElement? = nil) {
        self.message = message
        self.element = element?.tag
        self.line = element?.line
    }

    static func missing(_ url: URL, _ message: String) -> ModelFileError {
        var error = ModelFileError(message)
        error.code = CocoaError.fileReadNoSuchFile.rawValue
        error.file = url
        return error
    }

    /// The same error, naming the file if it does not yet.
    func inFile(_ url: URL) -> ModelFileError {
        var error = self
        if error.file == nil { error.file = url }
        return error
    }

    /// The error as Core Data reports it, with the file's path.
    var nsError: NSError {
        var place: [String] = []
        if let file { place.append(file.path) }
        if let line { place.append("line \(line)") }
        if let element { place.append(element) }
        let description = place.isEmpty ? message : "\(place.joined(separator: ", ")): \(message)"
        var info: [String: Any] = [:]
        if let file { info[NSFilePathErrorKey] = file.path; info[NSURLErrorKey] = file }
        return CoreDataError.make(code, description, userInfo: info)
    }
}
