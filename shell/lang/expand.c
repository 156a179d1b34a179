/* Word expansion and quote removal (portable). */
#include <cgwb/compiler.h>
#include <cgwb/errno.h>
#include <cgwb/string.h>
#include <cgwb/slab.h>
#include "lexer.h"
#include "arith.h"
#include "expand.h"
#include "pattern.h"

struct xp {
	struct sh_env *env;
	struct strbuf cur;   /* the field being built */
	struct strbuf pat;   /* the same as a pattern: quoted * ? [ ] \ escaped */
	bool magic;          /* an unquoted * ? [ is in it: pathname expansion */
	bool started;        /* the field exists, even if empty (quotes were seen) */
	struct strv *fields; /* NULL: build one string, no field splitting */
	bool split_literals; /* in the word of an unquoted ${x:-word}: its blanks split too */
	bool pattern;        /* building a pattern: quoted * ? [ ] \ are escaped */
	bool heredoc;        /* a here-document's body: " is an ordinary character */
	const char *ifs;     /* field separators (IFS, or blanks if it is unset) */
	bool after_white;    /* a field just ended at IFS white space */
	int depth;
	int err;
};

static __printf(2, 3) void xp_fail(struct xp *x, const char *fmt, ...)
{
	va_list ap;

	if (x->err)
		return;
	x->err = -EINVAL;
	va_start(ap, fmt);
	vsnprintf(x->env->err, sizeof(x->env->err), fmt, ap);
	va_end(ap);
}

/*
 * Text into the field. When building fields it goes into the field's pattern form too,
 * its quoted characters escaped, so pathname expansion knows a "*" from a *.
 */
static void put(struct xp *x, const char *s, size_t n, bool quoted)
{
	sb_addn(&x->cur, s, n);
	if (!x->fields)
		return;
	for (size_t i = 0; i < n; i++) {
		bool special = strchr("*?[]\\", s[i]) != NULL;

		if (quoted && special)
			sb_addc(&x->pat, '\\');
		else if (special && s[i] != ']' && s[i] != '\\')
			x->magic = true;
		sb_addc(&x->pat, s[i]);
	}
}

/* The field is complete: its pathname expansion if it is a pattern that matches. */
static void push_field(struct xp *x)
{
	int n = 0;

	if (x->magic && x->env->ops->glob && sh_pattern_has_magic(sb_str(&x->pat)))
		n = x->env->ops->glob(x->env, sb_str(&x->pat), x->fields);
	if (n > 0)
		sb_release(&x->cur);
	else
		strv_push(x->fields, sb_detach(&x->cur));
	sb_truncate(&x->pat, 0);
	x->magic = false;
}

static void add_literal(struct xp *x, const char *s, size_t n)
{
	put(x, s, n, false);
	x->started = true;
}

static bool is_ifs_white(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

/*
 * Split on IFS (POSIX "Field Splitting"): a run of IFS white space separates fields; any
 * other IFS character ends one, even an empty one, and the white space around it belongs
 * to it (IFS=: splits "a::b" into a, "", b).
 */
static void split_char(struct xp *x, char c)
{
	if (!strchr(x->ifs, c)) {
		put(x, &c, 1, false);
		x->started = true;
		x->after_white = false;
		return;
	}
	if (is_ifs_white(c)) {
		if (x->started) {
			push_field(x);
			x->started = false;
			x->after_white = true;
		}
		return;
	}
	if (x->started || !x->after_white)
		push_field(x);
	x->started = false;
	x->after_white = false;
}

/* Quoted text in a pattern matches itself: escape what would be special. */
static void add_pattern_quoted(struct xp *x, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (strchr("*?[]\\", s[i]))
			sb_addc(&x->cur, '\\');
		sb_addc(&x->cur, s[i]);
	}
	x->started = true;
}

/* The result of an expansion: split on blanks unless quoted (or building one string). */
static void add_expansion(struct xp *x, const char *s, size_t n, bool quoted)
{
	if (quoted && x->pattern) {
		add_pattern_quoted(x, s, n);
		return;
	}
	if (quoted || !x->fields) {
		put(x, s, n, quoted);
		x->started |= quoted;
		return;
	}
	for (size_t i = 0; i < n; i++)
		split_char(x, s[i]);
}

static int walk(struct xp *x, const char *s, size_t len);
static int walk_dquoted(struct xp *x, const char *s, size_t len);

/* Expand text to a string without splitting, in the same environment. */
static int expand_sub(struct xp *x, const char *s, size_t len, struct strbuf *out)
{
	struct xp sub = { .env = x->env, .depth = x->depth };

	walk(&sub, s, len);
	if (sub.err) {
		x->err = sub.err;
		sb_release(&sub.cur);
		return sub.err;
	}
	*out = sub.cur;
	return 0;
}

static void expand_arith(struct xp *x, const char *s, size_t len, bool quoted)
{
	struct strbuf text;
	char num[24];
	s64 v;
	int err;

	if (expand_sub(x, s, len, &text))
		return;
	err = text.failed ? -ENOMEM : sh_arith(x->env, sb_str(&text), &v);
	sb_release(&text);
	if (err) {
		x->err = err;
		return;
	}
	snprintf(num, sizeof(num), "%lld", v);
	add_expansion(x, num, strlen(num), quoted);
}

static void expand_command(struct xp *x, const char *s, size_t len, bool quoted)
{
	struct strbuf out = STRBUF_INIT;
	int status = x->env->ops->subst(x->env, s, len, &out);

	if (status < 0 || out.failed) {
		xp_fail(x, "command substitution failed: %s", errstr(status < 0 ? status : -ENOMEM));
	} else {
		x->env->subst_status = status;
		while (out.len && out.buf[out.len - 1] == '\n')
			out.len--;
		add_expansion(x, sb_str(&out), out.len, quoted);
	}
	sb_release(&out);
}

/* `...`: inside, a backslash quotes only $ ` and \ (the rest stays). */
static void expand_backquote(struct xp *x, const char *s, size_t len, size_t *pos, bool quoted)
{
	size_t end = *pos;
	struct strbuf cmd = STRBUF_INIT;

	if (sh_scan_backquote(s, len, &end)) {
		xp_fail(x, "unterminated `");
		return;
	}
	for (size_t i = *pos + 1; i < end - 1; i++) {
		if (s[i] == '\\' && i + 1 < end - 1 && strchr("$`\\", s[i + 1]))
			i++;
		sb_addc(&cmd, s[i]);
	}
	*pos = end;
	expand_command(x, sb_str(&cmd), cmd.len, quoted);
	sb_release(&cmd);
}

/* A parameter's value: positional ones and $# from env, the rest from the shell. */
static const char *lookup(struct xp *x, const char *name)
{
	struct sh_env *env = x->env;

	if (sh_is_digit(name[0]) && name[0] != '0') {
		u64 i;

		if (kstrtoull(name, 10, &i) || i > (u64)env->argc)
			return NULL;
		return env->argv[i - 1];
	}
	if (!strcmp(name, "#")) {
		snprintf(env->num, sizeof(env->num), "%d", env->argc);
		return env->num;
	}
	return env->ops->get(env, name);
}

/*
 * $@ and $*: the positional parameters. Quoted, "$@" keeps each one a field of its own
 * and "$*" joins them with a space; unquoted, both are split like any expansion.
 */
static void expand_all_args(struct xp *x, bool at, bool quoted)
{
	for (int i = 0; i < x->env->argc; i++) {
		const char *a = x->env->argv[i];

		if (i && quoted && at && x->fields) {
			push_field(x);
			x->started = true;
		} else if (i) {
			add_expansion(x, " ", 1, quoted);
		}
		add_expansion(x, a, strlen(a), quoted);
	}
}

static void expand_var(struct xp *x, const char *name, size_t len, bool quoted)
{
	char buf[64];
	const char *val;

	if (len == 1 && (name[0] == '@' || name[0] == '*')) {
		expand_all_args(x, name[0] == '@', quoted);
		return;
	}

	if (len >= sizeof(buf)) {
		xp_fail(x, "%.20s...: name too long", name);
		return;
	}
	memcpy(buf, name, len);
	buf[len] = '\0';
	val = lookup(x, buf);
	if (val)
		add_expansion(x, val, strlen(val), quoted);
}

/* The name at the start of a ${...} body: NAME, digits, or one special character. */
static size_t param_name_len(const char *s, size_t len)
{
	size_t n = 0;

	if (!len)
		return 0;
	if (sh_is_name_start(s[0])) {
		while (n < len && sh_is_name_char(s[n]))
			n++;
	} else if (sh_is_digit(s[0])) {
		while (n < len && sh_is_digit(s[n]))
			n++;
	} else if (strchr("?$!#@*-", s[0])) {
		n = 1;
	}
	return n;
}

static void expand_length(struct xp *x, const char *name, size_t len, bool quoted)
{
	char buf[64], num[24];
	const char *val;

	if (len >= sizeof(buf) || param_name_len(name, len) != len) {
		xp_fail(x, "${#%.*s}: bad substitution", (int)min_t(size_t, len, 20), name);
		return;
	}
	memcpy(buf, name, len);
	buf[len] = '\0';
	val = lookup(x, buf);
	snprintf(num, sizeof(num), "%zu", val ? strlen(val) : (size_t)0);
	add_expansion(x, num, strlen(num), quoted);
}

/* ${name=word}: the expanded word becomes the variable's value, and the result. */
static void assign_default(struct xp *x, const char *name, const char *word, size_t wlen, bool quoted)
{
	struct strbuf val;

	if (!sh_is_name(name, strlen(name))) {
		xp_fail(x, "%s: cannot assign in this way", name);
		return;
	}
	if (expand_sub(x, word, wlen, &val))
		return;
	if (val.failed || x->env->ops->set(x->env, name, sb_str(&val)))
		xp_fail(x, "%s: cannot assign", name);
	else
		add_expansion(x, sb_str(&val), val.len, quoted);
	sb_release(&val);
}

static void expand_word_part(struct xp *x, const char *word, size_t wlen, bool quoted)
{
	bool saved = x->split_literals;

	if (quoted) {
		walk_dquoted(x, word, wlen);
		return;
	}
	x->split_literals = true;
	walk(x, word, wlen);
	x->split_literals = saved;
}

/* ${name OP word} with OP one of - = + ? (after an optional ':' that makes "" count as unset). */
static void expand_param_op(struct xp *x, const char *name, const char *op, const char *end,
			    bool quoted)
{
	bool colon = *op == ':';
	char kind = op[colon];
	const char *word = op + colon + 1;
	size_t wlen = (size_t)(end - word);
	const char *val = lookup(x, name);
	bool set = colon ? val && *val : val != NULL;

	switch (kind) {
	case '-':
		if (set)
			add_expansion(x, val, strlen(val), quoted);
		else
			expand_word_part(x, word, wlen, quoted);
		break;
	case '=':
		if (set)
			add_expansion(x, val, strlen(val), quoted);
		else
			assign_default(x, name, word, wlen, quoted);
		break;
	case '+':
		if (set)
			expand_word_part(x, word, wlen, quoted);
		break;
	case '?':
		if (set)
			add_expansion(x, val, strlen(val), quoted);
		else if (wlen)
			xp_fail(x, "%s: %.*s", name, (int)min_t(size_t, wlen, 60), word);
		else
			xp_fail(x, "%s: parameter not set", name);
		break;
	}
}

/* Expand the pattern word of ${x%pat} and its kin: quoted parts match literally. */
static int expand_pattern(struct xp *x, const char *s, size_t len, struct strbuf *out)
{
	struct xp sub = { .env = x->env, .depth = x->depth, .pattern = true };

	walk(&sub, s, len);
	if (!sub.err && sub.cur.failed)
		sub.err = -ENOMEM;
	if (sub.err) {
		x->err = sub.err;
		sb_release(&sub.cur);
		return sub.err;
	}
	*out = sub.cur;
	return 0;
}

/*
 * ${name%pat} ${name%%pat}: remove the shortest (longest) suffix matching pat;
 * ${name#pat} ${name##pat}: the same for a prefix. No match leaves the value whole.
 */
static void expand_trim(struct xp *x, const char *name, const char *op, const char *end, bool quoted)
{
	bool suffix = *op == '%', longest = op[1] == *op;
	const char *word = op + 1 + longest;
	const char *val;
	size_t n, keep_from = 0, keep_len;
	struct strbuf pat;

	/* The pattern first: get()'s result is valid only until the next call. */
	if (expand_pattern(x, word, (size_t)(end - word), &pat))
		return;
	val = lookup(x, name);
	n = val ? strlen(val) : 0;
	keep_len = n;
	for (size_t k = 0; val && k <= n; k++) {
		/* cut: how many characters the candidate prefix or suffix has */
		size_t cut = longest ? n - k : k;

		if (suffix && sh_pattern_match(sb_str(&pat), val + n - cut, cut)) {
			keep_len = n - cut;
			break;
		}
		if (!suffix && sh_pattern_match(sb_str(&pat), val, cut)) {
			keep_from = cut;
			keep_len = n - cut;
			break;
		}
	}
	if (val)
		add_expansion(x, val + keep_from, keep_len, quoted);
	sb_release(&pat);
}

static void expand_braces(struct xp *x, const char *body, size_t len, bool quoted)
{
	char name[64];
	size_t n;
	const char *op;

	if (len > 1 && body[0] == '#') {
		expand_length(x, body + 1, len - 1, quoted);
		return;
	}
	n = param_name_len(body, len);
	if (!n || n >= sizeof(name))
		goto bad;
	memcpy(name, body, n);
	name[n] = '\0';
	if (n == len) {
		expand_var(x, body, n, quoted);
		return;
	}
	op = body + n;
	if (strchr("-=+?", op[0]) || (op[0] == ':' && n + 1 < len && strchr("-=+?", op[1]))) {
		expand_param_op(x, name, op, body + len, quoted);
		return;
	}
	if (op[0] == '%' || op[0] == '#') {
		expand_trim(x, name, op, body + len, quoted);
		return;
	}
bad:
	xp_fail(x, "${%.*s}: bad substitution", (int)min_t(size_t, len, 40), body);
}

static void expand_dollar(struct xp *x, const char *s, size_t len, size_t *pos, bool quoted)
{
	size_t start = *pos, end = start;
	const char *body;
	size_t blen;

	if (sh_scan_dollar(s, len, &end)) {
		xp_fail(x, "unterminated %.2s", s + start);
		return;
	}
	*pos = end;
	body = s + start + 1;
	blen = end - start - 1;
	if (!blen) {
		add_literal(x, "$", 1);
		return;
	}
	if (++x->depth > SH_EXPAND_MAX_DEPTH) {
		xp_fail(x, "expansion too deeply nested");
		return;
	}
	if (body[0] == '(' && blen >= 4 && body[1] == '(' && body[blen - 2] == ')')
		expand_arith(x, body + 2, blen - 4, quoted);
	else if (body[0] == '(')
		expand_command(x, body + 1, blen - 2, quoted);
	else if (body[0] == '{')
		expand_braces(x, body + 1, blen - 2, quoted);
	else
		expand_var(x, body, blen, quoted);
	x->depth--;
}

/* The text between double quotes: only $ ` and \ are special. */
static int walk_dquoted(struct xp *x, const char *s, size_t len)
{
	size_t i = 0;

	x->started = true;
	while (i < len && !x->err) {
		char c = s[i];

		if (c == '\\' && i + 1 < len && strchr(x->heredoc ? "$`\\\n" : "$`\"\\\n", s[i + 1])) {
			if (s[i + 1] != '\n')
				add_expansion(x, s + i + 1, 1, true);
			i += 2;
		} else if (c == '$') {
			expand_dollar(x, s, len, &i, true);
		} else if (c == '`') {
			expand_backquote(x, s, len, &i, true);
		} else {
			add_expansion(x, &c, 1, true);
			i++;
		}
	}
	return x->err;
}

static void walk_quote(struct xp *x, const char *s, size_t len, size_t *i)
{
	size_t end = *i;
	int err = s[*i] == '\'' ? sh_scan_squote(s, len, &end) : sh_scan_dquote(s, len, &end);

	if (err) {
		xp_fail(x, "unterminated %c", s[*i]);
		return;
	}
	if (s[*i] == '\'') {
		add_expansion(x, s + *i + 1, end - *i - 2, true);
	} else {
		walk_dquoted(x, s + *i + 1, end - *i - 2);
	}
	*i = end;
}

static int walk(struct xp *x, const char *s, size_t len)
{
	size_t i = 0;

	while (i < len && !x->err) {
		char c = s[i];

		if (c == '\'' || c == '"') {
			walk_quote(x, s, len, &i);
		} else if (c == '\\') {
			if (i + 1 < len && s[i + 1] != '\n')
				add_expansion(x, s + i + 1, 1, true);
			else if (i + 1 >= len)
				add_expansion(x, "\\", 1, true);
			i += 2;
		} else if (c == '$') {
			expand_dollar(x, s, len, &i, false);
		} else if (c == '`') {
			expand_backquote(x, s, len, &i, false);
		} else {
			size_t run = min(strcspn(s + i, "'\"\\$`"), len - i);

			if (x->split_literals)
				add_expansion(x, s + i, run, false);
			else
				add_literal(x, s + i, run);
			i += run;
		}
	}
	return x->err;
}

static int expand_result(struct xp *x, bool failed)
{
	if (!x->err && failed)
		x->err = -ENOMEM;
	if (x->err == -ENOMEM)
		strlcpy(x->env->err, "out of memory", sizeof(x->env->err));
	return x->err;
}

int sh_expand_fields(struct sh_env *env, const char *word, struct strv *out)
{
	struct xp x = { .env = env, .fields = out };
	const char *ifs = env->ops->get(env, "IFS");

	/* A copy: get()'s result lasts only until the next call. */
	x.ifs = ifs ? kstrdup(ifs, GFP_KERNEL) : SH_IFS_DEFAULT;
	if (!x.ifs) {
		strlcpy(env->err, "out of memory", sizeof(env->err));
		return -ENOMEM;
	}
	/* "$@" without parameters is no field at all, not an empty one. */
	if (!strcmp(word, "\"$@\"") && !env->argc)
		goto out;
	if (!walk(&x, word, strlen(word)) && x.started)
		push_field(&x);
	sb_release(&x.cur);
	sb_release(&x.pat);
out:
	if (ifs)
		kfree(x.ifs);
	return expand_result(&x, out->failed);
}

int sh_expand_pattern(struct sh_env *env, const char *word, char **out)
{
	struct xp x = { .env = env };
	struct strbuf pat;

	*out = NULL;
	if (!expand_pattern(&x, word, strlen(word), &pat))
		*out = sb_detach(&pat);
	sb_release(&pat);
	return expand_result(&x, !*out);
}

int sh_expand_heredoc(struct sh_env *env, const char *body, char **out)
{
	struct xp x = { .env = env, .heredoc = true };

	*out = NULL;
	if (!walk_dquoted(&x, body, strlen(body)))
		*out = sb_detach(&x.cur);
	sb_release(&x.cur);
	return expand_result(&x, !*out);
}

int sh_expand_string(struct sh_env *env, const char *word, char **out)
{
	struct xp x = { .env = env };

	*out = NULL;
	if (!walk(&x, word, strlen(word)))
		*out = sb_detach(&x.cur);
	sb_release(&x.cur);
	return expand_result(&x, !*out);
}
