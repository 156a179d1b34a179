/* Shell arithmetic expansion: precedence climbing over the expression text (portable). */
#include <cgwb/compiler.h>
#include <cgwb/errno.h>
#include <cgwb/string.h>
#include "lexer.h"
#include "arith.h"

enum op_kind { OP_BINARY, OP_ASSIGN, OP_OTHER };

struct op {
	const char *text;
	enum op_kind kind;
	int prec; /* binary: higher binds tighter */
};

/* Longest first, so "<<=" is found before "<<" and "<". */
static const struct op ops[] = {
	{ "<<=", OP_ASSIGN, 0 }, { ">>=", OP_ASSIGN, 0 }, { "||", OP_BINARY, 1 },
	{ "&&", OP_BINARY, 2 },  { "==", OP_BINARY, 6 },  { "!=", OP_BINARY, 6 },
	{ "<=", OP_BINARY, 7 },  { ">=", OP_BINARY, 7 },  { "<<", OP_BINARY, 8 },
	{ ">>", OP_BINARY, 8 },  { "*=", OP_ASSIGN, 0 },  { "/=", OP_ASSIGN, 0 },
	{ "%=", OP_ASSIGN, 0 },  { "+=", OP_ASSIGN, 0 },  { "-=", OP_ASSIGN, 0 },
	{ "&=", OP_ASSIGN, 0 },  { "^=", OP_ASSIGN, 0 },  { "|=", OP_ASSIGN, 0 },
	{ "|", OP_BINARY, 3 },   { "^", OP_BINARY, 4 },   { "&", OP_BINARY, 5 },
	{ "<", OP_BINARY, 7 },   { ">", OP_BINARY, 7 },   { "+", OP_BINARY, 9 },
	{ "-", OP_BINARY, 9 },   { "*", OP_BINARY, 10 },  { "/", OP_BINARY, 10 },
	{ "%", OP_BINARY, 10 },  { "=", OP_ASSIGN, 0 },   { "?", OP_OTHER, 0 },
	{ ":", OP_OTHER, 0 },    { "(", OP_OTHER, 0 },    { ")", OP_OTHER, 0 },
	{ "!", OP_OTHER, 0 },    { "~", OP_OTHER, 0 },
};

struct arith {
	struct sh_env *env;
	const char *s; /* next character */
	int noeval;    /* > 0: in a branch not taken (no assignments, no errors) */
	int depth;
	int err;
};

static __printf(2, 3) void arith_fail(struct arith *a, const char *fmt, ...)
{
	va_list ap;

	if (a->err)
		return;
	a->err = -EINVAL;
	va_start(ap, fmt);
	vsnprintf(a->env->err, sizeof(a->env->err), fmt, ap);
	va_end(ap);
}

static void skip_blanks(struct arith *a)
{
	while (*a->s == ' ' || *a->s == '\t' || *a->s == '\n' || *a->s == '\r')
		a->s++;
}

static const struct op *peek_op(struct arith *a)
{
	skip_blanks(a);
	for (size_t i = 0; i < ARRAY_SIZE(ops); i++)
		if (!strncmp(a->s, ops[i].text, strlen(ops[i].text)))
			return &ops[i];
	return NULL;
}

static bool take(struct arith *a, const char *text)
{
	const struct op *op = peek_op(a);

	if (!op || strcmp(op->text, text))
		return false;
	a->s += strlen(text);
	return true;
}

static s64 apply(struct arith *a, const char *op, s64 l, s64 r)
{
	u64 ul = (u64)l, ur = (u64)r;

	switch (op[0]) {
	case '+':
		return (s64)(ul + ur);
	case '-':
		return (s64)(ul - ur);
	case '*':
		return (s64)(ul * ur);
	case '/':
	case '%':
		if (!r) {
			if (!a->noeval)
				arith_fail(a, "division by zero");
			return 0;
		}
		if (r == -1) /* INT64_MIN / -1 traps on x86 */
			return op[0] == '/' ? (s64)(0 - ul) : 0;
		return op[0] == '/' ? l / r : l % r;
	case '<':
		if (op[1] == '<')
			return (s64)(ul << (ur & 63));
		return op[1] == '=' ? l <= r : l < r;
	case '>':
		if (op[1] == '>')
			return l >> (ur & 63);
		return op[1] == '=' ? l >= r : l > r;
	case '=':
		return l == r;
	case '!':
		return l != r;
	case '&':
		return op[1] == '&' ? (l && r) : (s64)(ul & ur);
	case '|':
		return op[1] == '|' ? (l || r) : (s64)(ul | ur);
	case '^':
		return (s64)(ul ^ ur);
	}
	return 0;
}

static s64 parse_assign(struct arith *a);

static s64 parse_number(struct arith *a)
{
	char buf[32];
	size_t n = 0;
	s64 v = 0;

	while (sh_is_name_char(*a->s) && n < sizeof(buf) - 1)
		buf[n++] = *a->s++;
	buf[n] = '\0';
	if (kstrtoll(buf, 0, &v))
		arith_fail(a, "invalid number '%s'", buf);
	return v;
}

static s64 var_value(struct arith *a, const char *name)
{
	const char *val = a->env->ops->get(a->env, name);
	s64 v = 0;

	while (val && (*val == ' ' || *val == '\t' || *val == '\n'))
		val++;
	if (!val || !*val)
		return 0;
	if (kstrtoll(val, 0, &v) && !a->noeval)
		arith_fail(a, "%s: not a number", name);
	return v;
}

/* NAME at the cursor, copied into buf; false if there is none. */
static bool read_name(struct arith *a, char *buf, size_t size)
{
	size_t n = 0;

	skip_blanks(a);
	if (!sh_is_name_start(*a->s))
		return false;
	while (sh_is_name_char(*a->s)) {
		if (n < size - 1)
			buf[n++] = *a->s;
		a->s++;
	}
	buf[n] = '\0';
	return true;
}

static s64 parse_primary(struct arith *a)
{
	char name[64];

	skip_blanks(a);
	if (sh_is_digit(*a->s))
		return parse_number(a);
	if (read_name(a, name, sizeof(name)))
		return var_value(a, name);
	if (take(a, "(")) {
		s64 v = parse_assign(a);

		if (!take(a, ")"))
			arith_fail(a, "missing ')'");
		return v;
	}
	if (*a->s)
		arith_fail(a, "syntax error near '%.10s'", a->s);
	else
		arith_fail(a, "operand expected");
	return 0;
}

static s64 parse_unary(struct arith *a)
{
	const struct op *op = peek_op(a);
	s64 v;

	if (!op || (strcmp(op->text, "-") && strcmp(op->text, "+") && strcmp(op->text, "!") &&
		    strcmp(op->text, "~")))
		return parse_primary(a);
	a->s++;
	if (++a->depth > SH_ARITH_MAX_DEPTH) {
		arith_fail(a, "expression too deeply nested");
		return 0;
	}
	v = parse_unary(a);
	a->depth--;
	switch (op->text[0]) {
	case '-':
		return (s64)(0 - (u64)v);
	case '!':
		return !v;
	case '~':
		return ~v;
	}
	return v;
}

static s64 parse_binary(struct arith *a, int min_prec)
{
	s64 lhs = parse_unary(a);

	while (!a->err) {
		const struct op *op = peek_op(a);
		bool lazy;
		s64 rhs;

		if (!op || op->kind != OP_BINARY || op->prec < min_prec)
			break;
		a->s += strlen(op->text);
		/* the right side of && and || is only evaluated when it matters */
		lazy = (!strcmp(op->text, "&&") && !lhs) || (!strcmp(op->text, "||") && lhs);
		a->noeval += lazy;
		rhs = parse_binary(a, op->prec + 1);
		a->noeval -= lazy;
		lhs = apply(a, op->text, lhs, rhs);
	}
	return lhs;
}

static s64 parse_ternary(struct arith *a)
{
	s64 cond = parse_binary(a, 1), yes, no;

	if (a->err || !take(a, "?"))
		return cond;
	a->noeval += !cond;
	yes = parse_assign(a);
	a->noeval -= !cond;
	if (!take(a, ":")) {
		arith_fail(a, "':' expected for '?'");
		return 0;
	}
	a->noeval += !!cond;
	no = parse_ternary(a);
	a->noeval -= !!cond;
	return cond ? yes : no;
}

static s64 assign(struct arith *a, const char *name, const struct op *op, s64 rhs)
{
	char val[24];
	s64 v = rhs;

	if (op->text[0] != '=') {
		char bin[3] = { op->text[0], op->text[1] == '=' ? '\0' : op->text[1], '\0' };

		v = apply(a, bin, var_value(a, name), rhs);
	}
	if (a->noeval || a->err)
		return v;
	snprintf(val, sizeof(val), "%lld", v);
	if (a->env->ops->set(a->env, name, val))
		arith_fail(a, "%s: cannot assign", name);
	return v;
}

/* NAME op= expr (right-associative), else a conditional expression. */
static s64 parse_assign(struct arith *a)
{
	const char *save = a->s;
	char name[64];
	const struct op *op;

	if (++a->depth > SH_ARITH_MAX_DEPTH) {
		arith_fail(a, "expression too deeply nested");
		return 0;
	}
	if (read_name(a, name, sizeof(name)) && (op = peek_op(a)) && op->kind == OP_ASSIGN) {
		a->s += strlen(op->text);
		s64 v = assign(a, name, op, parse_assign(a));
		a->depth--;
		return v;
	}
	a->s = save;
	s64 v = parse_ternary(a);
	a->depth--;
	return v;
}

int sh_arith(struct sh_env *env, const char *expr, s64 *result)
{
	struct arith a = { .env = env, .s = expr };
	s64 v;

	skip_blanks(&a);
	if (!*a.s) {
		*result = 0;
		return 0;
	}
	v = parse_assign(&a);
	skip_blanks(&a);
	if (!a.err && *a.s)
		arith_fail(&a, "syntax error near '%.10s'", a.s);
	if (a.err)
		return a.err;
	*result = v;
	return 0;
}
