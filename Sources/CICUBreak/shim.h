#ifndef LAYOUTD_CICUBREAK_SHIM_H
#define LAYOUTD_CICUBREAK_SHIM_H
/* ICU's break iterators (Debian: libicu-dev), for UAX #14 line-break opportunities.
 *
 * ICU renames every C function with its major version (ubrk_open is a macro for
 * ubrk_open_72), and Swift cannot import function-like macros, so these static inline
 * wrappers hand the functions over under fixed names. */
#include <unicode/ubrk.h>
#include <unicode/utypes.h>

/* A line-break iterator (UAX #14 with ICU's root-locale rules) over no text yet. */
static inline UBreakIterator *layoutd_ubrk_open_line(UErrorCode *status) {
    return ubrk_open(UBRK_LINE, "", NULL, 0, status);
}
static inline void layoutd_ubrk_set_text(UBreakIterator *bi, const UChar *text, int32_t length, UErrorCode *status) {
    ubrk_setText(bi, text, length, status);
}
static inline int32_t layoutd_ubrk_first(UBreakIterator *bi) { return ubrk_first(bi); }
static inline int32_t layoutd_ubrk_next(UBreakIterator *bi) { return ubrk_next(bi); }
static inline void layoutd_ubrk_close(UBreakIterator *bi) { ubrk_close(bi); }
static inline int layoutd_u_failure(UErrorCode code) { return U_FAILURE(code) ? 1 : 0; }
static inline int32_t layoutd_ubrk_done(void) { return UBRK_DONE; }
#endif
