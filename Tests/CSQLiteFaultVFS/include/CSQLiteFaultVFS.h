#ifndef CSQLITE_FAULT_VFS_H
#define CSQLITE_FAULT_VFS_H

// SQLite VFSes for tests, over the default one, that once armed fail the n-th call of a chosen
// kind, as SQLite's own I/O-error tests do. Every call but xSync reaches the default VFS; syncs are
// counted and can fail but are not performed (test files need no durability against power loss).
// Each VFS counts and fails only the calls on files opened through it, under its own mutex, so
// that tests that each create one can run in parallel.

/// The file operations the VFS counts and can fail.
typedef enum cdfault_kind {
    /// Any of the kinds below.
    CDFAULT_ANY = 0,
    /// xRead: fails with SQLITE_IOERR_READ.
    CDFAULT_READ,
    /// xWrite: fails with SQLITE_IOERR_WRITE.
    CDFAULT_WRITE,
    /// xSync: fails with SQLITE_IOERR_FSYNC.
    CDFAULT_SYNC,
    /// xTruncate: fails with SQLITE_IOERR_TRUNCATE.
    CDFAULT_TRUNCATE,
    /// xLock (the database file's locks): fails with SQLITE_IOERR_LOCK.
    CDFAULT_LOCK,
    /// xShmLock when it takes a lock of the WAL index (releasing one never fails): fails with
    /// SQLITE_IOERR_SHMLOCK.
    CDFAULT_SHM_LOCK,
    /// xFileSize: fails with SQLITE_IOERR_FSTAT.
    CDFAULT_FILE_SIZE,
    /// xShmMap (the WAL index): fails with SQLITE_IOERR_SHMMAP.
    CDFAULT_SHM_MAP,
    /// xOpen of the VFS: fails with SQLITE_CANTOPEN.
    CDFAULT_OPEN,
    CDFAULT_KIND_COUNT
} cdfault_kind;

/// A fault-injecting VFS.
typedef struct cdfault_vfs cdfault_vfs;

/// Creates and registers a new VFS (never the default one), named "cdfault-<n>". It stays
/// registered for the life of the process.
cdfault_vfs *cdfault_install(void);

/// The name to open files through the VFS with (sqlite3_open_v2).
const char *cdfault_name(cdfault_vfs *vfs);

/// Makes the `n`-th call (1-based) of `kind` from now fail; with `persistent`, every later call of
/// that kind fails too, until `cdfault_disarm`. `result` is the SQLite result code the failing
/// calls return; 0 stands for the kind's own I/O error code (see `cdfault_kind`).
void cdfault_arm(cdfault_vfs *vfs, cdfault_kind kind, int n, int persistent, int result);

/// Stops failing calls.
void cdfault_disarm(cdfault_vfs *vfs);

/// The calls failed since the last `cdfault_arm`.
int cdfault_hits(cdfault_vfs *vfs);

/// The calls of `kind` made since the last `cdfault_reset_counts` (armed or not, failed or not).
int cdfault_calls(cdfault_vfs *vfs, cdfault_kind kind);

/// Starts the call counts over.
void cdfault_reset_counts(cdfault_vfs *vfs);

#endif
