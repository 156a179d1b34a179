# fork's copy-on-write (tests/programs/cow.c, whose checks pass on a Linux host too): a
# child reads its parent's memory and its stores make its own copy; the parent's stores
# after fork stay out of the child, also after an mprotect back to writable; read(2) into
# memory shared since fork copies it (the kernel's store faults as the program's: CR0.WP);
# CLONE_CHILD_SETTID writes the child's copy only; a private file mapping is copied in the
# child and in the parent and the file keeps its bytes; a thread storing all through fork
# does not reach the child; read(2) into a clean page of a shared file mapping dirties it
# (msync writes it; it is there after the cache dropped it), and into a read-only one fails
# with EFAULT. vfork runs the child on the parent's memory, the parent asleep until the
# child ends or its execve lets it go (a signal it handles meanwhile waits); posix_spawn
# reports a missing file (through that shared memory) as ENOENT. A program holding 32 MiB in
# a group at memory.max 96M forks 8 children that read it all: nothing is copied (the
# group's memory.current grows by their page tables and stacks, not 8 x 32 MiB, which would
# not fit) and nothing is left charged when they end.
programs_image "$T/prog.img" 64M
guest_script <<'GUEST'
mkdir /mnt/cw
/mnt/bin/cow /mnt/cw
echo cow=$?
cd /sys/fs/cgroup
echo +memory > cgroup.subtree_control
mkdir G
echo 96M > G/memory.max
cgexec -g G /mnt/bin/cow hold 32 8 /sys/fs/cgroup/G/memory.current
echo hold=$?
echo G-events: $(cat G/memory.events)
poweroff 0
GUEST
run_guest --disk "$T/prog.img" --timeout 120
expect_status 0
for c in "a child reads the parent's memory and writes its own copy" \
	"the parent's stores after fork stay out of the child" \
	"mprotect back to writable after fork still copies on write" \
	"read(2) into memory shared since fork copies it" \
	"CLONE_CHILD_SETTID writes the child's copy only" \
	"a private file mapping is copied on write after fork" \
	"a thread's stores during fork stay out of the child" \
	"read(2) into a clean shared mapping dirties its page" \
	"read(2) into a read-only mapping: EFAULT" \
	"vfork: the parent sleeps until the child ends and sees its stores" \
	"vfork: a handled signal does not end the parent's wait" \
	"vfork: the child's execve lets the parent go" \
	"posix_spawn of a missing file: ENOENT"; do
	expect_line "PASS $c"
done
expect_line "cow: 0 failed"
expect_line "cow=0"
expect_line "hold=0"
expect_output "^G-events: .* oom 0 oom_kill 0"
read -r before with after < <(awk '/^cow: before/ { print $3, $5, $7 }' "$OUT")
expect_num "memory.current with 8 children over before (KiB)" \
	"$(((${with:-0} - ${before:-0}) / 1024))" -le 1024
expect_num "memory.current after the children over before (KiB)" \
	"$(((${after:-0} - ${before:-0}) / 1024))" -le 64
