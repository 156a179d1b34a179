/* The splitting of `read` (portable, so the host tests cover it). */
#ifndef CGWB_SHELL_READ_H
#define CGWB_SHELL_READ_H

#include "strbuf.h"

/*
 * Split a line (without its newline) for `read NAME...` with n names: n values go to out,
 * the first n-1 fields and then the rest of the line, less leading and trailing IFS white
 * space (missing fields are empty). Without raw a backslash quotes the next character.
 * 0, or -ENOMEM.
 */
int sh_read_split(const char *line, const char *ifs, bool raw, int n, struct strv *out);

#endif
