#!/usr/bin/env python3
"""fio's figures of `make compare FIO=...`, Linux's and cgwb's side by side: per job file,
job and direction (read, write) the bandwidth, IOPS and completion latency percentiles,
and for jobs that fsync, the fsync latency; median (min..max) over the runs and the ratio
of the medians (cgwb / Linux). Jobs of one name (numjobs without group_reporting) are told
apart as NAME#2, NAME#3... in fio's order.

  fio-table.py DIR        DIR: fio's JSON output, JOBFILE.KERNEL.RUN.json
"""
import glob
import json
import os
import statistics
import sys

from table import cell

DIRECTIONS = ("read", "write", "trim", "fsync")
PERCENTILES = (("p50", "50.000000"), ("p99", "99.000000"), ("p99.9", "99.900000"))


def job_figures(job):
    """(direction, figure, value) of one job of fio's JSON."""
    for d in DIRECTIONS[:3]:
        io = job.get(d, {})
        if not io.get("io_bytes"):
            continue
        yield d, "bw MiB/s", round(io["bw"] / 1024, 1)
        yield d, "IOPS", round(io["iops"])
        pct = io.get("clat_ns", {}).get("percentile", {})
        for name, key in PERCENTILES:
            if key in pct:
                yield d, "clat %s us" % name, round(pct[key] / 1e3)
    sync = job.get("sync", {})
    if sync.get("total_ios"):
        pct = sync.get("lat_ns", {}).get("percentile", {})
        for name, key in PERCENTILES:
            if key in pct:
                yield "fsync", "lat %s us" % name, round(pct[key] / 1e3)


def load(directory):
    """{(jobfile, job, direction, figure): {kernel: [values]}} and the runs that failed."""
    figures, broken = {}, []
    for path in sorted(glob.glob(os.path.join(directory, "*.json"))):
        jobfile, kernel, _ = os.path.basename(path)[:-len(".json")].rsplit(".", 2)
        try:
            data = json.load(open(path))
        except ValueError as e:
            broken.append("%s: fio's JSON does not parse (%s)" % (os.path.basename(path), e))
            continue
        seen = {}
        for job in data.get("jobs", []):
            name = job["jobname"]
            seen[name] = seen.get(name, 0) + 1
            if seen[name] > 1:
                name = "%s#%d" % (name, seen[name])
            if job.get("error"):
                broken.append("%s: job %s ended with error %d" % (os.path.basename(path), name, job["error"]))
            for d, figure, v in job_figures(job):
                key = (jobfile, name, d, figure)
                figures.setdefault(key, {"linux": [], "cgwb": []}).setdefault(kernel, []).append(v)
    return figures, broken


def main():
    figures, broken = load(sys.argv[1])
    print("| job file | job | io | figure | Linux median (min..max) | cgwb median (min..max) | cgwb/Linux |")
    print("|---|---|---|---|---|---|---|")
    order = {d: i for i, d in enumerate(DIRECTIONS)}
    rows = sorted(figures.items(), key=lambda kv: (kv[0][0], kv[0][1], order[kv[0][2]]))
    for (jobfile, job, d, figure), runs in rows:
        lin, cg = runs["linux"], runs["cgwb"]
        ratio = "-"
        if lin and cg and statistics.median(lin):
            ratio = "%.2f" % (statistics.median(cg) / statistics.median(lin))
        print("| %s | %s | %s | %s | %s | %s | %s |" % (jobfile, job, d, figure, cell(lin), cell(cg), ratio))
    for b in broken:
        print("\n%s" % b)
    if not figures:
        print("\nno fio figures: see the runs' console logs")
    return 1 if broken or not figures else 0


if __name__ == "__main__":
    sys.exit(main())
