# Writing through shared mappings (tests/programs/mmapw.c) on an ext4 image: a child's stores
# through shared anonymous and file mappings reach its parent and private ones do not; 8 MiB
# written through a mapping, msync'd and read back with pread; a store past the file's end
# after a truncate is a bus error (135). Touching a 16 MiB mapping page by page after
# drop_caches reads around each missing page (Linux's mmap read-around, 128 KiB windows,
# the next one started ahead): a few hundred reads, not one per page. Touched again, cached,
# each fault maps the 64 KiB around it (Linux's fault-around): 256 faults, not 4096. A
# program in a group at memory.max 64M writing a
# 256 MiB shared mapping is throttled as a writer is: the group's dirty + writeback pages
# stay at or below a quarter of its limit, nothing is OOM-killed, and every page reads back.
# A group at 64M reading a 256 MiB file once (sha256sum) is not OOM-killed either: reclaim
# frees clean pages used once. Two mapping writers in that group beside a loop of drop_caches
# on two CPUs both finish with their data intact. The disk is e2fsck-clean afterwards (the
# harness checks).
programs_image "$T/prog.img" 640M
guest_script <<'GUEST'
/mnt/bin/mmapw fork /mnt/forked
/mnt/bin/mmapw write /mnt/w8 8
echo w8=$?
/mnt/bin/mmapw past /mnt/past
echo past=$?
dd if=/dev/zero of=/mnt/r16 bs=1M count=16 2> /dev/null
sync
echo 3 > /proc/sys/vm/drop_caches
read r0 rest < /sys/block/vda/stat
/mnt/bin/mmapw touch /mnt/r16
read r1 rest < /sys/block/vda/stat
echo touch-reads $((r1 - r0))
/mnt/bin/mmapw touch /mnt/r16
cd /sys/fs/cgroup
echo +memory > cgroup.subtree_control
mkdir G
echo 64M > G/memory.max
cgexec -g G /mnt/bin/mmapw write /mnt/big 256 /sys/fs/cgroup/G/memory.stat
echo big=$?
echo G-events: $(cat G/memory.events)
sync
echo 3 > /proc/sys/vm/drop_caches
cgexec -g G sha256sum /mnt/big > /dev/null
echo read=$?
echo G-events: $(cat G/memory.events)
cgexec -g G /mnt/bin/mmapw write /mnt/c1 48 &
cgexec -g G /mnt/bin/mmapw write /mnt/c2 48 &
for i in $(seq 1 40); do echo 3 > /proc/sys/vm/drop_caches; sleep 0.05; done
wait %1
echo c1=$?
wait %2
echo c2=$?
poweroff 0
GUEST
run_guest --disk "$T/prog.img" --smp 2 --timeout 300
expect_status 0
expect_line "after the child: shared anonymous 42, shared file 43, private 1"
expect_line "wrote and read back 8 MiB"
expect_line "w8=0"
expect_line "first page still 1"
expect_line "Bus error"
expect_line "past=135"
expect_count 2 "^touched 4096 pages \\(sum 0\\)"
faults=$(awk '$1 == "faults" && ++n == 2 { print $2 }' "$OUT") # the second touch's
expect_num "faults to touch 4096 cached mapped pages" "${faults:-x}" -le $((4096 / 16 + 16))
reads=$(awk '$1 == "touch-reads" { print $2 }' "$OUT")
expect_num "reads to touch 4096 mapped pages" "${reads:-x}" -le 512
expect_line "wrote and read back 256 MiB"
expect_line "big=0"
peak=$(awk '/^peak dirty\+writeback KiB/ { print $4 }' "$OUT")
expect_num "peak dirty + writeback of the 64M group (KiB)" "${peak:-x}" -le $((64 * 1024 / 4))
expect_count 2 "^G-events: .* oom 0 oom_kill 0"
expect_line "read=0"
expect_count 2 "^wrote and read back 48 MiB$"
expect_line "c1=0"
expect_line "c2=0"
