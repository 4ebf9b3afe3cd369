#include "CSQLiteFaultVFS.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stddef.h>

/// A VFS, its countdown and its call counts. `base` comes first, so that SQLite's VFS pointer is
/// the structure's.
struct cdfault_vfs {
    sqlite3_vfs base;
    char name[32];
    pthread_mutex_t mutex;
    int armed;
    cdfault_kind kind;
    int remaining;
    int persistent;
    int result;
    int hits;
    int calls[CDFAULT_KIND_COUNT];
};

/// Counts a call of `kind` and returns the code it must fail with, or SQLITE_OK to let it through.
static int injectedResult(cdfault_vfs *vfs, cdfault_kind kind, int ownResult) {
    int result = SQLITE_OK;
    pthread_mutex_lock(&vfs->mutex);
    vfs->calls[kind] += 1;
    vfs->calls[CDFAULT_ANY] += 1;
    if (vfs->armed && (vfs->kind == CDFAULT_ANY || vfs->kind == kind)) {
        if (vfs->remaining > 1) {
            vfs->remaining -= 1;
        } else if (vfs->remaining == 1 || vfs->persistent) {
            vfs->remaining = 0;
            vfs->hits += 1;
            result = vfs->result != 0 ? vfs->result : ownResult;
        }
    }
    pthread_mutex_unlock(&vfs->mutex);
    return result;
}

void cdfault_arm(cdfault_vfs *vfs, cdfault_kind kind, int n, int persistent, int result) {
    pthread_mutex_lock(&vfs->mutex);
    vfs->armed = n > 0;
    vfs->kind = kind;
    vfs->remaining = n;
    vfs->persistent = persistent;
    vfs->result = result;
    vfs->hits = 0;
    pthread_mutex_unlock(&vfs->mutex);
}

void cdfault_disarm(cdfault_vfs *vfs) {
    pthread_mutex_lock(&vfs->mutex);
    vfs->armed = 0;
    pthread_mutex_unlock(&vfs->mutex);
}

int cdfault_hits(cdfault_vfs *vfs) {
    pthread_mutex_lock(&vfs->mutex);
    int hits = vfs->hits;
    pthread_mutex_unlock(&vfs->mutex);
    return hits;
}

int cdfault_calls(cdfault_vfs *vfs, cdfault_kind kind) {
    pthread_mutex_lock(&vfs->mutex);
    int calls = vfs->calls[kind];
    pthread_mutex_unlock(&vfs->mutex);
    return calls;
}

void cdfault_reset_counts(cdfault_vfs *vfs) {
    pthread_mutex_lock(&vfs->mutex);
    for (int kind = 0; kind < CDFAULT_KIND_COUNT; kind++) vfs->calls[kind] = 0;
    pthread_mutex_unlock(&vfs->mutex);
}

const char *cdfault_name(cdfault_vfs *vfs) {
    return vfs->name;
}

// MARK: Files

/// A file of the fault VFS: SQLite's file object followed by the default VFS's file, which SQLite
/// allocates in the same block (`szOsFile` covers both).
typedef struct FaultFile {
    sqlite3_file base;
    cdfault_vfs *owner;
    sqlite3_file *real;
} FaultFile;

static sqlite3_file *realFile(sqlite3_file *file) {
    return ((FaultFile *)file)->real;
}

static int fileFault(sqlite3_file *file, cdfault_kind kind, int ownResult) {
    return injectedResult(((FaultFile *)file)->owner, kind, ownResult);
}

static int faultClose(sqlite3_file *file) {
    return realFile(file)->pMethods->xClose(realFile(file));
}

static int faultRead(sqlite3_file *file, void *buffer, int amount, sqlite3_int64 offset) {
    int result = fileFault(file, CDFAULT_READ, SQLITE_IOERR_READ);
    if (result != SQLITE_OK) return result;
    return realFile(file)->pMethods->xRead(realFile(file), buffer, amount, offset);
}

static int faultWrite(sqlite3_file *file, const void *buffer, int amount, sqlite3_int64 offset) {
    int result = fileFault(file, CDFAULT_WRITE, SQLITE_IOERR_WRITE);
    if (result != SQLITE_OK) return result;
    return realFile(file)->pMethods->xWrite(realFile(file), buffer, amount, offset);
}

static int faultTruncate(sqlite3_file *file, sqlite3_int64 size) {
    int result = fileFault(file, CDFAULT_TRUNCATE, SQLITE_IOERR_TRUNCATE);
    if (result != SQLITE_OK) return result;
    return realFile(file)->pMethods->xTruncate(realFile(file), size);
}

// Syncs are counted and can fail, but never reach the disk: test files need no durability
// against power loss, and an fsync per commit would make a sweep of hundreds of saves slow.
static int faultSync(sqlite3_file *file, int flags) {
    (void)file;
    (void)flags;
    return fileFault(file, CDFAULT_SYNC, SQLITE_IOERR_FSYNC);
}

static int faultFileSize(sqlite3_file *file, sqlite3_int64 *size) {
    int result = fileFault(file, CDFAULT_FILE_SIZE, SQLITE_IOERR_FSTAT);
    if (result != SQLITE_OK) return result;
    return realFile(file)->pMethods->xFileSize(realFile(file), size);
}

static int faultLock(sqlite3_file *file, int level) {
    int result = fileFault(file, CDFAULT_LOCK, SQLITE_IOERR_LOCK);
    if (result != SQLITE_OK) return result;
    return realFile(file)->pMethods->xLock(realFile(file), level);
}

// Releasing a lock is never failed: SQLite ignores those errors, as a real file system cannot
// refuse them either.
static int faultUnlock(sqlite3_file *file, int level) {
    return realFile(file)->pMethods->xUnlock(realFile(file), level);
}

static int faultCheckReservedLock(sqlite3_file *file, int *isReserved) {
    return realFile(file)->pMethods->xCheckReservedLock(realFile(file), isReserved);
}

static int faultFileControl(sqlite3_file *file, int operation, void *argument) {
    return realFile(file)->pMethods->xFileControl(realFile(file), operation, argument);
}

static int faultSectorSize(sqlite3_file *file) {
    return realFile(file)->pMethods->xSectorSize(realFile(file));
}

static int faultDeviceCharacteristics(sqlite3_file *file) {
    return realFile(file)->pMethods->xDeviceCharacteristics(realFile(file));
}

static int faultShmMap(sqlite3_file *file, int region, int size, int extend, void volatile **address) {
    int result = fileFault(file, CDFAULT_SHM_MAP, SQLITE_IOERR_SHMMAP);
    if (result != SQLITE_OK) return result;
    return realFile(file)->pMethods->xShmMap(realFile(file), region, size, extend, address);
}

static int faultShmLock(sqlite3_file *file, int offset, int count, int flags) {
    if (flags & SQLITE_SHM_LOCK) {
        int result = fileFault(file, CDFAULT_SHM_LOCK, SQLITE_IOERR_SHMLOCK);
        if (result != SQLITE_OK) return result;
    }
    return realFile(file)->pMethods->xShmLock(realFile(file), offset, count, flags);
}

static void faultShmBarrier(sqlite3_file *file) {
    realFile(file)->pMethods->xShmBarrier(realFile(file));
}

static int faultShmUnmap(sqlite3_file *file, int deleteFlag) {
    return realFile(file)->pMethods->xShmUnmap(realFile(file), deleteFlag);
}

static int faultFetch(sqlite3_file *file, sqlite3_int64 offset, int amount, void **pointer) {
    return realFile(file)->pMethods->xFetch(realFile(file), offset, amount, pointer);
}

static int faultUnfetch(sqlite3_file *file, sqlite3_int64 offset, void *pointer) {
    return realFile(file)->pMethods->xUnfetch(realFile(file), offset, pointer);
}

static const sqlite3_io_methods faultMethods = {
    .iVersion = 3,
    .xClose = faultClose,
    .xRead = faultRead,
    .xWrite = faultWrite,
    .xTruncate = faultTruncate,
    .xSync = faultSync,
    .xFileSize = faultFileSize,
    .xLock = faultLock,
    .xUnlock = faultUnlock,
    .xCheckReservedLock = faultCheckReservedLock,
    .xFileControl = faultFileControl,
    .xSectorSize = faultSectorSize,
    .xDeviceCharacteristics = faultDeviceCharacteristics,
    .xShmMap = faultShmMap,
    .xShmLock = faultShmLock,
    .xShmBarrier = faultShmBarrier,
    .xShmUnmap = faultShmUnmap,
    .xFetch = faultFetch,
    .xUnfetch = faultUnfetch,
};

// MARK: The VFS

static sqlite3_vfs *defaultVFS(sqlite3_vfs *vfs) {
    return (sqlite3_vfs *)vfs->pAppData;
}

static int faultOpen(sqlite3_vfs *vfs, const char *name, sqlite3_file *file, int flags, int *outFlags) {
    FaultFile *faultFile = (FaultFile *)file;
    faultFile->owner = (cdfault_vfs *)vfs;
    faultFile->real = (sqlite3_file *)&faultFile[1];
    faultFile->real->pMethods = NULL;
    // SQLite calls xClose only on a file whose pMethods is set.
    file->pMethods = NULL;
    int result = injectedResult(faultFile->owner, CDFAULT_OPEN, SQLITE_CANTOPEN);
    if (result != SQLITE_OK) return result;
    result = defaultVFS(vfs)->xOpen(defaultVFS(vfs), name, faultFile->real, flags, outFlags);
    if (faultFile->real->pMethods == NULL) return result;
    // The methods forward every call of version 3 (WAL and memory maps), which Linux's default
    // VFS ("unix") provides; a file without them is refused rather than half served.
    if (faultFile->real->pMethods->iVersion < 3) {
        faultFile->real->pMethods->xClose(faultFile->real);
        return SQLITE_CANTOPEN;
    }
    file->pMethods = &faultMethods;
    return result;
}

static int faultDelete(sqlite3_vfs *vfs, const char *name, int syncDirectory) {
    return defaultVFS(vfs)->xDelete(defaultVFS(vfs), name, syncDirectory);
}

static int faultAccess(sqlite3_vfs *vfs, const char *name, int flags, int *result) {
    return defaultVFS(vfs)->xAccess(defaultVFS(vfs), name, flags, result);
}

static int faultFullPathname(sqlite3_vfs *vfs, const char *name, int size, char *output) {
    return defaultVFS(vfs)->xFullPathname(defaultVFS(vfs), name, size, output);
}

static void *faultDlOpen(sqlite3_vfs *vfs, const char *path) {
    return defaultVFS(vfs)->xDlOpen(defaultVFS(vfs), path);
}

static void faultDlError(sqlite3_vfs *vfs, int size, char *message) {
    defaultVFS(vfs)->xDlError(defaultVFS(vfs), size, message);
}

static void (*faultDlSym(sqlite3_vfs *vfs, void *library, const char *symbol))(void) {
    return defaultVFS(vfs)->xDlSym(defaultVFS(vfs), library, symbol);
}

static void faultDlClose(sqlite3_vfs *vfs, void *library) {
    defaultVFS(vfs)->xDlClose(defaultVFS(vfs), library);
}

static int faultRandomness(sqlite3_vfs *vfs, int size, char *output) {
    return defaultVFS(vfs)->xRandomness(defaultVFS(vfs), size, output);
}

static int faultSleep(sqlite3_vfs *vfs, int microseconds) {
    return defaultVFS(vfs)->xSleep(defaultVFS(vfs), microseconds);
}

static int faultCurrentTime(sqlite3_vfs *vfs, double *time) {
    return defaultVFS(vfs)->xCurrentTime(defaultVFS(vfs), time);
}

static int faultGetLastError(sqlite3_vfs *vfs, int size, char *message) {
    return defaultVFS(vfs)->xGetLastError(defaultVFS(vfs), size, message);
}

static int faultCurrentTimeInt64(sqlite3_vfs *vfs, sqlite3_int64 *time) {
    return defaultVFS(vfs)->xCurrentTimeInt64(defaultVFS(vfs), time);
}

static pthread_mutex_t installation = PTHREAD_MUTEX_INITIALIZER;
static int installedCount = 0;

cdfault_vfs *cdfault_install(void) {
    sqlite3_vfs *underlying = sqlite3_vfs_find(NULL);
    cdfault_vfs *vfs = sqlite3_malloc(sizeof(cdfault_vfs));
    if (vfs == NULL || underlying == NULL) return NULL;
    *vfs = (cdfault_vfs){
        .base = {
            .iVersion = 2,
            .szOsFile = (int)sizeof(FaultFile) + underlying->szOsFile,
            .mxPathname = underlying->mxPathname,
            .zName = vfs->name,
            .pAppData = underlying,
            .xOpen = faultOpen,
            .xDelete = faultDelete,
            .xAccess = faultAccess,
            .xFullPathname = faultFullPathname,
            .xDlOpen = faultDlOpen,
            .xDlError = faultDlError,
            .xDlSym = faultDlSym,
            .xDlClose = faultDlClose,
            .xRandomness = faultRandomness,
            .xSleep = faultSleep,
            .xCurrentTime = faultCurrentTime,
            .xGetLastError = faultGetLastError,
            .xCurrentTimeInt64 = faultCurrentTimeInt64,
        },
    };
    pthread_mutex_init(&vfs->mutex, NULL);
    pthread_mutex_lock(&installation);
    installedCount += 1;
    sqlite3_snprintf(sizeof(vfs->name), vfs->name, "cdfault-%d", installedCount);
    pthread_mutex_unlock(&installation);
    sqlite3_vfs_register(&vfs->base, 0);
    return vfs;
}
