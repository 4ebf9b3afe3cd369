// The system SQLite, for the raw-SQLite baseline of the benchmarks.
#include <sqlite3.h>
