# Foreign inodes in the guest: A writes a file and syncs, its page cache is dropped
# (echo 1: pages only, so the inode stays A's), then B rewrites the whole file and syncs,
# again and again. Linux's vote moves the inode to B's wb: A is charged for a few rewrites
# only, then for none. Groups are matched to wb_stats blocks by their cgroup ids, learnt
# from the attribution audit (its rows name the owner of each inode's pages).
# ext4_cgwb_foreign runs it on ext4 (TEST_FS).
PATH=$PATH:/usr/sbin:/sbin
test_mkfs "$T/disk.img" 128M
guest_script <<'GUEST'
cd /sys/fs/cgroup
echo "+memory +io" > cgroup.subtree_control
mkdir A B
echo 1 > /sys/kernel/debug/bdi/254:0/wb_attribution
cgexec -g A dd if=/dev/zero of=/mnt/f bs=1M count=8 2> /dev/null
cgexec -g A dd if=/dev/zero of=/mnt/a bs=1M count=1 2> /dev/null
sync
echo 1 > /proc/sys/vm/drop_caches
echo A0: $(cat A/io.stat)
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
	cgexec -g B dd if=/dev/zero of=/mnt/f bs=1M count=8 conv=notrunc 2> /dev/null
	sync
done
echo A1: $(cat A/io.stat)
echo B1: $(cat B/io.stat)
for i in 1 2 3; do
	cgexec -g B dd if=/dev/zero of=/mnt/f bs=1M count=8 conv=notrunc 2> /dev/null
	sync
done
echo A2: $(cat A/io.stat)
echo B2: $(cat B/io.stat)
echo F: $(stat /mnt/f | grep Inode)
echo FA: $(stat /mnt/a | grep Inode)
cat /sys/kernel/debug/bdi/254:0/wb_stats
cat /sys/kernel/debug/bdi/254:0/wb_attribution
poweroff 0
GUEST
run_guest --disk "$T/disk.img" --timeout 240
expect_status 0

wbytes() { sed -n "s/^$1: 254:0 .*wbytes=\([0-9]*\).*/\1/p" "$OUT"; }
a0=$(wbytes A0); a1=$(wbytes A1); a2=$(wbytes A2); b1=$(wbytes B1); b2=$(wbytes B2)
ino_f=$(sed -n 's/^F: .*Inode: \([0-9]*\).*/\1/p' "$OUT")
ino_a=$(sed -n 's/^FA: .*Inode: \([0-9]*\).*/\1/p' "$OUT")
[[ -n $a0 && -n $a1 && -n $a2 && -n $b1 && -n $b2 && -n $ino_f && -n $ino_a ]] ||
	fail "missing figures: a0=$a0 a1=$a1 a2=$a2 b1=$b1 b2=$b2 f=$ino_f a=$ino_a"

# Linux's rule: a rewrite is at least one foreign slot of history, at most five; the switch
# needs nine, so A pays for two to nine of the twelve rewrites, then for none of the rest.
# The switch lands a grace period and a worker's turn after the vote: on several CPUs the
# next rewrite may start before it does, and A pays for that one too.
mis=$((a1 - a0))
expect_num "bytes charged to A for B's rewrites" "$mis" -ge $((16 << 20))
expect_num "bytes charged to A for B's rewrites" "$mis" -le $((80 << 20))
expect_num "bytes charged to A after the switch" "$((a2 - a1))" -eq 0
expect_num "B's io.stat wbytes for the last 3 rewrites" "$((b2 - b1))" -ge $((24 << 20))
expect_num "all B's rewrites" "$((mis + b2))" -ge $((15 * (8 << 20)))

# the audit: A's own pages of /mnt/a name A's cgroup id; B's pages of /mnt/f name B's, and
# what it says was charged elsewhere is what A's io.stat got
row() { awk -v ino="$1" -v cg="$2" '$1 == ino && ($2 == cg || cg == "") { print $2, $3, $4 }' "$OUT"; }
read -r a_id _ <<< "$(row "$ino_a" "")"
b_row=$(awk -v ino="$ino_f" -v a="$a_id" '$1 == ino && $2 != a && NF == 4 { print $2, $3, $4 }' "$OUT")
read -r b_id b_written b_elsewhere <<< "$b_row"
[[ -n $a_id && -n $b_id ]] || fail "no audit rows for /mnt/a ($ino_a) or /mnt/f ($ino_f)"
expect_num "audit: B's bytes of /mnt/f" "${b_written:-0}" -ge $((15 * (8 << 20)))
expect_num "audit: B's bytes charged elsewhere" "${b_elsewhere:-0}" -eq "$mis"

# wb_stats: the block of B's cgroup id wrote B's rewrites after the switch; A's exists
wb_written() { awk -v id="$1" '/^WbCgIno:/ { cur = $2 } /^WbWritten:/ && cur == id { print $2 }' "$OUT"; }
b_kb=$(wb_written "$b_id"); a_kb=$(wb_written "$a_id")
[[ -n $a_kb ]] || fail "no wb_stats block for A's cgroup id $a_id"
expect_num "B's wb WbWritten (kB)" "${b_kb:-0}" -ge $(((b2 >> 10) - 1024))

e2fsck -fn "$T/disk.img" > "$T/fsck.log" 2>&1 || fail "e2fsck: $(tail -n 3 "$T/fsck.log")"
