"""What each kernel source file defines and uses, read from its preprocessed text.

The floors' check (scripts/check-layers) and the kernel-doc check (scripts/check-kerneldoc)
need, for every file of the kernel, the global names it defines and the global names of
other files it uses: what nm shows of its object, without building the kernel. The file is
run through the preprocessor with the kernel's flags (the Makefile's `source-lists` names
the files, as its kernel build takes them), then read as C at its outer level:

- a definition is a function with a body, or data at file scope that is not `extern` nor a
  `typedef`; it is global unless `static`;
- a definition's names are the identifiers of its body or initializer, but members (after
  `.` or `->`) and the names it declares itself (parameters, locals);
- a file uses what its global definitions name, and what its static definitions name when
  a global one reaches them (a static inline of a header that nothing calls is not
  compiled in, as the compiler drops it); its own definitions are not uses;
- an assembly file (.S) defines its `.globl` names and uses every other identifier.

Where this differs from the objects: a call the compiler adds (memcpy for a structure
copy) or removes (a branch that is constant false) is not read. Where it matters (an arrow
between two files that only one reader sees), `check-layers --objects` reads the objects.
"""
import os
import re
import subprocess
from collections import namedtuple
from concurrent.futures import ThreadPoolExecutor

KERNEL_CPPFLAGS = ["-E", "-P", "-std=gnu11", "-ffreestanding", "-Iinclude", "-DCGWB_KERNEL"]

TOKEN = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|[A-Za-z_]\w*|->|[0-9][\w.]*|\S')
KEYWORDS = set("""auto break case char const continue default do double else enum extern float
for goto if inline int long register restrict return short signed sizeof static struct switch
typedef union unsigned void volatile while _Bool _Static_assert _Alignof _Noreturn __inline
__inline__ __restrict __restrict__ __volatile__ __asm__ asm __typeof__ typeof __extension__
__builtin_va_list __builtin_offsetof __label__ __signed__ __const""".split())
# groups that name nothing the object refers to: attributes, asm operands (which name
# variables, not symbols, but for the asm text itself, not read) and what only types
SKIPPED_GROUPS = {"__attribute__", "__attribute", "__asm__", "asm", "__asm", "sizeof",
                  "__typeof__", "typeof", "__typeof", "__builtin_offsetof", "_Alignof",
                  "__alignof__", "__builtin_types_compatible_p"}
TAGGED = {"struct", "union", "enum"}
INLINE = {"inline", "__inline", "__inline__"}
ASM_GLOBAL = re.compile(r"^\s*\.(?:globl|global)\s+([^\n;#]*)", re.M)
ASM_NAME = re.compile(r"[A-Za-z_]\w*")
NAME = ASM_NAME


def is_name(tok):
    """An identifier that can name an object or a function (not a keyword, not a tag)."""
    return NAME.fullmatch(tok) is not None and tok not in KEYWORDS


def kernel_sources(root):
    """The kernel's source files, as the Makefile lists them."""
    out = subprocess.run(["make", "-s", "--no-print-directory", "source-lists"], cwd=root,
                         capture_output=True, text=True, check=True).stdout
    return sorted(line.split()[1] for line in out.splitlines() if len(line.split()) == 2)


def preprocess(root, src):
    flags = KERNEL_CPPFLAGS + (["-D__ASSEMBLER__", "-x", "assembler-with-cpp"]
                               if src.endswith(".S") else [])
    run = subprocess.run(["cc"] + flags + [src], cwd=root, capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError("%s: the preprocessor failed:\n%s" % (src, run.stderr))
    return run.stdout


def tokens(text):
    """C tokens without literals, attributes and asm statements' operand groups."""
    out, skip_group, depth = [], False, 0
    for tok in TOKEN.findall(text):
        if tok[0] in "\"'":
            continue
        if skip_group:
            if tok == "(":
                depth += 1
            elif tok == ")":
                depth -= 1
                skip_group = depth > 0
            continue
        if tok in SKIPPED_GROUPS:
            skip_group, depth = True, 0
            continue
        if out and out[-1] in TAGGED and re.match(r"[A-Za-z_]", tok):
            out[-1] += " " + tok  # `struct page` is one token: a tag names no object
            continue
        out.append(tok)
    return out


def outer_items(toks):
    """The file-scope declarations and definitions, each a list of tokens: one ends at a ';'
    outside brackets, or at the '}' that closes a function's body."""
    items, item, depth = [], [], 0
    for tok in toks:
        item.append(tok)
        if tok in "([{":
            depth += 1
        elif tok in ")]}":
            depth -= 1
            if tok == "}" and depth == 0 and is_function(item):
                items.append(item)
                item = []
        elif tok == ";" and depth == 0:
            items.append(item)
            item = []
    return items


def is_function(item):
    """A definition with a body: '(' ... ')' then '{' at the outer level, no '=' before."""
    depth = 0
    for i, tok in enumerate(item):
        if depth == 0 and tok == "=":
            return False
        if depth == 0 and tok == "{":
            return i > 0 and item[i - 1] == ")"
        depth += tok in "([{"
        depth -= tok in ")]}"
    return False


def declared_name(item):
    """The name an outer item declares (the identifier before its first '(' at the outer
    level, or before its '=' or '[' or end), or None."""
    depth, last = 0, None
    for i, tok in enumerate(item):
        if depth == 0 and tok == "{":
            last = None  # a struct, union or enum body: the object's name follows it
        elif depth == 0 and tok in ("(", "=", "[", ";", ","):
            if tok == "(" and i + 1 < len(item) and item[i + 1] == "*":
                return pointer_name(item[i + 1:])
            return last
        if tok in "([{":
            depth += 1
        elif tok in ")]}":
            depth -= 1
        elif depth == 0 and is_name(tok):
            last = tok
    return last


def pointer_name(toks):
    """The name of a pointer to a function: (*name)(...)."""
    for tok in toks:
        if is_name(tok):
            return tok
        if tok == ")":
            return None
    return None


def names_in(item, own, types):
    """The identifiers an item names, but members (after '.' or '->'), the item's own name
    and the names it declares (its parameters and locals, see declares())."""
    used, declared = set(), declares(item, types)
    for i, tok in enumerate(item):
        if not is_name(tok) or tok == own or tok in declared:
            continue
        if i == 0 or item[i - 1] not in (".", "->"):
            used.add(tok)
    return used


TYPE_WORDS = set("""char int long short signed unsigned void float double _Bool const
volatile restrict __restrict __restrict__ __signed__ __const __builtin_va_list""".split())


def declares(item, types):
    """Names declared inside an item: an identifier after a type (a type word, a tag, a
    typedef name of the file), and pointers' stars, and before , ; ) = [ or :."""
    found = set()
    for i in range(1, len(item) - 1):
        if not is_name(item[i]) or item[i + 1] not in (",", ";", ")", "=", "[", ":"):
            continue
        j = i - 1
        while j > 0 and item[j] in ("*", "const", "volatile", "restrict", "__restrict"):
            j -= 1
        if item[j] in TYPE_WORDS or item[j] in types or item[j].split()[0] in TAGGED:
            found.add(item[i])
    return found


def is_prototype(item, name):
    """A function's declaration without a body (not a pointer to one, not data)."""
    if is_function(item) or "(" not in item or "=" in item:
        return False
    return item[item.index("(") - 1] == name


# What a file defines under a name: whether it is global, whether it is compiled in used
# or not (all but a static inline), and the names its body or initializer uses.
Definition = namedtuple("Definition", "glob kept uses")


def definitions(text):
    """{name: Definition} of a preprocessed file."""
    defs, items, types = {}, outer_items(tokens(text)), set()
    for item in items:
        if "typedef" in item[:3]:
            types.add(declared_name(item))
    for item in items:
        if item[0] in ("typedef", "extern") or "typedef" in item[:3]:
            continue
        name = declared_name(item)
        if not name or is_prototype(item, name):
            continue
        specifiers = item[:item.index(name)]
        old = defs.get(name, Definition(True, False, set()))
        defs[name] = Definition(old.glob and "static" not in specifiers,
                                old.kept or not INLINE & set(specifiers),
                                old.uses | names_in(item, name, types))
    return defs


def read_c(text):
    """(global names defined, names used) of one preprocessed C file: the names of what is
    compiled in, and of the static inlines it reaches."""
    defs = definitions(text)
    reached, frontier = set(), [n for n, d in defs.items() if d.kept]
    while frontier:
        n = frontier.pop()
        if n not in reached:
            reached.add(n)
            frontier.extend(u for u in defs[n].uses if u in defs)
    used = set().union(*(defs[n].uses for n in reached))
    return {n for n, d in defs.items() if d.glob}, used - set(defs)


def read_asm(text):
    """(names made global, every other identifier) of one preprocessed assembly file."""
    defined = {n for names in ASM_GLOBAL.findall(text) for n in ASM_NAME.findall(names)}
    return defined, set(ASM_NAME.findall(text)) - defined


def read_sources(root, sources=None):
    """{source: (defined names, used names)} for every kernel source (or those given)."""
    sources = sources if sources is not None else kernel_sources(root)

    def one(src):
        text = preprocess(root, src)
        return src, (read_asm(text) if src.endswith(".S") else read_c(text))

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        return dict(pool.map(one, sources))
