/* test / [ expression evaluation (portable). */
#include <cgwb/compiler.h>
#include <cgwb/errno.h>
#include <cgwb/string.h>
#include "test.h"

struct tst {
	char **a;
	int n;
	int pos;
	sh_file_test_fn file_test;
	char *err;
	size_t errlen;
	bool failed;
};

static __printf(2, 3) bool test_fail(struct tst *t, const char *fmt, ...)
{
	va_list ap;

	if (t->failed)
		return false;
	t->failed = true;
	va_start(ap, fmt);
	vsnprintf(t->err, t->errlen, fmt, ap);
	va_end(ap);
	return false;
}

static bool is_unary(const char *op)
{
	return op[0] == '-' && op[1] && !op[2] && strchr("znefdrwxscbpLhSt", op[1]);
}

static bool is_binary(const char *op)
{
	static const char *const ops[] = {
		"=",   "==",  "!=",  "<",   ">",   "-eq", "-ne",
		"-lt", "-le", "-gt", "-ge", "-nt", "-ot", "-ef",
	};

	for (size_t i = 0; i < ARRAY_SIZE(ops); i++)
		if (!strcmp(op, ops[i]))
			return true;
	return false;
}

static bool unary(struct tst *t, const char *op, const char *arg)
{
	switch (op[1]) {
	case 'z':
		return !*arg;
	case 'n':
		return *arg;
	case 't':
		return false; /* no terminals to ask */
	}
	return t->file_test && t->file_test(op[1], arg);
}

static bool to_int(struct tst *t, const char *s, s64 *v)
{
	while (*s == ' ' || *s == '\t')
		s++;
	if (kstrtoll(s, 10, v))
		return test_fail(t, "%s: integer expression expected", s);
	return true;
}

/* Integer comparisons: the result for less, equal, greater. */
static const struct {
	const char *op;
	bool lt, eq, gt;
} int_ops[] = {
	{ "-eq", false, true, false }, { "-ne", true, false, true },  { "-lt", true, false, false },
	{ "-le", true, true, false },  { "-gt", false, false, true }, { "-ge", false, true, true },
};

static bool binary(struct tst *t, const char *l, const char *op, const char *r)
{
	s64 a, b;

	if (!strcmp(op, "=") || !strcmp(op, "=="))
		return !strcmp(l, r);
	if (!strcmp(op, "!="))
		return strcmp(l, r);
	if (!strcmp(op, "<"))
		return strcmp(l, r) < 0;
	if (!strcmp(op, ">"))
		return strcmp(l, r) > 0;
	for (size_t i = 0; i < ARRAY_SIZE(int_ops); i++) {
		if (strcmp(op, int_ops[i].op))
			continue;
		if (!to_int(t, l, &a) || !to_int(t, r, &b))
			return false;
		return a < b ? int_ops[i].lt : a == b ? int_ops[i].eq : int_ops[i].gt;
	}
	return false; /* -nt -ot -ef: no file times or inode numbers to compare yet */
}

static bool expr_or(struct tst *t);

static const char *next_arg(struct tst *t)
{
	return t->pos < t->n ? t->a[t->pos] : NULL;
}

static bool primary(struct tst *t)
{
	const char *a = next_arg(t);
	bool v;

	if (!a)
		return test_fail(t, "argument expected");
	if (t->pos + 2 < t->n && is_binary(t->a[t->pos + 1])) {
		t->pos += 3;
		return binary(t, a, t->a[t->pos - 2], t->a[t->pos - 1]);
	}
	if (is_unary(a) && t->pos + 1 < t->n) {
		t->pos += 2;
		return unary(t, a, t->a[t->pos - 1]);
	}
	if (!strcmp(a, "(") && t->pos + 1 < t->n) {
		t->pos++;
		v = expr_or(t);
		if (!next_arg(t) || strcmp(next_arg(t), ")"))
			return test_fail(t, "')' expected");
		t->pos++;
		return v;
	}
	t->pos++;
	return *a;
}

static bool expr_not(struct tst *t)
{
	const char *a = next_arg(t);

	if (a && !strcmp(a, "!") && t->pos + 1 < t->n) {
		t->pos++;
		return !expr_not(t);
	}
	return primary(t);
}

static bool expr_and(struct tst *t)
{
	bool v = expr_not(t);

	while (!t->failed && next_arg(t) && !strcmp(next_arg(t), "-a")) {
		t->pos++;
		v = expr_not(t) && v;
	}
	return v;
}

static bool expr_or(struct tst *t)
{
	bool v = expr_and(t);

	while (!t->failed && next_arg(t) && !strcmp(next_arg(t), "-o")) {
		t->pos++;
		v = expr_and(t) || v;
	}
	return v;
}

/* POSIX decides by the number of arguments first, which keeps "[ -n ]" and "[ = = = ]" sane. */
static bool eval(struct tst *t, char **a, int n)
{
	switch (n) {
	case 0:
		return false;
	case 1:
		return *a[0];
	case 2:
		if (!strcmp(a[0], "!"))
			return !eval(t, a + 1, 1);
		if (is_unary(a[0]))
			return unary(t, a[0], a[1]);
		return test_fail(t, "%s: unary operator expected", a[0]);
	case 3:
		if (is_binary(a[1]))
			return binary(t, a[0], a[1], a[2]);
		if (!strcmp(a[0], "!"))
			return !eval(t, a + 1, 2);
		if (!strcmp(a[0], "(") && !strcmp(a[2], ")"))
			return eval(t, a + 1, 1);
		return test_fail(t, "%s: binary operator expected", a[1]);
	case 4:
		if (!strcmp(a[0], "!"))
			return !eval(t, a + 1, 3);
		if (!strcmp(a[0], "(") && !strcmp(a[3], ")"))
			return eval(t, a + 1, 2);
		break;
	}
	t->a = a;
	t->n = n;
	t->pos = 0;
	bool v = expr_or(t);
	if (!t->failed && t->pos < n)
		test_fail(t, "%s: unexpected argument", a[t->pos]);
	return v;
}

int sh_test(int argc, char **argv, sh_file_test_fn file_test, char *err, size_t errlen)
{
	struct tst t = { .file_test = file_test, .err = err, .errlen = errlen };
	bool v = eval(&t, argv, argc);

	if (t.failed)
		return 2;
	return v ? 0 : 1;
}
