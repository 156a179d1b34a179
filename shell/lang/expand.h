/*
 * Word expansion, in POSIX order: parameter expansion ($x ${x} ${x:-w} ${x:=w} ${x:+w}
 * ${x:?w} ${#x} and the colon-less forms, ${x%pat} ${x%%pat} ${x#pat} ${x##pat} with sh
 * patterns (pattern.h), specials $? $$ $! $# $0..$9), command substitution
 * ($(...) and `...`, trailing newlines removed), arithmetic ($((...))), then field splitting
 * of unquoted results on IFS (blanks if unset), then pathname expansion (through the env's
 * glob op), then quote removal. No tilde expansion.
 */
#ifndef CGWB_SHELL_EXPAND_H
#define CGWB_SHELL_EXPAND_H

#include "env.h"
#include "strbuf.h"

/* Field separators when IFS is unset. */
#define SH_IFS_DEFAULT " \t\n"

/* Nested expansions (${x:-${y:-...}}) go at most this deep. */
#define SH_EXPAND_MAX_DEPTH 8

/* Append the fields of a raw word to out: 0, or -errno with env->err set. */
int sh_expand_fields(struct sh_env *env, const char *word, struct strv *out);
/* Expand a raw word to one string, without field splitting (assignment values, file names). */
int sh_expand_string(struct sh_env *env, const char *word, char **out);
/* A here-document's body: expanded as between double quotes, but " stays itself. */
int sh_expand_heredoc(struct sh_env *env, const char *body, char **out);
/* Expand a raw word to an sh pattern (pattern.h): its quoted characters are escaped. */
int sh_expand_pattern(struct sh_env *env, const char *word, char **out);

#endif
