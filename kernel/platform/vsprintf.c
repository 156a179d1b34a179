/*
 * vsnprintf for the kernel: the C99 conversions the code uses (d i u x X o c s p %), with
 * flags (- 0 + space #), width and precision (numbers or *), and length modifiers
 * (hh h l ll z t j). Returns the length the full output would have, like C99.
 *
 * Laid out as Linux's lib/vsprintf.c: format_decode() reads one conversion into a struct
 * printf_spec, and number(), string() and character() print it.
 */
#include <cgwb/compiler.h>
#include <cgwb/string.h>

/* The output so far: pos counts what would have been written had size been enough. */
struct printf_out {
	char *buf;
	size_t size, pos;
};

static void put(struct printf_out *o, char c)
{
	if (o->pos + 1 < o->size)
		o->buf[o->pos] = c;
	o->pos++;
}

static void pad(struct printf_out *o, char c, int n)
{
	while (n-- > 0)
		put(o, c);
}

/* printf_spec.flags */
#define LEFT 0x01    /* '-' */
#define ZEROPAD 0x02 /* '0' */
#define PLUS 0x04    /* '+' */
#define SPACE 0x08   /* ' ' */
#define SPECIAL 0x10 /* '#': 0x / 0 before a non-zero number */
#define SIGN 0x20    /* the argument is signed */
#define SMALL 0x40   /* lower-case hexadecimal digits */

enum format_type {
	FORMAT_TYPE_END,     /* the format ended inside the conversion: nothing printed */
	FORMAT_TYPE_INVALID, /* an unknown conversion, printed as it stands */
	FORMAT_TYPE_PERCENT_CHAR,
	FORMAT_TYPE_CHAR,
	FORMAT_TYPE_STR,
	FORMAT_TYPE_PTR,
	FORMAT_TYPE_INTEGER, /* d i u o x X: the qualifier says what the argument is */
};

/* hh h (none) l ll, and z t j: the 64-bit types of x86_64 */
enum format_qualifier { QUAL_HH, QUAL_H, QUAL_NONE, QUAL_L, QUAL_LL, QUAL_64 };

struct printf_spec {
	enum format_type type;
	enum format_qualifier qualifier;
	unsigned int flags;
	unsigned int base;
	int width;
	int precision; /* < 0: none given */
	char conversion;
};

static void number(struct printf_out *o, unsigned long long num, const struct printf_spec *spec)
{
	const char *digits = spec->flags & SMALL ? "0123456789abcdef" : "0123456789ABCDEF";
	const char *prefix = "";
	char tmp[24];
	int n = 0;
	char sign = spec->flags & PLUS ? '+' : spec->flags & SPACE ? ' ' : 0;

	if ((spec->flags & SIGN) && (long long)num < 0) {
		sign = '-';
		num = 0ULL - num;
	}
	if ((spec->flags & SPECIAL) && num) {
		if (spec->base == 16)
			prefix = spec->flags & SMALL ? "0x" : "0X";
		else if (spec->base == 8)
			prefix = "0";
	}
	do {
		tmp[n++] = digits[num % spec->base];
		num /= spec->base;
	} while (num);
	if (spec->precision == 0 && n == 1 && tmp[0] == '0')
		n = 0;

	int digits_len = n > spec->precision ? n : spec->precision;
	int fill = spec->width - digits_len - (sign ? 1 : 0) - (int)strlen(prefix);
	/* C99: a precision or '-' turns the 0 flag off */
	bool zeropad = (spec->flags & ZEROPAD) && !(spec->flags & LEFT) && spec->precision < 0;

	if (!(spec->flags & LEFT) && !zeropad)
		pad(o, ' ', fill);
	if (sign)
		put(o, sign);
	for (const char *p = prefix; *p; p++)
		put(o, *p);
	if (zeropad)
		pad(o, '0', fill);
	pad(o, '0', digits_len - n);
	while (n)
		put(o, tmp[--n]);
	if (spec->flags & LEFT)
		pad(o, ' ', fill);
}

static void string(struct printf_out *o, const char *s, const struct printf_spec *spec)
{
	if (!s)
		s = "(null)";
	/* a precision bounds the read too: the string need not be terminated */
	int len = (int)strnlen(s, spec->precision >= 0 ? (size_t)spec->precision : (size_t)-1);

	if (!(spec->flags & LEFT))
		pad(o, ' ', spec->width - len);
	for (int i = 0; i < len; i++)
		put(o, s[i]);
	if (spec->flags & LEFT)
		pad(o, ' ', spec->width - len);
}

static void character(struct printf_out *o, char c, const struct printf_spec *spec)
{
	if (!(spec->flags & LEFT))
		pad(o, ' ', spec->width - 1);
	put(o, c);
	if (spec->flags & LEFT)
		pad(o, ' ', spec->width - 1);
}

static int skip_atoi(const char **fmt)
{
	int v = 0;

	while (**fmt >= '0' && **fmt <= '9')
		v = v * 10 + (*(*fmt)++ - '0');
	return v;
}

static const char *decode_flags(const char *fmt, struct printf_spec *spec)
{
	for (;; fmt++) {
		switch (*fmt) {
		case '-':
			spec->flags |= LEFT;
			break;
		case '0':
			spec->flags |= ZEROPAD;
			break;
		case '+':
			spec->flags |= PLUS;
			break;
		case ' ':
			spec->flags |= SPACE;
			break;
		case '#':
			spec->flags |= SPECIAL;
			break;
		default:
			return fmt;
		}
	}
}

static const char *decode_width(const char *fmt, struct printf_spec *spec, va_list *ap)
{
	if (*fmt != '*') {
		spec->width = skip_atoi(&fmt);
		return fmt;
	}
	spec->width = va_arg(*ap, int);
	if (spec->width < 0) { /* C99: a negative width from '*' is '-' and its value */
		spec->flags |= LEFT;
		spec->width = -spec->width;
	}
	return fmt + 1;
}

/* A negative precision from '*' is kept: it means none, as an absent one does. */
static const char *decode_precision(const char *fmt, struct printf_spec *spec, va_list *ap)
{
	if (*fmt != '.')
		return fmt;
	fmt++;
	if (*fmt != '*') {
		spec->precision = skip_atoi(&fmt);
		return fmt;
	}
	spec->precision = va_arg(*ap, int);
	return fmt + 1;
}

static const char *decode_qualifier(const char *fmt, struct printf_spec *spec)
{
	for (;; fmt++) {
		switch (*fmt) {
		case 'h':
			spec->qualifier = spec->qualifier == QUAL_H ? QUAL_HH : QUAL_H;
			break;
		case 'l':
			spec->qualifier = spec->qualifier == QUAL_L ? QUAL_LL : QUAL_L;
			break;
		case 'z':
		case 't':
		case 'j':
			spec->qualifier = QUAL_64;
			break;
		default:
			return fmt;
		}
	}
}

static const struct {
	char conversion;
	enum format_type type;
	unsigned int base;
	unsigned int flags;
} conversions[] = {
	{ 'd', FORMAT_TYPE_INTEGER, 10, SIGN },
	{ 'i', FORMAT_TYPE_INTEGER, 10, SIGN },
	{ 'u', FORMAT_TYPE_INTEGER, 10, 0 },
	{ 'o', FORMAT_TYPE_INTEGER, 8, 0 },
	{ 'x', FORMAT_TYPE_INTEGER, 16, SMALL },
	{ 'X', FORMAT_TYPE_INTEGER, 16, 0 },
	{ 'p', FORMAT_TYPE_PTR, 16, SPECIAL | SMALL },
	{ 'c', FORMAT_TYPE_CHAR, 10, 0 },
	{ 's', FORMAT_TYPE_STR, 10, 0 },
	{ '%', FORMAT_TYPE_PERCENT_CHAR, 10, 0 },
};

static void decode_conversion(char c, struct printf_spec *spec)
{
	spec->conversion = c;
	spec->type = c ? FORMAT_TYPE_INVALID : FORMAT_TYPE_END;
	for (size_t i = 0; i < ARRAY_SIZE(conversions); i++) {
		if (conversions[i].conversion == c) {
			spec->type = conversions[i].type;
			spec->base = conversions[i].base;
			spec->flags |= conversions[i].flags;
		}
	}
}

/*
 * Reads the conversion after a '%' at fmt into spec, and the arguments a '*' takes from ap;
 * returns where the text after it starts.
 */
static const char *format_decode(const char *fmt, struct printf_spec *spec, va_list *ap)
{
	*spec = (struct printf_spec){ .precision = -1, .qualifier = QUAL_NONE };
	fmt = decode_flags(fmt, spec);
	fmt = decode_width(fmt, spec, ap);
	fmt = decode_precision(fmt, spec, ap);
	fmt = decode_qualifier(fmt, spec);
	decode_conversion(*fmt, spec);
	return *fmt ? fmt + 1 : fmt;
}

/* The argument of an integer conversion, sign-extended when it is signed. */
static unsigned long long integer_arg(const struct printf_spec *spec, va_list *ap)
{
	bool sign = spec->flags & SIGN;

	switch (spec->qualifier) {
	case QUAL_HH:
		return sign ? (unsigned long long)(signed char)va_arg(*ap, int) :
			      (unsigned char)va_arg(*ap, unsigned int);
	case QUAL_H:
		return sign ? (unsigned long long)(short)va_arg(*ap, int) :
			      (unsigned short)va_arg(*ap, unsigned int);
	case QUAL_NONE:
		return sign ? (unsigned long long)va_arg(*ap, int) : va_arg(*ap, unsigned int);
	case QUAL_L:
		return sign ? (unsigned long long)va_arg(*ap, long) : va_arg(*ap, unsigned long);
	case QUAL_LL:
	case QUAL_64:
		break;
	}
	return sign ? (unsigned long long)va_arg(*ap, long long) : va_arg(*ap, unsigned long long);
}

static void print_spec(struct printf_out *o, const struct printf_spec *spec, va_list *ap)
{
	switch (spec->type) {
	case FORMAT_TYPE_INTEGER:
		number(o, integer_arg(spec, ap), spec);
		break;
	case FORMAT_TYPE_PTR:
		number(o, (uintptr_t)va_arg(*ap, void *), spec);
		break;
	case FORMAT_TYPE_STR:
		string(o, va_arg(*ap, const char *), spec);
		break;
	case FORMAT_TYPE_CHAR:
		character(o, (char)va_arg(*ap, int), spec);
		break;
	case FORMAT_TYPE_PERCENT_CHAR:
		put(o, '%');
		break;
	case FORMAT_TYPE_INVALID:
		put(o, '%');
		put(o, spec->conversion);
		break;
	case FORMAT_TYPE_END:
		break;
	}
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct printf_out o = { buf, size, 0 };
	struct printf_spec spec;
	va_list args;

	va_copy(args, ap); /* the decoders take a pointer to it, which ap cannot give */
	while (*fmt) {
		if (*fmt != '%') {
			put(&o, *fmt++);
			continue;
		}
		fmt = format_decode(fmt + 1, &spec, &args);
		print_spec(&o, &spec, &args);
	}
	va_end(args);
	if (size)
		buf[o.pos < size ? o.pos : size - 1] = '\0';
	return (int)o.pos;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return r;
}
