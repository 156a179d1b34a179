/*
 * The standard files of a command: copies of the shell's, changed by pipes and
 * redirections. The shell's own task holds the current set; a command in the shell's task
 * (a special command, a loop with "> file") gets its set installed for its duration.
 */
#include <cgwb/sched.h>
#include <cgwb/fs.h>
#include <cgwb/errno.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/bug.h>
#include "internal.h"
#include "lang/expand.h"

void files_from_current(struct sh_files *fs)
{
	for (int fd = 0; fd < SH_NFILES; fd++) {
		struct file *f = current->files[fd];

		fs->f[fd] = f ? get_file(f) : NULL;
	}
}

void files_copy(struct sh_files *dst, const struct sh_files *src)
{
	for (int fd = 0; fd < SH_NFILES; fd++)
		dst->f[fd] = src->f[fd] ? get_file(src->f[fd]) : NULL;
}

void files_put(struct sh_files *fs)
{
	for (int fd = 0; fd < SH_NFILES; fd++) {
		fput(fs->f[fd]);
		fs->f[fd] = NULL;
	}
}

void files_replace(struct sh_files *fs, int fd, struct file *file)
{
	fput(fs->f[fd]);
	fs->f[fd] = file;
}

void files_install(struct sh_files *fs, struct sh_files *saved)
{
	for (int fd = 0; fd < SH_NFILES; fd++) {
		saved->f[fd] = current->files[fd];
		current->files[fd] = fs->f[fd];
		fs->f[fd] = NULL;
	}
}

void files_restore(struct sh_files *saved)
{
	for (int fd = 0; fd < SH_NFILES; fd++) {
		struct file *f = current->files[fd];

		current->files[fd] = saved->f[fd];
		saved->f[fd] = NULL;
		fput(f);
	}
}

/* n>&m, n<&m: share fd m's file; "-" closes n. */
static struct file *dup_target(const char *target, const struct sh_files *fs, int *err)
{
	int src;

	if (kstrtoint(target, 10, &src) || src < 0 || src >= SH_NFILES || !fs->f[src]) {
		*err = -EBADF;
		return NULL;
	}
	return get_file(fs->f[src]);
}

static const unsigned int open_flags[] = {
	[REDIR_IN] = O_RDONLY,
	[REDIR_OUT] = O_WRONLY | O_CREAT | O_TRUNC,
	[REDIR_APPEND] = O_WRONLY | O_CREAT | O_APPEND,
	[REDIR_RDWR] = O_RDWR | O_CREAT,
};

static int redirect_one(const struct sh_redir *r, const char *target, struct sh_files *fs)
{
	struct file *file = NULL;
	int err = 0;

	if (r->fd < 0 || r->fd >= SH_NFILES) {
		shell_msg(fs->f[2], "%d: bad file descriptor", r->fd);
		return 1;
	}
	if (r->type == REDIR_DUP_IN || r->type == REDIR_DUP_OUT) {
		if (strcmp(target, "-"))
			file = dup_target(target, fs, &err);
	} else {
		file = filp_open(target, open_flags[r->type], 0644);
		if (IS_ERR(file)) {
			err = (int)PTR_ERR(file);
			file = NULL;
		}
	}
	if (err) {
		shell_msg(fs->f[2], "%s: %s", target, errstr(err));
		return 1;
	}
	files_replace(fs, r->fd, file);
	return 0;
}

/* <<: the body, expanded unless its delimiter was quoted, read from a memory file. */
static int redirect_heredoc(struct shell *sh, const struct sh_redir *r, struct sh_files *fs)
{
	char *text = NULL;
	struct file *file;

	if (WARN_ON_ONCE(!r->body))
		return 1; /* the parser gives every << its body */
	if (!r->literal && sh_expand_heredoc(&sh->env, r->body->text, &text))
		return sh_expansion_failed(sh, fs->f[2]);
	file = memfile_open(text ? text : r->body->text, strlen(text ? text : r->body->text));
	kfree(text);
	if (!file) {
		shell_msg(fs->f[2], "here-document: %s", errstr(-ENOMEM));
		return 1;
	}
	files_replace(fs, r->fd, file);
	return 0;
}

int sh_redirect(struct shell *sh, const struct sh_redir *r, struct sh_files *fs)
{
	for (; r; r = r->next) {
		char *target;
		int status;

		if (r->type == REDIR_HEREDOC || r->type == REDIR_HEREDOC_STRIP) {
			status = redirect_heredoc(sh, r, fs);
			if (status)
				return status;
			continue;
		}
		if (sh_expand_string(&sh->env, r->target->text, &target))
			return sh_expansion_failed(sh, fs->f[2]);
		status = redirect_one(r, target, fs);
		kfree(target);
		if (status)
			return status;
	}
	return 0;
}
