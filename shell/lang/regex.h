/* Regular expressions for grep (see regex.c for the supported syntax). */
#ifndef CGWB_SHELL_REGEX_H
#define CGWB_SHELL_REGEX_H

#include <cgwb/types.h>

struct regex;

/* ere: extended syntax (grep -E); icase: ignore ASCII case. 0, -EINVAL, -E2BIG, -ENOMEM. */
int regex_compile(struct regex **re, const char *pattern, bool ere, bool icase);
/* Does the pattern match somewhere in line (a NUL-terminated line without its newline)? */
bool regex_match(struct regex *re, const char *line);
/*
 * The first match starting at or after offset from (line[from] must exist): its start
 * and end offsets (the longest the backtracking finds first; possibly empty). grep -o.
 */
bool regex_search(struct regex *re, const char *line, int from, int *so, int *eo);
void regex_free(struct regex *re);

#endif
