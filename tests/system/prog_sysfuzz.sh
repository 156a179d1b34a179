# Random system calls (tests/programs/sysfuzz.c: 16 seeds of 3000 calls with bad pointers,
# lengths and flags) from programs on two CPUs, in a ramfs directory and on the ext4 disk:
# a program may die of what it did to itself, the kernel reports nothing (the harness fails
# on any oops, BUG or warning in the log), a program runs normally afterwards and the disk
# is e2fsck-clean (the harness checks).
programs_image "$T/prog.img" 128M
guest_script <<'GUEST'
mkdir /tmp/fz
cd /tmp/fz
for s in 1 2 3 4 5 6 7 8 9 10 11 12; do /mnt/bin/sysfuzz $s 3000 < /dev/null > /dev/null 2>&1; echo seed $s status $?; done
mkdir /mnt/fz
cd /mnt/fz
for s in 21 22 23 24; do /mnt/bin/sysfuzz $s 3000 < /dev/null > /dev/null 2>&1; echo seed $s status $?; done
cd /
/mnt/bin/hello /mnt/after
echo hello=$?
poweroff 0
GUEST
run_guest --disk "$T/prog.img" --smp 2 --timeout 240
expect_status 0
expect_count 16 "^seed [0-9]+ status (0|13[0-9])$"
expect_line "file /mnt/after size 11"
expect_line "hello=0"
