#ifndef LAYOUTD_CHARFBUZZ_SHIM_H
#define LAYOUTD_CHARFBUZZ_SHIM_H
/* HarfBuzz (Debian: libharfbuzz-dev): text shaping and the OpenType font tables. */
#include <hb.h>
#include <hb-ot.h>
#endif
