# `make compare FIO=...` once, short: a job file of two jobs (one in a group through fio's
# own cgroup= option, set up by the job's .sh; one fsyncing) on Debian's Linux and on cgwb,
# one run each: the per-job table must have both kernels' figures, the group's io.stat
# its job's bytes on both, fio's JSON and the plots of both sides must be there. Bad arguments are refused before any boot. Skipped
# when Debian's packages cannot be fetched or fio could not be built.
if [[ ! -x $SYS_ROOT/build/fio ]]; then
	skip "Debian's fio could not be fetched and built"
	return 0
fi
cat > "$T/two.fio" <<'JOB'
[global]
directory=/mnt
ioengine=psync
create_serialize=0
[grouped]
cgroup=g
rw=write
bs=64k
size=8M
end_fsync=1
[fsyncing]
rw=randwrite
bs=4k
size=2M
fsync=16
JOB
echo 'mkdir -p /sys/fs/cgroup/g; echo 64M > /sys/fs/cgroup/g/memory.max' > "$T/two.sh"
COMPARE_TIMEOUT=${COMPARE_TIMEOUT:-180} "$SYS_ROOT/scripts/compare/fio" -o "$T/compare" "$T/two.fio" > "$T/compare.out" 2> "$T/compare.err"
rc=$?
if [[ $rc -eq 3 ]]; then
	skip "Debian's linux-image and busybox-static cannot be fetched ($(tail -n 1 "$T/compare.err"))"
	return 0
fi
[[ $rc -eq 0 ]] || fail "scripts/compare/fio exited with $rc: $(tail -n 5 "$T/compare.out" "$T/compare.err" | tr '\n' '|')"
num='[0-9.]+ \([0-9.]+\.\.[0-9.]+\)'
for row in 'grouped \| write \| bw MiB/s' 'grouped \| write \| clat p99 us' \
	'fsyncing \| write \| IOPS' 'fsyncing \| fsync \| lat p50 us'; do
	# "| two | grouped | write | bw MiB/s | 80.10 (80.10..80.10) | 120.50 (...) | 1.50 |"
	grep -Eq "^\| two \| $row \| $num \| $num \| [0-9.]+ \|$" "$T/compare.out" ||
		fail "no Linux and cgwb figures for '$row': $(tr '\n' '|' < "$T/compare.out")"
done
# the grouped job ran in g on both kernels (fio's cgroup=): g's io.stat has its 8 MiB
# "| fio-two | g_wbytes_kib | 8196 (8196..8196) | 8200 (8200..8200) | 1.00 |"
read -r lin cg < <(awk -F'|' '$2 == " fio-two " && $3 == " g_wbytes_kib " { print $4 + 0, $5 + 0 }' "$T/compare.out")
expect_num "Linux's g wrote (KiB)" "${lin:-x}" -ge 8192
expect_num "cgwb's g wrote (KiB)" "${cg:-x}" -ge 8192
for k in linux cgwb; do
	python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["jobs"][0]["error"] == 0' \
		"$T/compare/json/two.$k.1.json" || fail "fio's JSON of $k is missing or reports an error"
	ls "$T/compare/plots/fio-two.$k"*.png > /dev/null 2>&1 || fail "no plots of $k's run"
done
# refused before a boot: a file that is not a job file, and none at all
"$SYS_ROOT/scripts/compare/fio" -o "$T/bad" "$T/two.sh" > /dev/null 2> "$T/bad.err"
expect_num "status of a .sh given as a job file" $? -eq 2
grep -q "is not a .fio job file" "$T/bad.err" || fail "no message for a bad job file: $(cat "$T/bad.err")"
"$SYS_ROOT/scripts/compare/fio" -o "$T/bad" > /dev/null 2>&1
expect_num "status with no job file" $? -eq 2
