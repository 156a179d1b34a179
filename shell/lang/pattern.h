/*
 * sh pattern matching ("Pattern Matching Notation"): used by ${x%pat} and its kin, case
 * and pathname expansion. `*` any string, `?` any character, `[...]` a bracket expression
 * (`!` or `^` negates, `a-z` ranges), `\c` the character c itself. The expander escapes
 * quoted characters with a backslash, so "*" in quotes matches only a star.
 */
#ifndef CGWB_SHELL_PATTERN_H
#define CGWB_SHELL_PATTERN_H

#include <cgwb/types.h>

/* Does the whole of s[0..len) match pat (NUL-terminated)? */
bool sh_pattern_match(const char *pat, const char *s, size_t len);
/* Does pat contain an unescaped * ? or [...] (is it a pattern at all)? */
bool sh_pattern_has_magic(const char *pat);
/* Remove the backslashes that escape characters: what a pattern means as plain text. */
void sh_pattern_unescape(char *pat);

#endif
