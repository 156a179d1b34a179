/* Shell variables (portable). */
#include <cgwb/errno.h>
#include <cgwb/string.h>
#include <cgwb/slab.h>
#include <cgwb/vmalloc.h>
#include "lexer.h"
#include "vars.h"

/* The link that points at name's entry, or where it would be inserted. */
static struct sh_var **var_slot(struct sh_vars *vars, const char *name)
{
	struct sh_var **pp = &vars->head;

	while (*pp && strcmp((*pp)->name, name) < 0)
		pp = &(*pp)->next;
	return pp;
}

static struct sh_var *var_find(const struct sh_vars *vars, const char *name)
{
	struct sh_var *v = *var_slot((struct sh_vars *)vars, name);

	return v && !strcmp(v->name, name) ? v : NULL;
}

const char *sh_var_get(const struct sh_vars *vars, const char *name)
{
	struct sh_var *v = var_find(vars, name);

	return v ? v->value : NULL;
}

static struct sh_var *var_create(struct sh_vars *vars, const char *name)
{
	struct sh_var **pp = var_slot(vars, name);
	size_t len = strlen(name);
	struct sh_var *v;

	if (*pp && !strcmp((*pp)->name, name))
		return *pp;
	v = kmalloc(sizeof(*v) + len + 1, GFP_KERNEL);
	if (!v)
		return NULL;
	memcpy(v->name, name, len + 1);
	v->flags = 0;
	v->value = NULL;
	v->next = *pp;
	*pp = v;
	return v;
}

/* A value may be megabytes (a command's output): not necessarily contiguous (kfree frees it). */
static char *var_value_dup(const char *value)
{
	size_t len = strlen(value) + 1;
	char *copy = kvmalloc(len, GFP_KERNEL);

	if (copy)
		memcpy(copy, value, len);
	return copy;
}

int sh_var_set(struct sh_vars *vars, const char *name, const char *value, unsigned int flags)
{
	struct sh_var *v;
	char *copy;

	if (!sh_is_name(name, strlen(name)))
		return -EINVAL;
	copy = var_value_dup(value);
	if (!copy)
		return -ENOMEM;
	v = var_create(vars, name);
	if (!v) {
		kfree(copy);
		return -ENOMEM;
	}
	kfree(v->value);
	v->value = copy;
	v->flags |= flags;
	return 0;
}

int sh_var_export(struct sh_vars *vars, const char *name)
{
	struct sh_var *v;

	if (!sh_is_name(name, strlen(name)))
		return -EINVAL;
	v = var_find(vars, name);
	if (!v)
		return sh_var_set(vars, name, "", SH_VAR_EXPORT);
	v->flags |= SH_VAR_EXPORT;
	return 0;
}

void sh_var_unset(struct sh_vars *vars, const char *name)
{
	struct sh_var **pp = var_slot(vars, name);
	struct sh_var *v = *pp;

	if (!v || strcmp(v->name, name))
		return;
	*pp = v->next;
	kfree(v->value);
	kfree(v);
}

int sh_vars_copy(struct sh_vars *dst, const struct sh_vars *src)
{
	for (const struct sh_var *v = src->head; v; v = v->next) {
		int err = sh_var_set(dst, v->name, v->value, v->flags);

		if (err)
			return err;
	}
	return 0;
}

void sh_vars_free(struct sh_vars *vars)
{
	struct sh_var *v = vars->head;

	while (v) {
		struct sh_var *next = v->next;

		kfree(v->value);
		kfree(v);
		v = next;
	}
	vars->head = NULL;
}
