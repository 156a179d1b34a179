# memcg OOM from the shell: a group whose memory.max cannot be met (1k, rounded to 0) has
# its writer killed (SIGKILL, status 137 as in a Linux shell), oom and oom_kill counted,
# Linux's kernel lines logged, a task of another group untouched and the shell still
# usable; with memory.oom.group the group's other task dies too (oom_group_kill). Each
# background task is waited for through cgroup.procs, never for time.
PATH=$PATH:/usr/sbin:/sbin
mke2fs -q -F -t ext2 "$T/disk.img" 64M > /dev/null 2>&1 || fail "mke2fs"
guest_script <<'GUEST'
cd /sys/fs/cgroup
echo "+memory +io" > cgroup.subtree_control
mkdir A B G
echo 1k > A/memory.max
echo max: $(cat A/memory.max)
cgexec -g B sleep 1000 &
bpid=$!
while [ -z "$(cat B/cgroup.procs)" ]; do :; done
cgexec -g A dd if=/dev/zero of=/mnt/a bs=4k count=64
echo dd=$?
echo A: $(cat A/memory.events)
echo B: $(cat B/memory.events)
echo B-procs: $(cat B/cgroup.procs | wc -l)
echo 0 > G/memory.max
echo 1 > G/memory.oom.group
echo group: $(cat G/memory.oom.group)
cgexec -g G sleep 1000 &
gpid=$!
while [ -z "$(cat G/cgroup.procs)" ]; do :; done
cgexec -g G dd if=/dev/zero of=/mnt/g bs=4k count=64
echo gdd=$?
wait $gpid
echo gsleep=$?
echo G: $(cat G/memory.events)
echo 2 > G/memory.oom.group
echo bad=$?
kill $bpid
wait $bpid
echo bsleep=$?
echo still usable
poweroff 0
GUEST
run_guest --disk "$T/disk.img" --timeout 120
expect_status 0
expect_line 'max: 0'
expect_line 'dd=137'
expect_output '^A: low 0 high 0 max [1-9][0-9]* oom 1 oom_kill 1 oom_group_kill 0$'
expect_line 'B: low 0 high 0 max 0 oom 0 oom_kill 0 oom_group_kill 0'
expect_line 'B-procs: 1'
expect_line 'group: 1'
expect_line 'gdd=137'
expect_line 'gsleep=137'
expect_output '^G: low 0 high 0 max [1-9][0-9]* oom 1 oom_kill 2 oom_group_kill 1$'
expect_output '^echo: .*Invalid argument'
expect_line 'bad=1'
expect_line 'bsleep=130'
expect_line 'still usable'
expect_log 'dd invoked oom-killer: gfp_mask=0x[0-9a-f]+, order=0, oom_score_adj=0'
expect_log 'oom-kill:constraint=CONSTRAINT_MEMCG,oom_memcg=/A,task_memcg=/A,task=dd,pid=[0-9]+,uid=0'
expect_log 'Memory cgroup out of memory: Killed process [0-9]+ \(dd\)'
expect_log 'Tasks in /G are going to be killed due to memory.oom.group set'
expect_log 'Memory cgroup out of memory: Killed process [0-9]+ \(sleep\)'
[[ $(grep -ac 'Killed process' "$LOG") -eq 3 ]] || fail "not 3 tasks killed: $(grep -a 'Killed process' "$LOG")"
expect_no_output 'error writing'

# At the prompt, as ash there: a foreground job the OOM killer took says "Killed".
start_guest --no-script --timeout 60
await_prompt
send 'cd /sys/fs/cgroup; echo +memory > cgroup.subtree_control; mkdir A; echo 0 > A/memory.max\r'
await_prompt
send 'cgexec -g A dd if=/dev/zero of=/tmp/x bs=4k count=4 status=none; echo st=$?\r'
await_line 'Killed'
await_line 'st=137'
await_prompt
send 'echo alive\r'
await_line 'alive'
send 'poweroff 0\r'
finish_guest
expect_status 0
