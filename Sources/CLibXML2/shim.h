#ifndef LAYOUTD_CLIBXML2_SHIM_H
#define LAYOUTD_CLIBXML2_SHIM_H
/* libxml2 (Debian: libxml2-dev), the streaming reader only. Debian installs the headers in
   /usr/include/libxml2, which `pkg-config --cflags libxml-2.0` (Package.swift's
   `pkgConfig`) adds to the search path. */
#include <libxml/xmlreader.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlerror.h>
#endif
