# fio, Debian's 3.33 built static from its source (scripts/build-fio), unmodified: the psync,
# sync, pvsync2 and mmap engines, threads and processes (numjobs), direct=1, fsync=32,
# end_fsync, time_based, random and backwards patterns, fio's own example jobs
# (backwards-read.fio, waitfor.fio), and --output-format=json with fio's keys, beside
# jobs in two groups with cgexec whose io.stat counts each group's writes.
[[ -x $PROGRAMS/fio ]] || skip "Debian's fio could not be fetched and built"
programs_image "$T/prog.img" 512M
examples=$(ls -d "$SYS_ROOT"/build/fio-build/src/fio-*/examples 2> /dev/null | head -n 1)
[[ -n $examples ]] || fail "fio's examples are not in build/fio-build"
mkdir -p "$T/progtree/examples" && cp "$examples/backwards-read.fio" "$examples/waitfor.fio" \
	"$T/progtree/examples/" && PATH=$PATH:/usr/sbin:/sbin mke2fs -q -F -t ext4 -d "$T/progtree" \
	"$T/prog.img" 512M > /dev/null 2>&1 || fail "mke2fs with fio's examples"
guest_script <<'GUEST'
cd /mnt
/mnt/bin/fio --name=seq --filename=/mnt/seq --size=16M --bs=1M --rw=write --ioengine=psync --end_fsync=1 --output-format=json > /mnt/seq.json
echo seq=$?
/mnt/bin/fio --name=rnd --filename=/mnt/rnd --size=8M --bs=4k --rw=randwrite --ioengine=psync --fsync=32 --thread --minimal > /dev/null
echo rnd=$?
/mnt/bin/fio --name=two --filename=/mnt/two --size=8M --bs=64k --rw=write --ioengine=sync --numjobs=2 --minimal > /dev/null
echo procs=$?
/mnt/bin/fio --name=pv --filename=/mnt/pv --size=8M --bs=64k --rw=randrw --ioengine=pvsync2 --thread --minimal > /dev/null
echo pvsync2=$?
/mnt/bin/fio --name=mm --filename=/mnt/mm --size=8M --bs=64k --rw=write --ioengine=mmap --minimal > /dev/null
echo mmap=$?
/mnt/bin/fio --name=dio --filename=/mnt/dio --size=8M --bs=1M --rw=write --ioengine=psync --direct=1 --minimal > /dev/null
echo direct=$?
/mnt/bin/fio --name=tb --filename=/mnt/tb --size=4M --bs=4k --rw=randread --ioengine=psync --time_based --runtime=1 --minimal > /dev/null
echo time_based=$?
/mnt/bin/fio /mnt/examples/backwards-read.fio --minimal > /dev/null
echo backwards=$?
/mnt/bin/fio /mnt/examples/waitfor.fio --minimal > /dev/null
echo waitfor=$?
cd /sys/fs/cgroup
echo +io > cgroup.subtree_control
mkdir A B
cgexec -g A /mnt/bin/fio --name=a --filename=/mnt/a --size=8M --bs=1M --rw=write --ioengine=psync --end_fsync=1 --minimal > /dev/null &
cgexec -g B /mnt/bin/fio --name=b --filename=/mnt/b --size=4M --bs=1M --rw=write --ioengine=psync --end_fsync=1 --minimal > /dev/null &
wait %1 %2
echo groups=$?
echo A-io: $(cat A/io.stat)
echo B-io: $(cat B/io.stat)
echo ===json
cat /mnt/seq.json
echo ===end
poweroff 0
GUEST
run_guest --disk "$T/prog.img" --smp 2 --timeout 300
expect_status 0
for w in seq rnd procs pvsync2 mmap direct time_based backwards waitfor groups; do
	expect_line "$w=0"
done
for gm in A:8 B:4; do
	g=${gm%:*}
	v=$(sed -n "s/^$g-io: .*wbytes=\([0-9]*\).*/\1/p" "$OUT")
	expect_num "$g's io.stat wbytes" "${v:-x}" -ge $((${gm#*:} << 20))
done
sed -n '/^===json$/,/^===end$/p' "$OUT" | sed '1d;$d' > "$T/seq.json"
python3 - "$T/seq.json" << 'PY' || fail "fio's JSON is not what Linux's fio gives"
import json, sys
d = json.load(open(sys.argv[1]))
top = {"fio version", "timestamp", "timestamp_ms", "time", "jobs", "disk_util"}
job = {"jobname", "groupid", "error", "elapsed", "job options", "read", "write", "trim",
       "sync", "job_runtime", "usr_cpu", "sys_cpu", "ctx", "majf", "minf", "latency_ns",
       "latency_us", "latency_ms"}
io = {"io_bytes", "bw", "iops", "runtime", "slat_ns", "clat_ns", "lat_ns", "bw_min", "bw_max"}
missing = (top - d.keys()) | (job - d["jobs"][0].keys()) | (io - d["jobs"][0]["write"].keys())
assert not missing, missing
assert d["jobs"][0]["error"] == 0 and d["jobs"][0]["write"]["io_bytes"] == 16 << 20
assert "percentile" in d["jobs"][0]["write"]["clat_ns"]
PY
