import CSQLite

// The errors of SQLite calls: what the file system refused, said as Foundation says it, and
// everything else as Core Data's SQLite error.
extension SQLiteConnection {
    /// Core Data's error for a failed SQLite call on this connection that returned `code`.
    ///
    /// When the file system refused (no space left, no permission, a read-only volume), it is
    /// Foundation's file error for the store file: `NSFileWriteOutOfSpaceError` (640),
    /// `NSFileWriteNoPermissionError` (513), `NSFileReadNoPermissionError` (257) or
    /// `NSFileWriteVolumeReadOnlyError` (642). Otherwise it is `NSSQLiteError` (134180). Either
    /// way the SQLite result code is under `NSSQLiteErrorDomain` and the SQLite error under
    /// `NSUnderlyingErrorKey`, as in the errors of Apple's Core Data.
    func error(code: Int32, message: String? = nil, sql: String?) -> NSError {
        let message = message ?? lastErrorMessage
        let systemErrno = Self.reportsSystemError(code) ? handle.map(sqlite3_system_errno) ?? 0 : 0
        let underlying = Self.sqliteError(code: code, message: message, sql: sql, systemErrno: systemErrno)
        guard let fileCode = refusal(code: code, systemErrno: systemErrno) else {
            return Self.coreDataError(wrapping: underlying)
        }
        return CoreDataError.file(fileCode, url: URL(fileURLWithPath: path), reason: "SQLite error \(code): \(message)", userInfo: [
            NSUnderlyingErrorKey: underlying,
            NSSQLiteErrorDomain: Int(code),
        ])
    }

    /// Core Data's error for a SQLite failure: 134180 wrapping the `NSSQLiteErrorDomain` error
    /// that carries the SQLite result code.
    private static func coreDataError(wrapping underlying: NSError) -> NSError {
        CoreDataError.make(NSSQLiteError, "SQLite error \(underlying.code): \(underlying.localizedDescription)", userInfo: [
            NSUnderlyingErrorKey: underlying,
            NSSQLiteErrorDomain: underlying.code,
        ])
    }

    /// The `NSSQLiteErrorDomain` error of a result code, with the statement that failed and the
    /// operating system's error beneath it.
    private static func sqliteError(code: Int32, message: String, sql: String?, systemErrno: Int32) -> NSError {
        var info: [String: Any] = [NSLocalizedDescriptionKey: message]
        if let sql { info["NSSQLiteStatement"] = sql }
        if systemErrno != 0 { info[NSUnderlyingErrorKey] = NSError(domain: NSPOSIXErrorDomain, code: Int(systemErrno)) }
        return NSError(domain: NSSQLiteErrorDomain, code: Int(code), userInfo: info)
    }

    /// Whether SQLite records the operating system's error for a result code: it does for
    /// I/O errors and files it cannot open only, so at other times `sqlite3_system_errno` holds
    /// an older failure's.
    private static func reportsSystemError(_ code: Int32) -> Bool {
        [SQLITE_IOERR, SQLITE_CANTOPEN].contains(code & 0xFF)
    }

    /// `SQLITE_READONLY_DIRECTORY` (1544), a macro Swift does not import.
    private static let readOnlyDirectory = SQLITE_READONLY | 6 << 8

    /// The Cocoa file error code that says why the file system refused, or nil when it did not.
    private func refusal(code: Int32, systemErrno: Int32) -> Int? {
        if code == Self.readOnlyDirectory {
            // The directory refuses the -shm or journal file.
            return NSFileWriteNoPermissionError
        }
        switch code & 0xFF {
        case SQLITE_FULL:
            return NSFileWriteOutOfSpaceError
        case SQLITE_IOERR:
            return Self.cocoaCode(errno: systemErrno, reading: false)
        case SQLITE_CANTOPEN, SQLITE_READONLY, SQLITE_PERM:
            // SQLite's code may not say why (on a read-only volume, SQLITE_CANTOPEN with the
            // ENOENT of its read-only retry): ask the file system.
            return Self.cocoaCode(errno: systemErrno, reading: false) ?? fileSystemRefusal()
        default:
            return nil
        }
    }

    /// Why the file system refuses the store file: it cannot be read, or it or its directory
    /// (where the -wal and -shm files go) cannot be written.
    private func fileSystemRefusal() -> Int? {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        // With the effective user's permissions, as SQLite's own calls have.
        for (file, mode) in [(path, R_OK), (directory, W_OK), (path, W_OK)] where faccessat(AT_FDCWD, file, mode, AT_EACCESS) != 0 {
            if let code = Self.cocoaCode(errno: errno, reading: mode == R_OK) { return code }
        }
        return nil
    }

    /// The Cocoa file error code for an operating system error that refuses a file, as
    /// Foundation maps it, or nil for other errors.
    private static func cocoaCode(errno: Int32, reading: Bool) -> Int? {
        switch errno {
        case ENOSPC, EDQUOT: NSFileWriteOutOfSpaceError
        case EROFS: NSFileWriteVolumeReadOnlyError
        case EACCES, EPERM: reading ? NSFileReadNoPermissionError : NSFileWriteNoPermissionError
        default: nil
        }
    }
}
