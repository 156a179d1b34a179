"""The figures: one per wb (six panels over time) and a summary overlaying all wbs.

Panels of a wb's figure, after the well-known plots of balance_dirty_pages dynamics:
  domain      global dirty pages (global_dirty_state) with the background, freerun, dirty
              threshold and limit marks; the throttling domain's dirty, setpoint and limit as
              balance_dirty_pages saw them for this wb (the memcg's domain when it throttled)
  wb          the wb's dirty pages against its setpoint (balance_dirty_pages)
  ratelimits  dirty_ratelimit, balanced_dirty_ratelimit (bdi_dirty_ratelimit) and each
              pause's task_ratelimit (balance_dirty_pages)
  bandwidth   write_bw, awrite_bw, dirty_rate (bdi_dirty_ratelimit), the rate of pages the
              wb wrote (writeback_single_inode), and the io.stat rate if samples were given
  pauses      pause, think and period of each balance_dirty_pages line
  events      inode switches in and out, foreign-history and other marker events
Inode switches are also drawn as vertical lines on every panel.
"""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from . import series  # noqa: E402

DPI = 72
SIZE = (12, 9)


def _note_empty(ax, what):
    ax.text(0.5, 0.5, "no %s lines in the trace" % what, transform=ax.transAxes,
            ha="center", va="center", color="gray")


def _line(ax, s, key, label, **kw):
    if key in s:
        few = len(s[key][0]) < 3    # a step line of one point would not show
        ax.plot(*s[key], label=label, drawstyle="steps-post", linewidth=1,
                marker="." if few else None, **kw)
        return True
    return False


def _dots(ax, s, key, label, **kw):
    if key in s:
        ax.plot(*s[key], linestyle="none", marker=kw.pop("marker", "."), markersize=3,
                label=label, **kw)
        return True
    return False


def _finish(ax, ylabel, drew, what):
    ax.set_ylabel(ylabel)
    ax.grid(True, alpha=0.3)
    if drew:
        ax.legend(fontsize=7, loc="upper right")
        if ax.get_ylim()[0] > 0:    # from 0, unless values are negative (think, pause)
            ax.set_ylim(bottom=0)
    else:
        _note_empty(ax, what)


def _domain(ax, g, w):
    drew = False
    for key, label, style in (("limit", "limit", "r-"), ("thresh", "dirty thresh", "m-"),
                              ("freerun", "freerun", "c-"), ("bg_thresh", "background", "g-")):
        if key in g:
            ax.plot(*g[key], style, label=label, drawstyle="steps-post", linewidth=0.8)
            drew = True
    drew |= _line(ax, g, "dirty_wb", "global dirty + writeback", color="k")
    drew |= _line(ax, g, "dirty", "global dirty", color="gray")
    drew |= _dots(ax, w.s, "dom_setpoint", "setpoint (bdp)", color="orange", marker="x")
    drew |= _dots(ax, w.s, "dom_dirty", "domain dirty (bdp)", color="b")
    drew |= _dots(ax, w.s, "dom_limit", "domain limit (bdp)", color="r", marker="_")
    ax.set_title("domain dirty pages and limits", fontsize=9)
    _finish(ax, "MiB (4 KiB pages)", drew, "global_dirty_state / balance_dirty_pages")


def _wb_dirty(ax, w):
    drew = _dots(ax, w.s, "wb_dirty", "wb dirty", color="b")
    drew |= _dots(ax, w.s, "wb_setpoint", "wb setpoint", color="orange", marker="x")
    ax.set_title("wb dirty pages against its setpoint", fontsize=9)
    _finish(ax, "MiB (4 KiB pages)", drew, "balance_dirty_pages")


def _ratelimits(ax, w):
    drew = _line(ax, w.s, "dirty_ratelimit", "dirty_ratelimit", color="b")
    drew |= _line(ax, w.s, "balanced_dirty_ratelimit", "balanced_dirty_ratelimit", color="g")
    drew |= _dots(ax, w.s, "bdp_task_ratelimit", "task_ratelimit (bdp)", color="r")
    ax.set_title("ratelimits", fontsize=9)
    _finish(ax, "MiB/s", drew, "bdi_dirty_ratelimit / balance_dirty_pages")


def _bandwidth(ax, w, duration, iostat):
    drew = _line(ax, w.s, "write_bw", "write_bw", color="b")
    drew |= _line(ax, w.s, "awrite_bw", "awrite_bw", color="c")
    drew |= _line(ax, w.s, "dirty_rate", "dirty_rate", color="orange")
    rate = series.write_rate(w, duration)
    if rate:
        ax.plot(*rate, drawstyle="steps-post", color="k", linewidth=1,
                label="written (writeback events)")
        drew = True
    if iostat:
        ax.plot(*iostat, drawstyle="steps-post", color="m", linewidth=1, label="io.stat wbytes")
        drew = True
    ax.set_title("write bandwidth and write rate", fontsize=9)
    _finish(ax, "MiB/s", drew, "bdi_dirty_ratelimit / writeback_single_inode")


def _pauses(ax, w):
    drew = _dots(ax, w.s, "pause", "pause", color="r")
    drew |= _dots(ax, w.s, "think", "think", color="g")
    drew |= _dots(ax, w.s, "period", "period", color="b", marker="_")
    ax.set_title("balance_dirty_pages pause and think times", fontsize=9)
    _finish(ax, "ms", drew, "balance_dirty_pages")


def _events(ax, w):
    names = sorted(w.marks)
    for i, name in enumerate(names):
        ts = w.marks[name][0]
        ax.plot(ts, [i] * len(ts), linestyle="none", marker="|", markersize=10,
                label="%s (%d)" % (name, len(ts)))
    ax.set_yticks(range(len(names)))
    ax.set_yticklabels(names, fontsize=7)
    ax.set_ylim(-1, max(len(names), 1))
    ax.set_ylabel("event")
    ax.grid(True, axis="x", alpha=0.3)
    ax.set_title("inode switches and foreign-writeback events", fontsize=9)
    if not names:
        _note_empty(ax, "inode_switch_wbs or foreign-writeback")


def _switch_lines(axes, w):
    for key, color in (("switch out", "red"), ("switch in", "green")):
        for t in w.marks.get(key, ([], []))[0]:
            for ax in axes:
                ax.axvline(t, color=color, alpha=0.25, linewidth=0.8)


def run_params(trace):
    """The title's last lines: file, duration, the events with their counts."""
    top = sorted(trace.counts().items(), key=lambda kv: -kv[1])
    evs = ["%s %d" % kv for kv in top]
    lines = ["%s: %d events over %.2f s" % (trace.path.split("/")[-1], len(trace.events),
                                            trace.duration())]
    while evs:      # a few per line, so the title fits the figure
        lines.append(", ".join(evs[:5]))
        evs = evs[5:]
    return "\n".join(lines[:4]) + (" ..." if len(lines) > 4 else "")


def _time_axis(axs, duration, t0):
    for ax in axs:
        ax.set_xlim(0, max(duration, 0.001))
        ax.set_xlabel("time (s) since the first event, at %.6f s" % t0)


def wb_label(w, names):
    name = names.get(w.ino)
    return "bdi %s cgroup_ino %d%s" % (w.bdi, w.ino, " (%s)" % name if name else "")


def wb_figure(path, trace, g, w, names, iostat):
    fig, axs = plt.subplots(3, 2, figsize=SIZE, dpi=DPI, sharex=True)
    duration = trace.duration()
    _domain(axs[0][0], g, w)
    _wb_dirty(axs[0][1], w)
    _ratelimits(axs[1][0], w)
    _bandwidth(axs[1][1], w, duration, iostat)
    _pauses(axs[2][0], w)
    _events(axs[2][1], w)
    _switch_lines([a for row in axs for a in row], w)
    _time_axis(axs[2], duration, trace.events[0].t)
    fig.suptitle("%s\n%s" % (wb_label(w, names), run_params(trace)), fontsize=9)
    fig.tight_layout(rect=(0, 0, 1, 0.92))
    fig.savefig(path)
    plt.close(fig)


def summary_figure(path, trace, g, wbs, names):
    fig, axs = plt.subplots(2, 2, figsize=SIZE, dpi=DPI, sharex=True)
    duration = trace.duration()
    drew = [False] * 4
    drew[0] = _line(axs[0][0], g, "dirty_wb", "global dirty + writeback", color="k")
    for i, w in enumerate(wbs):
        label, color = wb_label(w, names), "C%d" % (i % 10)   # one colour per wb throughout
        drew[0] |= _dots(axs[0][0], w.s, "wb_dirty", label + " dirty", color=color)
        drew[1] |= _line(axs[0][1], w.s, "dirty_ratelimit", label, color=color)
        rate = series.write_rate(w, duration)
        if rate:
            axs[1][0].plot(*rate, drawstyle="steps-post", linewidth=1, label=label, color=color)
            drew[2] = True
        drew[3] |= _dots(axs[1][1], w.s, "pause", label, color=color)
    axs[0][0].set_title("dirty pages (global, and each wb's at its pauses)", fontsize=9)
    axs[0][1].set_title("dirty_ratelimit of each wb", fontsize=9)
    axs[1][0].set_title("write rate of each wb (writeback events)", fontsize=9)
    axs[1][1].set_title("balance_dirty_pages pauses", fontsize=9)
    _finish(axs[0][0], "MiB (4 KiB pages)", drew[0], "global_dirty_state / balance_dirty_pages")
    _finish(axs[0][1], "MiB/s", drew[1], "bdi_dirty_ratelimit")
    _finish(axs[1][0], "MiB/s", drew[2], "writeback_single_inode / wbc_writepage")
    _finish(axs[1][1], "ms", drew[3], "balance_dirty_pages")
    _time_axis(axs[1], duration, trace.events[0].t)
    fig.suptitle("all wbs\n%s" % run_params(trace), fontsize=9)
    fig.tight_layout(rect=(0, 0, 1, 0.92))
    fig.savefig(path)
    plt.close(fig)
