#ifndef LAYOUTD_CICUBREAK_H
#define LAYOUTD_CICUBREAK_H
/* ICU's line break iterator (Debian: libicu-dev), for UAX #14 line-break opportunities.
 *
 * This header names no ICU type: the toolchain's Foundation carries its own ICU module
 * (_FoundationICU) whose UErrorCode, UProperty, … differ from the system's, and a Swift
 * file that sees both fails to build. ICU is included only by CICUBreak.c, which also
 * hands ICU's version-renamed functions (ubrk_open is a macro for ubrk_open_72) over
 * under fixed names. */
#include <stdint.h>

/* An ICU UBreakIterator, opaque to Swift. */
typedef struct layoutd_line_breaker layoutd_line_breaker;

/* A line-break iterator (UAX #14 with ICU's root-locale rules) over no text yet; NULL
 * when ICU cannot open one (its data library missing, or no memory). */
layoutd_line_breaker *layoutd_ubrk_open_line(void);
/* Sets the UTF-16 text (not copied: it must outlive the iteration); 0 on success. */
int layoutd_ubrk_set_text(layoutd_line_breaker *breaker, const uint16_t *text, int32_t length);
int32_t layoutd_ubrk_first(layoutd_line_breaker *breaker);
/* The next break's UTF-16 offset, or layoutd_ubrk_done() after the last. */
int32_t layoutd_ubrk_next(layoutd_line_breaker *breaker);
void layoutd_ubrk_close(layoutd_line_breaker *breaker);
int32_t layoutd_ubrk_done(void);
#endif
