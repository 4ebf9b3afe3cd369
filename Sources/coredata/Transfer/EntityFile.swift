import CoreData

/// One entity's file of an export, `<Entity>.json`: a JSON array with one object per line, so
/// that `coredata export` writes it and `coredata import` reads it an object at a time, with
/// memory that does not grow with the store.
enum EntityFile {
    static func url(of entity: NSEntityDescription, in directory: URL) -> URL {
        directory.appendingPathComponent("\(entity.name ?? "").json")
    }

    /// Writes an entity's objects, one line each.
    final class Writer {
        private let handle: FileHandle
        private var written = 0

        init(url: URL) throws {
            guard FileManager.default.createFile(atPath: url.path, contents: Data("[".utf8)) else {
                throw CommandFailure.report("Cannot write \(url.path).")
            }
            handle = try FileHandle(forWritingTo: url)
            try handle.seekToEnd()
        }

        func append(_ object: [String: Any]) throws {
            let line = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
            try handle.write(contentsOf: Data((written == 0 ? "\n" : ",\n").utf8) + line)
            written += 1
        }

        func close() throws {
            try handle.write(contentsOf: Data("\n]\n".utf8))
            try handle.close()
        }
    }

    /// Reads the objects of an entity's file, a line at a time, handing each to `body` with its
    /// line number, and the bytes read so far to `progress`.
    ///
    /// - Throws: A ``CommandFailure`` naming the file and line of a line that is no JSON object.
    static func forEachObject(in url: URL, progress: (Int) -> Void = { _ in }, _ body: (_ line: Int, _ object: [String: Any]) throws -> Void) throws {
        guard let file = FileHandle(forReadingAtPath: url.path) else {
            throw CommandFailure.report("Cannot read \(url.path).")
        }
        defer { try? file.close() }
        var buffer = Data()
        var lineNumber = 0
        var bytesRead = 0
        func read(_ line: Data) throws {
            lineNumber += 1
            var text = line
            while let last = text.last, last == UInt8(ascii: ",") || last == UInt8(ascii: "\r") || last == UInt8(ascii: " ") { text.removeLast() }
            guard !text.isEmpty, text != Data("[".utf8), text != Data("]".utf8) else { return }
            guard let object = try? JSONSerialization.jsonObject(with: text) as? [String: Any] else {
                throw CommandFailure.report("\(url.lastPathComponent) line \(lineNumber) is not a JSON object on a line of its own, as coredata export writes them.")
            }
            try body(lineNumber, object)
        }
        while let chunk = try file.read(upToCount: 1 << 16), !chunk.isEmpty {
            bytesRead += chunk.count
            buffer.append(chunk)
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                try read(buffer[buffer.startIndex..<newline])
                buffer.removeSubrange(buffer.startIndex...newline)
            }
            progress(bytesRead)
        }
        try read(buffer)
    }
}
