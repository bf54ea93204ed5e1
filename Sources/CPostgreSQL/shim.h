#ifndef LAYOUTD_CPOSTGRESQL_SHIM_H
#define LAYOUTD_CPOSTGRESQL_SHIM_H
/* libpq, PostgreSQL's C client library (Debian: libpq-dev). Debian installs its headers in
   /usr/include/postgresql, which is not on the default search path; `pkg-config --cflags
   libpq` (Package.swift's `pkgConfig`) adds it when pkg-config is installed, and the
   second spelling finds it without. libpq-fe.h includes its neighbours with quotes, so
   they are found next to it either way. */
#if __has_include(<libpq-fe.h>)
#include <libpq-fe.h>
#elif __has_include(<postgresql/libpq-fe.h>)
#include <postgresql/libpq-fe.h>
#else
#error "libpq-fe.h not found: install libpq-dev (Debian) or your system's libpq headers"
#endif

/* The PG_DIAG_* field codes of PQresultErrorField are character-literal macros, which
   Swift does not import; these hand them over as values
   (<https://www.postgresql.org/docs/15/libpq-exec.html#LIBPQ-PQRESULTERRORFIELD>). */

/** The five-character SQLSTATE code of an error (PG_DIAG_SQLSTATE). */
static inline int layoutd_pg_diag_sqlstate(void) { return PG_DIAG_SQLSTATE; }
/** The primary, human-readable error message (PG_DIAG_MESSAGE_PRIMARY). */
static inline int layoutd_pg_diag_message_primary(void) { return PG_DIAG_MESSAGE_PRIMARY; }
/** The severity, never localized: ERROR, FATAL, PANIC… (PG_DIAG_SEVERITY_NONLOCALIZED). */
static inline int layoutd_pg_diag_severity(void) { return PG_DIAG_SEVERITY_NONLOCALIZED; }
/** The constraint a violation names, e.g. a unique index (PG_DIAG_CONSTRAINT_NAME). */
static inline int layoutd_pg_diag_constraint_name(void) { return PG_DIAG_CONSTRAINT_NAME; }
#endif
