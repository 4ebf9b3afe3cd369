#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast macro that Swift cannot import.
static const sqlite3_destructor_type csqlite_transient = (sqlite3_destructor_type)-1;
