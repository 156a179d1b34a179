/*
 * Shell functions and positional parameters.
 *
 * A definition keeps the source text of its body, not a tree: each call parses it again,
 * as a subshell does, so nothing is shared between a shell and its subshells (a clone
 * copies the texts) and a definition outlives the line that made it.
 *
 * A call runs in the caller's shell and task: it sees and changes the caller's variables.
 * It saves the positional parameters and sets $1... to its arguments; `local` saves a
 * variable's value in a frame of the call, restored when the call returns; `return` stops
 * the body like `break` stops a loop (sh->returning, seen by sh_unwinding()).
 *
 * NAME=value before a function or a builtin (`IFS=: read a b`) is saved the same way and
 * given back when it ends; before a command task it has no effect (no environments).
 */
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include <cgwb/shell.h>
#include "internal.h"
#include "lang/lexer.h"

struct sh_func {
	struct sh_func *next;
	char *src; /* the body: a compound command */
	size_t len;
	char name[];
};

/* A variable's value before `local` (value NULL: it was unset), for one call level. */
struct sh_local {
	struct sh_local *next;
	int depth; /* sh->func_depth of the call that made it local */
	char *value;
	char name[];
};

struct sh_func *sh_func_find(const struct shell *sh, const char *name)
{
	for (struct sh_func *f = sh->funcs; f; f = f->next)
		if (!strcmp(f->name, name))
			return f;
	return NULL;
}

static void func_free(struct sh_func *f)
{
	kfree(f->src);
	kfree(f);
}

int sh_func_define(struct shell *sh, const char *name, const char *src, size_t len)
{
	struct sh_func *f = kzalloc(sizeof(*f) + strlen(name) + 1, GFP_KERNEL);
	struct sh_func **pp;

	if (!f || !(f->src = kstrndup(src, len, GFP_KERNEL))) {
		kfree(f);
		shell_msg(NULL, "%s: out of memory", name);
		return 1;
	}
	f->len = len;
	memcpy(f->name, name, strlen(name) + 1);
	/* A new definition replaces the old one in place. */
	for (pp = &sh->funcs; *pp; pp = &(*pp)->next) {
		if (!strcmp((*pp)->name, name)) {
			f->next = (*pp)->next;
			func_free(*pp);
			*pp = f;
			return 0;
		}
	}
	*pp = f;
	return 0;
}

void sh_funcs_free(struct shell *sh)
{
	while (sh->funcs) {
		struct sh_func *f = sh->funcs;

		sh->funcs = f->next;
		func_free(f);
	}
}

int sh_funcs_copy(struct shell *dst, const struct shell *src)
{
	for (const struct sh_func *f = src->funcs; f; f = f->next)
		if (sh_func_define(dst, f->name, f->src, f->len))
			return -ENOMEM;
	return 0;
}

void sh_args_free(struct sh_env *env)
{
	for (int i = 0; i < env->argc; i++)
		kfree(env->argv[i]);
	kfree(env->argv);
	env->argv = NULL;
	env->argc = 0;
}

int sh_args_set(struct sh_env *env, int argc, char *const *argv)
{
	char **v = kcalloc((size_t)argc + 1, sizeof(*v), GFP_KERNEL);

	if (!v)
		return -ENOMEM;
	for (int i = 0; i < argc; i++) {
		v[i] = kstrdup(argv[i], GFP_KERNEL);
		if (!v[i]) {
			while (i--)
				kfree(v[i]);
			kfree(v);
			return -ENOMEM;
		}
	}
	sh_args_free(env);
	env->argv = v;
	env->argc = argc;
	return 0;
}

/* Save name's value on *list, marked with depth: 0 or -ENOMEM. */
static int save_var(struct shell *sh, struct sh_local **list, const char *name, int depth)
{
	const char *old = sh_var_get(&sh->vars, name);
	struct sh_local *l = kzalloc(sizeof(*l) + strlen(name) + 1, GFP_KERNEL);

	if (!l || (old && !(l->value = kstrdup(old, GFP_KERNEL)))) {
		kfree(l);
		return -ENOMEM;
	}
	l->depth = depth;
	memcpy(l->name, name, strlen(name) + 1);
	l->next = *list;
	*list = l;
	return 0;
}

/* Give back the saved values of depth (newest first, so the oldest value wins). */
static void restore_vars(struct shell *sh, struct sh_local **list, int depth)
{
	while (*list && (*list)->depth == depth) {
		struct sh_local *l = *list;

		*list = l->next;
		if (l->value)
			sh_var_set(&sh->vars, l->name, l->value, 0);
		else
			sh_var_unset(&sh->vars, l->name);
		kfree(l->value);
		kfree(l);
	}
}

int sh_local(struct shell *sh, const char *name)
{
	for (struct sh_local *l = sh->locals; l && l->depth == sh->func_depth; l = l->next)
		if (!strcmp(l->name, name))
			return 0; /* already local to this call */
	return save_var(sh, &sh->locals, name, sh->func_depth);
}

static void locals_restore(struct shell *sh)
{
	restore_vars(sh, &sh->locals, sh->func_depth);
}

int sh_assign_push(struct shell *sh, const struct sh_word *w, struct sh_local **saved)
{
	*saved = NULL;
	for (const struct sh_word *a = w; a; a = a->next) {
		size_t n = sh_assignment_name_len(a->text, strlen(a->text));
		char name[64];

		if (n >= sizeof(name))
			break; /* sh_assign() reports it */
		memcpy(name, a->text, n);
		name[n] = '\0';
		if (save_var(sh, saved, name, 0)) {
			sh_assign_pop(sh, saved);
			shell_msg(NULL, "%s: out of memory", name);
			return 1;
		}
	}
	return sh_assign(sh, w);
}

void sh_assign_pop(struct shell *sh, struct sh_local **saved)
{
	restore_vars(sh, saved, 0);
}

int sh_func_call(struct shell *sh, const struct sh_func *f, int argc, char **argv, struct sh_files *fs)
{
	int saved_argc = sh->env.argc;
	char **saved_argv = sh->env.argv;
	struct sh_files saved;
	char *src;
	int status;

	/* The body may redefine the function: run a copy of its text. */
	src = kstrndup(f->src, f->len, GFP_KERNEL);
	sh->env.argc = 0;
	sh->env.argv = NULL;
	if (!src || sh_args_set(&sh->env, argc - 1, argv + 1)) {
		kfree(src);
		sh->env.argc = saved_argc;
		sh->env.argv = saved_argv;
		shell_msg(fs->f[2], "%s: out of memory", argv[0]);
		return 1;
	}
	sh->func_depth++;
	files_install(fs, &saved);
	status = shell_run_script(sh, src, strlen(src));
	files_restore(&saved);
	locals_restore(sh);
	sh->func_depth--;
	sh->returning = false;
	sh_args_free(&sh->env);
	sh->env.argc = saved_argc;
	sh->env.argv = saved_argv;
	kfree(src);
	return status;
}
