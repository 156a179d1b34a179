# Sourced by benchmarks: Linux 6.1 measured in the same run, on the same QEMU hardware,
# through `make compare`'s machinery (Linux only, no traces).
#
#   linux_reference WORKLOAD RUNS DIR
#
# runs examples/workloads/WORKLOAD.sh on Linux RUNS times (output in DIR) and sets
# linux[KEY] to the median of each of its RESULT keys. Leaves linux empty, with a message,
# when Linux cannot be run here (no Debian packages offline, or GROUPS/ISO_BENCH_LINUX=0 in
# the caller): the caller then prints figures of earlier runs. The caller's own cgwb boots
# open their disk with $COMPARE_DISK_OPTS, as the reference's do.
source scripts/compare/hardware.sh
declare -A linux=()
linux_reference()
{
	local workload=$1 runs=$2 dir=$3 key value
	rm -rf "$dir"
	mkdir -p "$dir"
	COMPARE_KERNELS=linux PLOTS=0 scripts/compare/run -n "$runs" -w "$workload" -o "$dir" \
		> "$dir/log" 2>&1 || { echo "bench: no Linux reference for $workload (see $dir/log)" >&2; return; }
	while read -r key value; do
		linux[$key]=$value
	done < <(awk '$1 == "linux" { print $4, $5 }' "$dir/results" | sort -k1,1 -k2,2n |
		 awk '{ v[$1] = v[$1] " " $2 } END { for (k in v) { n = split(v[k], a, " ");
			print k, (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 } }')
}
