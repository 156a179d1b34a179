"""Reading a tracefs text trace (Linux's `trace` / `trace_pipe` format) of writeback events.

A line is "TASK-PID [CPU] FLAGS SECONDS: EVENT: TEXT", as Linux's print_trace_fmt() writes
it (the FLAGS column and a "(TGID)" column are optional: tracefs options can drop or add
them). TEXT is the event's TP_printk output from include/trace/events/writeback.h, whose
fields are "key=value" pairs after an optional "bdi NAME:" (or "bdi NAME[ID]:") prefix.

Header lines ("#...") and blank lines are skipped. A line that is not a trace line is counted
as malformed; an event that is not a writeback event this module knows is counted as
unknown. Neither stops the reading: the caller reports both at the end.
"""
import re

# TASK may hold spaces and dashes: the pid is the last "-digits" before the CPU column.
LINE_RE = re.compile(
    r"^\s*(?P<task>.+)-(?P<pid>\d+)\s+(?:\(\s*[\d-]+\)\s+)?\[(?P<cpu>\d+)\]\s+"
    r"(?:(?P<flags>[^\s\[\]]{4,5})\s+)?(?P<ts>\d+\.\d+):\s+(?P<event>[A-Za-z0-9_]+):\s?(?P<text>.*)$")
# the name may hold colons ("254:0"): it ends at the ": " before the fields
BDI_RE = re.compile(r"^bdi (?P<bdi>[^\s\[]+?)(?:\[(?P<bdi_id>\d+)\])?:(?:\s+|$)")
FIELD_RE = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)=(\S*)")

# The events of Linux 6.1's include/trace/events/writeback.h this reader knows, and the fields
# each one must carry to be usable (a line of a known event without them is malformed).
KNOWN_EVENTS = {
    "global_dirty_state": ("dirty", "writeback", "bg_thresh", "thresh", "limit"),
    "balance_dirty_pages": ("limit", "setpoint", "dirty", "bdi_setpoint", "bdi_dirty",
                            "dirty_ratelimit", "task_ratelimit", "pause", "think",
                            "cgroup_ino"),
    "bdi_dirty_ratelimit": ("write_bw", "awrite_bw", "dirty_rate", "dirty_ratelimit",
                            "task_ratelimit", "balanced_dirty_ratelimit", "cgroup_ino"),
    "writeback_single_inode": ("ino", "wrote", "cgroup_ino"),
    "writeback_single_inode_start": ("ino", "cgroup_ino"),
    "wbc_writepage": ("cgroup_ino",),
    "inode_switch_wbs": ("ino", "old_cgroup_ino", "new_cgroup_ino"),
    "inode_foreign_history": ("ino", "cgroup_ino", "history"),
    "track_foreign_dirty": ("ino", "cgroup_ino", "page_cgroup_ino"),
    "flush_foreign": ("cgroup_ino",),
    "writeback_wake_background": ("cgroup_ino",),
    "writeback_queue": ("cgroup_ino",),
    "writeback_exec": ("cgroup_ino",),
    "writeback_start": ("cgroup_ino",),
    "writeback_written": ("cgroup_ino",),
    "writeback_wait": ("cgroup_ino",),
    "writeback_queue_io": ("cgroup_ino",),
    "writeback_sb_inodes_requeue": ("ino", "cgroup_ino"),
    "writeback_write_inode_start": ("ino", "cgroup_ino"),
    "writeback_write_inode": ("ino", "cgroup_ino"),
    "writeback_dirty_folio": ("ino",),
    "writeback_mark_inode_dirty": ("ino",),
    "writeback_dirty_inode_start": ("ino",),
    "writeback_dirty_inode": ("ino",),
    "writeback_pages_written": (),
}


class Event:
    """One trace line: time in seconds, event name, bdi (or None) and its fields."""
    __slots__ = ("t", "name", "task", "pid", "bdi", "f")

    def __init__(self, t, name, task, pid, bdi, fields):
        self.t, self.name, self.task, self.pid, self.bdi, self.f = t, name, task, pid, bdi, fields


class Trace:
    """The events of one file, in time order, and what could not be read."""

    def __init__(self, path):
        self.path = path
        self.events = []
        self.malformed = 0
        self.first_malformed = None   # (line number, text)
        self.unknown = {}             # event name -> lines

    def _bad(self, lineno, text):
        self.malformed += 1
        if self.first_malformed is None:
            self.first_malformed = (lineno, text.strip()[:100])

    def duration(self):
        return self.events[-1].t - self.events[0].t if self.events else 0.0

    def counts(self):
        n = {}
        for e in self.events:
            n[e.name] = n.get(e.name, 0) + 1
        return n


def _number(v):
    """A field's value: decimal (signed) or 0x hex; None for text (reason=, state=)."""
    try:
        return int(v, 16) if v.startswith("0x") else int(v)
    except ValueError:
        return None


def parse_line(line):
    """(Event, None), (None, event name) for an unknown event, or (None, None) if malformed."""
    m = LINE_RE.match(line)
    if not m:
        return None, None
    name, text = m.group("event"), m.group("text")
    if name not in KNOWN_EVENTS:
        return None, name
    bdi = None
    b = BDI_RE.match(text)
    if b:
        bdi = b.group("bdi")
        text = text[b.end():]
    fields = {}
    if name == "writeback_pages_written":    # TP_printk("%ld", pages)
        v = _number(text.strip())
        if v is None:
            return None, None
        fields["pages"] = v
    for k, v in FIELD_RE.findall(text):
        n = _number(v)
        fields[k] = n if n is not None else v
    for k in KNOWN_EVENTS[name]:
        if not isinstance(fields.get(k), int):
            return None, None
    return Event(float(m.group("ts")), name, m.group("task").strip(), int(m.group("pid")),
                 bdi, fields), None


def read_trace(path):
    tr = Trace(path)
    with open(path, errors="replace") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            ev, unknown = parse_line(line.rstrip("\n"))
            if ev:
                tr.events.append(ev)
            elif unknown:
                tr.unknown[unknown] = tr.unknown.get(unknown, 0) + 1
            else:
                tr._bad(lineno, line)
    tr.events.sort(key=lambda e: e.t)
    return tr
