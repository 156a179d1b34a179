/*
 * Pathname expansion (the glob op of the shell's sh_env): the paths matching an sh
 * pattern, one directory level per pattern component. A component without * ? [ is
 * appended as it is; one with them is matched against the names of each directory
 * reached so far (names starting with '.' only by a pattern starting with '.').
 * Results are sorted per directory, so the whole list is sorted as sh sorts it.
 */
#include <cgwb/fs.h>
#include <cgwb/file.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include "internal.h"
#include "lang/pattern.h"

/* A bound on the paths one word expands to: a pattern of many levels must not fill memory. */
#define GLOB_MAX_PATHS 4096

struct glob_dir {
	struct dir_context ctx;
	const char *dir; /* as it goes into the result ("" for the working directory) */
	const char *pat; /* this component's pattern */
	struct strv *out;
};

static char *glob_join(const char *dir, const char *name, size_t len)
{
	const char *sep = !*dir || dir[strlen(dir) - 1] == '/' ? "" : "/";
	struct strbuf sb = STRBUF_INIT;

	sb_adds(&sb, dir);
	sb_adds(&sb, sep);
	sb_addn(&sb, name, len);
	return sb_detach(&sb);
}

static bool glob_actor(struct dir_context *ctx, const char *name, int namelen, loff_t off, u64 ino,
		       unsigned int type)
{
	struct glob_dir *g = container_of(ctx, struct glob_dir, ctx);
	size_t len = (size_t)namelen;

	if (name[0] == '.' && (g->pat[0] != '.' || len == 1 || (len == 2 && name[1] == '.')))
		return true;
	if (!sh_pattern_match(g->pat, name, len))
		return true;
	if (g->out->n >= GLOB_MAX_PATHS)
		return false;
	strv_push(g->out, glob_join(g->dir, name, len));
	return !g->out->failed;
}

/* The names in dir matching pat, appended to out and sorted. Unreadable dirs add none. */
static void glob_dir(const char *dir, const char *pat, struct strv *out)
{
	struct glob_dir g = { .ctx.actor = glob_actor, .dir = dir, .pat = pat, .out = out };
	struct file *f = filp_open(*dir ? dir : ".", O_RDONLY | O_DIRECTORY, 0);
	int from = out->n;

	if (IS_ERR(f))
		return;
	iterate_dir(f, &g.ctx);
	fput(f);
	strv_sort(out, from);
}

/* One pattern component applied to every path reached so far. */
static void glob_step(struct strv *paths, char *comp, bool last, struct strv *next)
{
	bool magic = sh_pattern_has_magic(comp);
	struct kstat st;

	if (!magic)
		sh_pattern_unescape(comp);
	for (int i = 0; i < paths->n && !next->failed; i++) {
		char *p;

		if (magic) {
			glob_dir(paths->v[i], comp, next);
			continue;
		}
		p = glob_join(paths->v[i], comp, strlen(comp));
		/* a plain last component must exist; one in the middle is checked by the next */
		if (p && last && vfs_lstat(p, &st)) {
			kfree(p);
			continue;
		}
		strv_push(next, p);
	}
}

int sh_glob(struct sh_env *env, const char *pattern, struct strv *out)
{
	struct strv paths = STRV_INIT;
	char *copy = kstrdup(pattern, GFP_KERNEL), *comp = copy;
	int n = 0;

	if (!copy)
		return 0;
	strv_push(&paths, kstrdup(pattern[0] == '/' ? "/" : "", GFP_KERNEL));
	while (comp && !paths.failed && paths.n) {
		char *slash = strchr(comp, '/');
		struct strv next = STRV_INIT;

		if (slash)
			*slash = '\0';
		if (*comp) { /* empty: a leading or doubled '/' */
			glob_step(&paths, comp, !slash || !slash[1], &next);
			strv_free(&paths);
			paths = next;
		}
		comp = slash ? slash + 1 : NULL;
	}
	if (!paths.failed) {
		for (int i = 0; i < paths.n; i++) {
			strv_push(out, paths.v[i]);
			paths.v[i] = NULL;
		}
		n = paths.n;
	}
	strv_free(&paths);
	kfree(copy);
	return n;
}
