/* Line input for the text filters. */
#include <cgwb/shell.h>
#include <cgwb/sched.h>
#include <cgwb/file.h>
#include <cgwb/fs.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include "textio.h"
#include "internal.h"

#define TEXT_IN_BUF 4096

int text_in_open(struct text_in *in, const char *cmd, const char *name)
{
	memset(in, 0, sizeof(*in));
	in->owned = name && strcmp(name, "-");
	in->f = in->owned ? filp_open(name, O_RDONLY, 0) : current->files[0];
	if (!in->f)
		in->f = ERR_PTR(-EBADF);
	if (!IS_ERR(in->f))
		in->buf = kmalloc(TEXT_IN_BUF, GFP_KERNEL);
	if (IS_ERR(in->f) || !in->buf) {
		int err = IS_ERR(in->f) ? (int)PTR_ERR(in->f) : -ENOMEM;

		text_in_close(in);
		return sh_operand_error(cmd, NULL, name ? name : "-", err);
	}
	return 0;
}

static int fill(struct text_in *in)
{
	ssize_t n;

	if (signal_pending(current))
		return -EINTR;
	n = file_read(in->f, in->buf, TEXT_IN_BUF);
	if (n < 0)
		return (int)n;
	in->eof = n == 0;
	in->len = (size_t)n;
	in->pos = 0;
	return 0;
}

int text_in_line(struct text_in *in, const char **line, size_t *len)
{
	sb_truncate(&in->line, 0);
	for (;;) {
		int err;

		if (in->pos < in->len) {
			const char *start = in->buf + in->pos;
			const char *nl = memchr(start, '\n', in->len - in->pos);
			size_t n = nl ? (size_t)(nl - start) : in->len - in->pos;

			sb_addn(&in->line, start, n);
			in->pos += n + (nl != NULL);
			if (nl)
				break;
			continue;
		}
		if (in->eof) {
			if (!in->line.len)
				return 0;
			break;
		}
		err = fill(in);
		if (err)
			return err;
		if (in->eof && !in->line.len)
			return 0;
	}
	if (in->line.failed)
		return -ENOMEM;
	*line = sb_str(&in->line);
	*len = in->line.len;
	return 1;
}

ssize_t text_in_read(struct text_in *in, char *buf, size_t len)
{
	return file_read(in->f, buf, len);
}

void text_in_close(struct text_in *in)
{
	if (in->owned && !IS_ERR_OR_NULL(in->f))
		fput(in->f);
	kfree(in->buf);
	sb_release(&in->line);
	in->f = NULL;
	in->buf = NULL;
}

int text_in_each_line(const char *cmd, const char *name, text_line_fn *fn, void *ctx)
{
	struct text_in in;
	const char *line;
	size_t len;
	int got;

	if (text_in_open(&in, cmd, name))
		return 1;
	while ((got = text_in_line(&in, &line, &len)) > 0) {
		got = fn(line, len, ctx);
		if (got)
			break;
	}
	text_in_close(&in);
	if (signal_pending(current))
		return SH_STATUS_KILLED;
	return got < 0 ? sh_operand_error(cmd, NULL, name ? name : "-", got) : 0;
}
