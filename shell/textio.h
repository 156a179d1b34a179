/*
 * Line input for the text filters (tail, cut, tr, sort, uniq, xargs): FILE or standard
 * input ("-" or none), read in blocks and handed out a line at a time.
 */
#ifndef CGWB_SHELL_TEXTIO_H
#define CGWB_SHELL_TEXTIO_H

#include <cgwb/types.h>
#include "lang/strbuf.h"

struct file;

struct text_in {
	struct file *f;
	bool owned; /* opened here: closed by text_in_close() */
	char *buf;
	size_t len, pos; /* bytes in buf, and the next one to hand out */
	bool eof;
	struct strbuf line; /* the line handed out last */
};

/* 0, or status 1 after "cmd: name: error" (coreutils' message). */
int text_in_open(struct text_in *in, const char *cmd, const char *name);
/*
 * The next line without its '\n' (a last line without one counts too): 1 and *line
 * (valid until the next call), 0 at the end, -errno. A kill stops it with -EINTR.
 */
int text_in_line(struct text_in *in, const char **line, size_t *len);
/* Raw bytes as they come (tail -f): >0, 0 at the end for now, -errno. */
ssize_t text_in_read(struct text_in *in, char *buf, size_t len);
void text_in_close(struct text_in *in);
/* What a command does with one line (without its '\n'): 0 to go on, or -errno to stop. */
typedef int text_line_fn(const char *line, size_t len, void *ctx);
/*
 * Each line of name ("-" or NULL: standard input) to fn: 0, or status 1 after "cmd: name:
 * error" when it cannot be opened or read or fn stops it; SH_STATUS_KILLED, without a
 * message, when a kill stops it.
 */
int text_in_each_line(const char *cmd, const char *name, text_line_fn *fn, void *ctx);

#endif
