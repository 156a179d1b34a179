/* Shell variables: name -> value, kept sorted by name for `export` and `set` listings. */
#ifndef CGWB_SHELL_VARS_H
#define CGWB_SHELL_VARS_H

#include <cgwb/types.h>

#define SH_VAR_EXPORT 0x1

struct sh_var {
	struct sh_var *next;
	unsigned int flags;
	char *value;
	char name[];
};

struct sh_vars {
	struct sh_var *head;
};

/* NULL if unset. */
const char *sh_var_get(const struct sh_vars *vars, const char *name);
/* Set (copying value) and add flags; -EINVAL for a bad name, -ENOMEM. */
int sh_var_set(struct sh_vars *vars, const char *name, const char *value, unsigned int flags);
/* Mark for export (`export NAME`); an unset variable becomes set and empty. */
int sh_var_export(struct sh_vars *vars, const char *name);
void sh_var_unset(struct sh_vars *vars, const char *name);
int sh_vars_copy(struct sh_vars *dst, const struct sh_vars *src);
void sh_vars_free(struct sh_vars *vars);

#endif
