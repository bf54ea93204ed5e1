/* The wrappers of CICUBreak.h over ICU's C API (unicode/ubrk.h). */
#include "CICUBreak.h"
#include <unicode/ubrk.h>
#include <unicode/utypes.h>

layoutd_line_breaker *layoutd_ubrk_open_line(void) {
    UErrorCode status = U_ZERO_ERROR;
    UBreakIterator *iterator = ubrk_open(UBRK_LINE, "", NULL, 0, &status);
    if (U_FAILURE(status)) {
        if (iterator) ubrk_close(iterator);
        return NULL;
    }
    return (layoutd_line_breaker *)iterator;
}

int layoutd_ubrk_set_text(layoutd_line_breaker *breaker, const uint16_t *text, int32_t length) {
    UErrorCode status = U_ZERO_ERROR;
    ubrk_setText((UBreakIterator *)breaker, (const UChar *)text, length, &status);
    return U_FAILURE(status) ? 1 : 0;
}

int32_t layoutd_ubrk_first(layoutd_line_breaker *breaker) { return ubrk_first((UBreakIterator *)breaker); }
int32_t layoutd_ubrk_next(layoutd_line_breaker *breaker) { return ubrk_next((UBreakIterator *)breaker); }
void layoutd_ubrk_close(layoutd_line_breaker *breaker) { ubrk_close((UBreakIterator *)breaker); }
int32_t layoutd_ubrk_done(void) { return UBRK_DONE; }
