/*
 * `read` splitting (portable): POSIX field splitting on IFS, except that the last name
 * takes the rest of the line. A quoted character (backslash, without -r) is never a
 * separator: whether each output byte was quoted is kept while splitting.
 */
#include <cgwb/errno.h>
#include <cgwb/string.h>
#include "read.h"

static bool is_white(const char *ifs, char c)
{
	return (c == ' ' || c == '\t' || c == '\n') && strchr(ifs, c);
}

/* Take one character at *i: its value, and whether a backslash quoted it. */
static char take(const char *line, size_t *i, bool raw, bool *quoted)
{
	*quoted = !raw && line[*i] == '\\' && line[*i + 1];
	*i += *quoted;
	return line[(*i)++];
}

static void skip_white(const char *line, const char *ifs, size_t *i)
{
	while (line[*i] && is_white(ifs, line[*i]))
		(*i)++;
}

/* One field, up to an unquoted IFS character; moves past the separator. */
static char *next_field(const char *line, const char *ifs, bool raw, size_t *i)
{
	struct strbuf sb = STRBUF_INIT;

	while (line[*i]) {
		bool quoted;
		size_t at = *i;
		char c = take(line, i, raw, &quoted);

		if (!quoted && c && strchr(ifs, c)) {
			*i = at;
			break;
		}
		sb_addc(&sb, c);
	}
	skip_white(line, ifs, i);
	if (line[*i] && strchr(ifs, line[*i]) && !is_white(ifs, line[*i])) {
		(*i)++;
		skip_white(line, ifs, i);
	}
	return sb_detach(&sb);
}

/* The rest of the line, its trailing unquoted IFS white space removed. */
static char *rest_of_line(const char *line, const char *ifs, bool raw, size_t i)
{
	struct strbuf sb = STRBUF_INIT;
	size_t keep = 0;

	while (line[i]) {
		bool quoted;
		char c = take(line, &i, raw, &quoted);

		sb_addc(&sb, c);
		if (quoted || !is_white(ifs, c))
			keep = sb.len;
	}
	sb_truncate(&sb, keep);
	return sb_detach(&sb);
}

int sh_read_split(const char *line, const char *ifs, bool raw, int n, struct strv *out)
{
	size_t i = 0;

	skip_white(line, ifs, &i);
	for (int k = 0; k < n; k++)
		strv_push(out, k < n - 1 ? next_field(line, ifs, raw, &i) :
					   rest_of_line(line, ifs, raw, i));
	return out->failed ? -ENOMEM : 0;
}
