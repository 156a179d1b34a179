/*
 * What the language core needs from the shell that runs it: variables (including the
 * special parameters ? $ ! 0), positional parameters and command substitution. The kernel's shell implements
 * these with tasks; the host unit tests with plain tables.
 */
#ifndef CGWB_SHELL_ENV_H
#define CGWB_SHELL_ENV_H

#include <cgwb/types.h>

struct sh_env;
struct strbuf;
struct strv;

struct sh_env_ops {
	/* A variable's or special parameter's value; NULL if unset. Valid until the next call. */
	const char *(*get)(struct sh_env *env, const char *name);
	int (*set)(struct sh_env *env, const char *name, const char *value);
	/* Run src as a command, appending its output to out; returns its exit status or -errno. */
	int (*subst)(struct sh_env *env, const char *src, size_t len, struct strbuf *out);
	/* Pathname expansion: append the paths matching pattern (pattern.h), sorted; returns
	 * how many (0: the word stays as it is). NULL: no pathname expansion. */
	int (*glob)(struct sh_env *env, const char *pattern, struct strv *out);
};

struct sh_env {
	const struct sh_env_ops *ops;
	/* Positional parameters: argv[0] is $1. The shell owns them (a function call or
	 * `sh FILE ARG...` sets them); the expander answers $1.. $# $@ $* from here. */
	int argc;
	char **argv;
	char num[24];     /* $# formatted */
	char err[128];    /* why the last expansion failed */
	int subst_status; /* exit status of the last command substitution, -1 if none */
};

#endif
