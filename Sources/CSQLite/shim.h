#ifndef LAYOUTD_CSQLITE_SHIM_H
#define LAYOUTD_CSQLITE_SHIM_H
#include <sqlite3.h>

/// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift
/// cannot import; this hands it over as a value.
static inline sqlite3_destructor_type layoutd_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}
#endif
