/*
 * $((...)): POSIX shell arithmetic on 64-bit signed integers, with C's operators and
 * precedence: ( ) unary + - ! ~, * / %, + -, << >>, < <= > >=, == !=, &, ^, |, &&, ||, ?:,
 * and the assignments = += -= *= /= %= <<= >>= &= ^= |=. Overflow wraps.
 */
#ifndef CGWB_SHELL_ARITH_H
#define CGWB_SHELL_ARITH_H

#include "env.h"

/* Parentheses and unary operators nest at most this deep (the stack is small). */
#define SH_ARITH_MAX_DEPTH 12

/* 0 and *result, or -EINVAL with the reason in env->err (syntax, division by zero...). */
int sh_arith(struct sh_env *env, const char *expr, s64 *result);

#endif
