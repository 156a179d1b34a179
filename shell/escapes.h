/* Backslash escapes for echo -e and printf. */
#ifndef CGWB_KERNEL_SHELL_ESCAPES_H
#define CGWB_KERNEL_SHELL_ESCAPES_H

#include "lang/strbuf.h"

/*
 * s points just after a backslash: append what the escape stands for and return where the
 * text goes on. "\c" sets *stop (no more output). Unknown escapes stay as typed.
 */
const char *sh_unescape_one(const char *s, struct strbuf *out, bool *stop);
/* Append s with its escapes replaced; true if it ended at a "\c". */
bool sh_unescape(const char *s, struct strbuf *out);

#endif
