#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast macro that Swift cannot import.
static const sqlite3_destructor_type csqlite_transient = (sqlite3_destructor_type)-1;

// sqlite3_db_config is variadic, which Swift cannot call: leaves the write-ahead log in place
// when the connection closes instead of checkpointing it into the database file.
static inline int csqlite_keep_wal_on_close(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}
