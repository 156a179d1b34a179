#!/usr/bin/env python3
"""The figures of `make compare`: one row per workload and RESULT key, with each kernel's
median (min..max) over the runs and the ratio of each cgwb column's median to Linux's.

  table.py RESULTS        RESULTS: lines "kernel workload run key value"

Kernels are "linux", "cgwb" and "cgwb-POLICY" (cgwb with another dirty-throttling policy,
scripts/compare/run), in that order; with only linux and cgwb the table has one ratio.
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


def label(kernel):
    """cgwb-bandwidth: "cgwb, bandwidth"."""
    if kernel == "linux":
        return "Linux"
    return kernel.replace("-", ", ", 1)


def ratio(lin, other):
    if lin and other and statistics.median(lin):
        return "%.2f" % (statistics.median(other) / statistics.median(lin))
    return "-"


def main():
    figures = {}
    kernels = ["linux", "cgwb"]
    for line in open(sys.argv[1]):
        parts = line.split()
        if len(parts) != 5:
            continue
        kernel, workload, _, key, value = parts
        try:
            v = float(value)
        except ValueError:
            continue
        if kernel not in kernels:
            kernels.append(kernel)
        figures.setdefault((workload, key), {}).setdefault(kernel, []).append(v)
    others = kernels[1:]
    head = ["workload", "figure"] + ["%s median (min..max)" % label(k) for k in kernels]
    head += ["%s/Linux" % label(k) for k in others]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for (workload, key), runs in sorted(figures.items()):
        lin = runs.get("linux", [])
        row = [workload, key] + [cell(runs.get(k, [])) for k in kernels]
        row += [ratio(lin, runs.get(k, [])) for k in others]
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
