/*
 * The console line editor. Input is raw bytes from the UART; terminals send cursor keys as
 * escape sequences (ESC [ A, or ESC O A in application mode). Typing at the end of the line
 * only echoes, so a transcript of piped input stays plain text; edits elsewhere redraw the
 * line with a carriage return and an erase-to-end.
 */
#include <cgwb/errno.h>
#include <cgwb/string.h>
#include <cgwb/shell.h>
#include <cgwb/console.h>
#include "history.h"
#include "internal.h"
#include "jobs.h"
#include "lineedit.h"

#define LE_LINE_MAX LINEEDIT_LINE_MAX
#define CTRL(c) ((c)&0x1f)
#define ESC 0x1b

enum {
	KEY_NONE = 0x100,
	KEY_UP,
	KEY_DOWN,
	KEY_LEFT,
	KEY_RIGHT,
	KEY_HOME,
	KEY_END,
	KEY_DELETE,
};

static struct {
	const char *prompt;
	char buf[LE_LINE_MAX];
	size_t len, pos;         /* pos: the cursor, 0..len */
	int browse;              /* history entry shown; 0: the line being typed */
	char typed[LE_LINE_MAX]; /* the line being typed, kept while browsing */
	bool skip_lf;            /* the last Enter was "\r": a "\n" next is part of it */
	bool too_long;           /* a key was refused for room: the line is not run */
} le;

static void outs(const char *s)
{
	console_write(s, strlen(s));
}

static int getc_raw(void)
{
	for (;;) {
		int c = console_getc();

		if (c >= 0)
			return c;
		shell_flush_kill(); /* a kill aimed at the console shell: it has nothing to stop */
	}
}

static int read_escape(void)
{
	int c = getc_raw(), param = 0;

	if (c != '[' && c != 'O')
		return KEY_NONE;
	while (c = getc_raw(), (c >= '0' && c <= '9') || c == ';')
		if (c != ';' && param < 100)
			param = param * 10 + (c - '0');
	switch (c) {
	case 'A':
		return KEY_UP;
	case 'B':
		return KEY_DOWN;
	case 'C':
		return KEY_RIGHT;
	case 'D':
		return KEY_LEFT;
	case 'H':
		return KEY_HOME;
	case 'F':
		return KEY_END;
	case '~':
		if (param == 1 || param == 7)
			return KEY_HOME;
		if (param == 4 || param == 8)
			return KEY_END;
		return param == 3 ? KEY_DELETE : KEY_NONE;
	}
	return KEY_NONE;
}

static int read_key(void)
{
	int c = getc_raw();

	if (le.skip_lf) {
		le.skip_lf = false;
		if (c == '\n')
			c = getc_raw();
	}
	return c == ESC ? read_escape() : c;
}

static void refresh(void)
{
	char back[24];

	console_write("\r", 1);
	outs(le.prompt);
	console_write(le.buf, le.len);
	outs("\x1b[K");
	if (le.pos < le.len) {
		snprintf(back, sizeof(back), "\x1b[%zuD", le.len - le.pos);
		outs(back);
	}
}

static void move_to(size_t pos)
{
	if (pos < le.pos) {
		while (le.pos > pos) {
			console_write("\b", 1);
			le.pos--;
		}
	} else {
		console_write(le.buf + le.pos, pos - le.pos);
		le.pos = pos;
	}
}

static void insert(char c)
{
	if (le.len >= LE_LINE_MAX - 1) {
		le.too_long = true;
		return;
	}
	memmove(le.buf + le.pos + 1, le.buf + le.pos, le.len - le.pos);
	le.buf[le.pos++] = c;
	le.len++;
	if (le.pos == le.len)
		console_write(&c, 1);
	else
		refresh();
}

static void delete_range(size_t from, size_t to)
{
	if (from >= to)
		return;
	if (to == le.len && le.pos == le.len && to - from == 1) {
		console_write("\b \b", 3);
	} else {
		memmove(le.buf + from, le.buf + to, le.len - to);
		le.pos = from;
		le.len -= to - from;
		refresh();
		return;
	}
	le.pos = from;
	le.len = from;
}

static void delete_word_back(void)
{
	size_t from = le.pos;

	while (from && le.buf[from - 1] == ' ')
		from--;
	while (from && le.buf[from - 1] != ' ')
		from--;
	delete_range(from, le.pos);
}

static void set_line(const char *s)
{
	le.len = min(strlen(s), (size_t)LE_LINE_MAX - 1);
	memcpy(le.buf, s, le.len);
	le.pos = le.len;
	refresh();
}

/* Up (older, +1) and Down (newer, -1) through the history. */
static void history_move(int dir)
{
	int n = le.browse + dir;

	if (n < 0 || n > history_count())
		return;
	if (!le.browse) {
		memcpy(le.typed, le.buf, le.len);
		le.typed[le.len] = '\0';
	}
	le.browse = n;
	set_line(n ? history_back(n) : le.typed);
}

struct completion {
	const char *prefix;
	size_t plen;
	int count;
	const char *first;
	size_t common; /* length shared by every match */
	bool list;
};

static void match_cmd(const struct shell_cmd *cmd, void *arg)
{
	struct completion *c = arg;
	size_t i = 0;

	if (strncmp(cmd->name, c->prefix, c->plen))
		return;
	if (c->list) {
		outs("  ");
		outs(cmd->name);
		return;
	}
	if (!c->count++) {
		c->first = cmd->name;
		c->common = strlen(cmd->name);
		return;
	}
	while (i < c->common && c->first[i] == cmd->name[i])
		i++;
	c->common = i;
}

/* Tab: complete a command name (the first word), or list the candidates. */
static void complete(void)
{
	struct completion c = { 0 };
	size_t start = 0;

	while (start < le.pos && le.buf[start] == ' ')
		start++;
	if (memchr(le.buf + start, ' ', le.pos - start))
		return;
	c.prefix = le.buf + start;
	c.plen = le.pos - start;
	shell_for_each_cmd(match_cmd, &c);
	if (!c.count)
		return;
	if (c.common > c.plen || c.count == 1) {
		for (size_t i = c.plen; i < c.common; i++)
			insert(c.first[i]);
		if (c.count == 1)
			insert(' ');
		return;
	}
	outs("\n");
	c.list = true;
	shell_for_each_cmd(match_cmd, &c);
	outs("\n");
	refresh();
}

/* Cursor movement and history (emacs keys too); false if c is not one of them. */
static bool motion_key(int c)
{
	switch (c) {
	case CTRL('A'):
	case KEY_HOME:
		move_to(0);
		return true;
	case CTRL('E'):
	case KEY_END:
		move_to(le.len);
		return true;
	case CTRL('B'):
	case KEY_LEFT:
		move_to(le.pos ? le.pos - 1 : 0);
		return true;
	case CTRL('F'):
	case KEY_RIGHT:
		move_to(min(le.pos + 1, le.len));
		return true;
	case CTRL('P'):
	case KEY_UP:
		history_move(1);
		return true;
	case CTRL('N'):
	case KEY_DOWN:
		history_move(-1);
		return true;
	}
	return false;
}

static void edit_key(int c)
{
	switch (c) {
	case CTRL('D'): /* on an empty line: ignored, the console shell never logs out */
	case KEY_DELETE:
		delete_range(le.pos, min(le.pos + 1, le.len));
		break;
	case 0x7f:
	case CTRL('H'):
		delete_range(le.pos ? le.pos - 1 : 0, le.pos);
		break;
	case CTRL('U'):
		delete_range(0, le.pos);
		break;
	case CTRL('K'):
		delete_range(le.pos, le.len);
		break;
	case CTRL('W'):
		delete_word_back();
		break;
	case CTRL('L'):
		outs("\x1b[H\x1b[2J");
		refresh();
		break;
	case '\t':
		complete();
		break;
	default:
		if (c >= 0x20 && c < 0x100 && c != 0x7f)
			insert((char)c);
	}
}

/* One key: 1 for Enter, -EINTR for Ctrl-C, 0 to go on. */
static int handle_key(int c)
{
	switch (c) {
	case '\r':
		le.skip_lf = true;
		/* fallthrough */
	case '\n':
		console_write("\n", 1);
		return 1;
	case CTRL('C'):
		outs("^C\n");
		return -EINTR;
	}
	if (!motion_key(c))
		edit_key(c);
	return 0;
}

int lineedit_read(const char *prompt, const char **line)
{
	int r;

	le.prompt = prompt;
	le.len = 0;
	le.pos = 0;
	le.browse = 0;
	le.too_long = false;
	outs(prompt);
	while (!(r = handle_key(read_key())))
		;
	le.buf[le.len] = '\0';
	if (r < 0)
		return r;
	if (le.too_long)
		return -E2BIG; /* running what is left of it could do anything: refused whole */
	history_add(le.buf);
	*line = le.buf;
	return 0;
}
