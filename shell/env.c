/* Shell state: variables and special parameters, copies for subshells, messages. */
#include <cgwb/sched.h>
#include <cgwb/file.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include "internal.h"
#include "jobs.h"
#include "lang/expand.h"

static const char *special_param(struct shell *sh, char c)
{
	switch (c) {
	case '?':
		snprintf(sh->param, sizeof(sh->param), "%d", sh->status);
		return sh->param;
	case '$':
		snprintf(sh->param, sizeof(sh->param), "%d", sh->pid);
		return sh->param;
	case '!':
		if (!sh->last_bg_pid)
			return NULL;
		snprintf(sh->param, sizeof(sh->param), "%d", sh->last_bg_pid);
		return sh->param;
	case '0':
		return SH_NAME;
	case '-':
		return sh->interactive ? "i" : "";
	}
	return NULL;
}

static const char *env_get(struct sh_env *env, const char *name)
{
	struct shell *sh = container_of(env, struct shell, env);

	if (!sh_is_name_start(name[0]))
		return name[1] ? NULL : special_param(sh, name[0]);
	return sh_var_get(&sh->vars, name);
}

static int env_set(struct sh_env *env, const char *name, const char *value)
{
	struct shell *sh = container_of(env, struct shell, env);

	return sh_var_set(&sh->vars, name, value, 0);
}

static int env_subst(struct sh_env *env, const char *src, size_t len, struct strbuf *out)
{
	return sh_command_subst(container_of(env, struct shell, env), src, len, out);
}

static const struct sh_env_ops shell_env_ops = {
	.get = env_get,
	.set = env_set,
	.subst = env_subst,
	.glob = sh_glob,
};

struct shell *shell_alloc(void)
{
	struct shell *sh = kzalloc(sizeof(*sh), GFP_KERNEL);

	if (!sh)
		return NULL;
	sh->env.ops = &shell_env_ops;
	sh->env.subst_status = -1;
	sh->task = current;
	sh->pid = current->pid;
	INIT_LIST_HEAD(&sh->jobs);
	/* as in sh, IFS starts as space, tab, newline: old_ifs=$IFS ... IFS=$old_ifs works */
	if (sh_var_set(&sh->vars, "IFS", SH_IFS_DEFAULT, 0)) {
		shell_free(sh);
		return NULL;
	}
	return sh;
}

/* A subshell: the same variables, functions and parameters, none of the jobs. */
struct shell *shell_clone(const struct shell *parent)
{
	struct shell *sh = shell_alloc();

	if (!sh)
		return NULL;
	if (sh_vars_copy(&sh->vars, &parent->vars) || sh_funcs_copy(sh, parent) ||
	    sh_args_set(&sh->env, parent->env.argc, parent->env.argv)) {
		shell_free(sh);
		return NULL;
	}
	if (!sh_var_get(&parent->vars, "IFS"))
		sh_var_unset(&sh->vars, "IFS");
	sh->status = parent->status;
	sh->pid = parent->pid;
	sh->last_bg_pid = parent->last_bg_pid;
	sh->func_depth = parent->func_depth; /* `return` works in ( ... ) inside a function */
	return sh;
}

void shell_free(struct shell *sh)
{
	if (!sh)
		return;
	jobs_free(sh);
	sh_vars_free(&sh->vars);
	sh_funcs_free(sh);
	sh_args_free(&sh->env);
	kfree(sh);
}

struct shell *current_shell(void)
{
	return current->shell;
}

void shell_msg(struct file *f, const char *fmt, ...)
{
	char buf[192];
	va_list ap;
	int n = scnprintf(buf, sizeof(buf) - 1, SH_NAME ": ");

	va_start(ap, fmt);
	n += vscnprintf(buf + n, sizeof(buf) - 1 - (size_t)n, fmt, ap);
	va_end(ap);
	buf[n++] = '\n';
	file_write_all(f ? f : current->files[2], buf, (size_t)n);
}

int sh_expansion_failed(struct shell *sh, struct file *err)
{
	shell_msg(err, "%s", sh->env.err);
	if (!sh->interactive) {
		/* as in sh: a script cannot go on with a word it could not expand */
		sh->exiting = true;
		sh->exit_status = 2;
	}
	return 2;
}

int sh_expand_words(struct shell *sh, const struct sh_word *w, struct strv *argv)
{
	for (; w; w = w->next)
		if (sh_expand_fields(&sh->env, w->text, argv))
			return sh_expansion_failed(sh, NULL);
	return 0;
}

int sh_assign(struct shell *sh, const struct sh_word *w)
{
	for (; w; w = w->next) {
		size_t n = sh_assignment_name_len(w->text, strlen(w->text));
		char name[64], *value;
		int err;

		if (n >= sizeof(name)) {
			shell_msg(NULL, "%.20s...: name too long", w->text);
			return 1;
		}
		memcpy(name, w->text, n);
		name[n] = '\0';
		if (sh_expand_string(&sh->env, w->text + n + 1, &value))
			return sh_expansion_failed(sh, NULL);
		err = sh_var_set(&sh->vars, name, value, 0);
		kfree(value);
		if (err) {
			shell_msg(NULL, "%s: %s", name, errstr(err));
			return 1;
		}
	}
	return 0;
}

bool sh_unwinding(const struct shell *sh)
{
	return sh->breaks || sh->continues || sh->returning || sh->exiting ||
	       READ_ONCE(sh->interrupted) || (!sh->console && signal_pending(current));
}
