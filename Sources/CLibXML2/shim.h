#ifndef LAYOUTD_CLIBXML2_SHIM_H
#define LAYOUTD_CLIBXML2_SHIM_H
/* libxml2 (Debian: libxml2-dev), the streaming reader only. Debian installs the headers in
   /usr/include/libxml2, which `pkg-config --cflags libxml-2.0` (Package.swift's
   `pkgConfig`) adds to the search path. */
/* Debian builds libxml2 with ICU, so <libxml/encoding.h> would include the system's
   <unicode/ucnv.h>. Any module importing both this one and Foundation (whose _FoundationICU
   declares its own UErrorCode) then fails to build: "'UErrorCode' has different definitions in
   different modules". Nothing here uses ICU converters; the only declarations the macro guards
   are pointers inside xmlCharEncodingHandler, which Swift never allocates, so dropping it keeps
   the ABI we use. (CICUBreak keeps ICU out of Swift's sight for the same reason.) */
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/xmlreader.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlerror.h>
#endif
