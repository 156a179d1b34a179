"""From trace events to the time series the figures draw: per wb (bdi, cgroup_ino) and for
the global domain. Units are converted here, once: pages to MiB (4 KiB pages, as on x86_64
for both Linux and cgwb), the KB/s of the ratelimit fields to MiB/s, times to seconds since
the trace's first event.
"""
PAGE_MIB = 4096 / (1 << 20)
KBPS_MIBPS = 1 / 1024.0


class Series(dict):
    """name -> ([t...], [value...])"""

    def add(self, name, t, v):
        ts, vs = self.setdefault(name, ([], []))
        ts.append(t)
        vs.append(v)


class Wb:
    """What the trace says about one wb: its throttling, bandwidth and marker events."""

    def __init__(self, bdi, ino):
        self.bdi, self.ino = bdi, ino
        self.s = Series()
        self.marks = Series()       # marker events: name -> (times, 1s)
        self.written = []           # (t, pages) from writeback_single_inode / wbc_writepage
        self.nevents = 0


def _wb(wbs, bdi, ino):
    key = (bdi or "?", ino)
    if key not in wbs:
        wbs[key] = Wb(*key)
    return wbs[key]


def _global(s, t, f):
    s.add("dirty", t, f["dirty"] * PAGE_MIB)
    s.add("writeback", t, f["writeback"] * PAGE_MIB)
    # what balance_dirty_pages() counts as the domain's dirty: dirty and under writeback
    s.add("dirty_wb", t, (f["dirty"] + f["writeback"]) * PAGE_MIB)
    s.add("bg_thresh", t, f["bg_thresh"] * PAGE_MIB)
    s.add("thresh", t, f["thresh"] * PAGE_MIB)
    # Linux's dirty_freerun_ceiling(): halfway between the background and dirty thresholds
    s.add("freerun", t, (f["thresh"] + f["bg_thresh"]) / 2 * PAGE_MIB)
    s.add("limit", t, f["limit"] * PAGE_MIB)


def _balance(w, t, f):
    s = w.s
    s.add("dom_limit", t, f["limit"] * PAGE_MIB)
    s.add("dom_setpoint", t, f["setpoint"] * PAGE_MIB)
    s.add("dom_dirty", t, f["dirty"] * PAGE_MIB)
    s.add("wb_setpoint", t, f["bdi_setpoint"] * PAGE_MIB)
    s.add("wb_dirty", t, f["bdi_dirty"] * PAGE_MIB)
    s.add("bdp_dirty_ratelimit", t, f["dirty_ratelimit"] * KBPS_MIBPS)
    s.add("bdp_task_ratelimit", t, f["task_ratelimit"] * KBPS_MIBPS)
    s.add("pause", t, f["pause"])
    s.add("think", t, f["think"])
    if isinstance(f.get("period"), int):
        s.add("period", t, f["period"])


def _ratelimit(w, t, f):
    s = w.s
    for k in ("write_bw", "awrite_bw", "dirty_rate", "dirty_ratelimit", "task_ratelimit",
              "balanced_dirty_ratelimit"):
        s.add(k, t, f[k] * KBPS_MIBPS)


# Events drawn as markers, on the wb named by the field given
MARKERS = {
    "inode_foreign_history": "cgroup_ino",
    "track_foreign_dirty": "cgroup_ino",
    "flush_foreign": "cgroup_ino",
    "writeback_wake_background": "cgroup_ino",
}


def build(trace):
    """(global Series, {(bdi, ino): Wb}) with times relative to the first event."""
    g = Series()
    wbs = {}
    if not trace.events:
        return g, wbs
    t0 = trace.events[0].t
    for e in trace.events:
        t, f = e.t - t0, e.f
        if e.name == "global_dirty_state":
            _global(g, t, f)
            continue
        if e.name == "inode_switch_wbs":
            # one marker on the wb the inode leaves, one on the wb it joins
            _wb(wbs, e.bdi, f["old_cgroup_ino"]).marks.add("switch out", t, 1)
            _wb(wbs, e.bdi, f["new_cgroup_ino"]).marks.add("switch in", t, 1)
            continue
        ino = f.get("cgroup_ino")
        if not isinstance(ino, int) or e.bdi is None:
            continue
        w = _wb(wbs, e.bdi, ino)
        w.nevents += 1
        if e.name == "balance_dirty_pages":
            _balance(w, t, f)
        elif e.name == "bdi_dirty_ratelimit":
            _ratelimit(w, t, f)
        elif e.name == "writeback_single_inode":
            w.written.append((t, f["wrote"]))
        elif e.name == "wbc_writepage":
            w.written.append((t, None))     # one page each, used when nothing better is there
        elif e.name in MARKERS:
            w.marks.add(e.name, t, 1)
    return g, wbs


def write_rate(w, duration):
    """([bin start...], [MiB/s...]) of the pages this wb wrote, in bins over the trace.
    wbc_writepage lines (one page each, every writer: the flusher, fsync, sync) when the
    trace has them, else writeback_single_inode's wrote= (the flusher's writes only: an
    fsync's pages are not in it). None when neither is there."""
    counted = [(t, 1) for t, p in w.written if p is None]
    if not counted:
        counted = [(t, p) for t, p in w.written if p is not None]
    if not counted:
        return None
    width = 1.0 if duration >= 20 else max(duration / 20, 0.05)
    nbins = int(duration / width) + 1
    pages = [0] * nbins
    for t, p in counted:
        pages[min(int(t / width), nbins - 1)] += p
    return [i * width for i in range(nbins)], [p * PAGE_MIB / width for p in pages]


def iostat_rates(path, t0):
    """A sampled io.stat file: lines "SECONDS CGROUP MAJ:MIN rbytes=N wbytes=N ...", one per
    sample (SECONDS on the trace's clock, e.g. /proc/uptime). Returns {(cgroup, dev):
    ([t...], [MiB/s...])}: the wbytes delta per second between samples."""
    last, rates = {}, {}
    with open(path) as fh:
        for line in fh:
            parts = line.split()
            if len(parts) < 4:
                continue
            try:
                t = float(parts[0])
                wbytes = int(dict(p.split("=", 1) for p in parts[3:] if "=" in p)["wbytes"])
            except (ValueError, KeyError):
                continue
            key = (parts[1], parts[2])
            if key in last and t > last[key][0]:
                ts, vs = rates.setdefault(key, ([], []))
                ts.append(t - t0)
                vs.append((wbytes - last[key][1]) / (t - last[key][0]) / (1 << 20))
            last[key] = (t, wbytes)
    return rates
