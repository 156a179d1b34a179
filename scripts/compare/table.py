#!/usr/bin/env python3
"""The figures of `make compare`: one row per workload and RESULT key, with Linux's and
cgwb's median (min..max) over the runs and the ratio of the medians (cgwb / Linux).

  table.py RESULTS        RESULTS: lines "kernel workload run key value"
"""
import statistics
import sys


def num(v):
    """Whole numbers as they are (32772, not 3.2772e+04), others with two decimals."""
    return "%d" % v if v == int(v) else "%.2f" % v


def cell(values):
    if not values:
        return "-"
    return "%s (%s..%s)" % (num(statistics.median(values)), num(min(values)), num(max(values)))


def main():
    figures = {}
    for line in open(sys.argv[1]):
        parts = line.split()
        if len(parts) != 5:
            continue
        kernel, workload, _, key, value = parts
        try:
            v = float(value)
        except ValueError:
            continue
        figures.setdefault((workload, key), {"linux": [], "cgwb": []})[kernel].append(v)
    print("| workload | figure | Linux median (min..max) | cgwb median (min..max) | cgwb/Linux |")
    print("|---|---|---|---|---|")
    for (workload, key), runs in sorted(figures.items()):
        lin, cg = runs["linux"], runs["cgwb"]
        ratio = "-"
        if lin and cg and statistics.median(lin):
            ratio = "%.2f" % (statistics.median(cg) / statistics.median(lin))
        print("| %s | %s | %s | %s | %s |" % (workload, key, cell(lin), cell(cg), ratio))


if __name__ == "__main__":
    main()
