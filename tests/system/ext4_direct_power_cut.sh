# Power lost under O_DIRECT writes on ext4 with its journal (commit=1). A file of a marker
# pattern is removed and synced, so that the free blocks hold old data; /d1 is written with
# dd oflag=direct conv=fsync (durable); then /d2 is made again and again, an 8 MiB hole
# filled with oflag=direct (so its blocks are freed and taken again, and each write fills
# a hole inside the file's size) by a group at io.max wbps=1 MiB/s, so that commits go by
# while its bios wait, and the power goes (QEMU killed, no umount). On the host, after
# e2fsck -fy's replay (nothing else to fix) and a clean e2fsck -fn: /d1 is the source;
# /d2, as far as the journal says it reaches, holds the source's blocks at their offsets
# or zeros (holes become unwritten extents, converted only once their IO is done), never
# the removed file's data nor an earlier round's block at another offset.
PATH=$PATH:/usr/sbin:/sbin
mkdir -p "$T/tree"
head -c 8M /dev/urandom > "$T/tree/src"
yes "old data of a removed file" | head -c 46M > "$T/tree/marker" # the disk full but 2 MiB
mke2fs -q -F -t ext4 -b 4096 -d "$T/tree" "$T/disk.img" 64M > /dev/null 2>&1 || fail "mke2fs"

guest_script <<'GUEST'
mkdir /tmp/m
umount /mnt 2> /dev/null
mount -t ext4 -o commit=1 /dev/vda /tmp/m
echo mount=$?
rm /tmp/m/marker
sync
dd if=/tmp/m/src of=/tmp/m/d1 bs=1M oflag=direct conv=fsync status=none
echo synced=$?
cd /sys/fs/cgroup
echo +io > cgroup.subtree_control
mkdir slow
echo "254:0 wbps=1048576" > slow/io.max
while true; do
	rm -f /tmp/m/d2
	truncate -s 8M /tmp/m/d2
	cgexec -g slow dd if=/tmp/m/src of=/tmp/m/d2 bs=64K conv=notrunc oflag=direct status=none
done &
sleep 3
echo written
sleep 100
GUEST
cut_power_after written --disk "$T/disk.img" --timeout 120 # the replay checked below
for l in mount=0 synced=0 written; do
	expect_line "$l"
done
expect_replay_only "$T/disk.img"
debugfs -R "dump /d1 $T/d1" "$T/disk.img" > /dev/null 2>&1
cmp -s "$T/d1" "$T/tree/src" || fail "the synced direct write /d1 is not the source"
debugfs -R "dump /d2 $T/d2" "$T/disk.img" > /dev/null 2>&1
[[ -f $T/d2 ]] || : > "$T/d2"
python3 - "$T/d2" "$T/tree/src" << 'PY' || fail "/d2 holds blocks that are neither the source's nor zeros"
import sys
got, src = open(sys.argv[1], "rb").read(), open(sys.argv[2], "rb").read()
zero = bytes(4096)
bad = [i for i in range(0, len(got), 4096)
       if got[i:i + 4096] not in (src[i:i + 4096], zero[:len(got[i:i + 4096])])]
zeros = sum(1 for i in range(0, len(got), 4096) if got[i:i + 4096] == zero[:len(got[i:i + 4096])])
print("d2: %d bytes, %d blocks of zeros, %d neither the source's nor zeros" %
      (len(got), zeros, len(bad)))
sys.exit(1 if bad else 0)
PY
