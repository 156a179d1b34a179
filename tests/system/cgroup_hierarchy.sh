# The cgroup v2 hierarchy from the shell: /sys/fs/cgroup mounted, mkdir and rmdir (EBUSY
# while a group has tasks or children), moves through cgroup.procs ($$ and a background
# job), cgroup.events, subtree_control, and cgexec in the foreground, in the background and
# in pipelines, with ps showing each task's cgroup.
guest_script <<'GUEST'
cd /sys/fs/cgroup
echo controllers=$(cat cgroup.controllers)
echo +memory > cgroup.subtree_control
echo subtree=$(cat cgroup.subtree_control)
mkdir A A/B
echo mkdir=$?
echo children=$(cat A/cgroup.controllers)
echo $$ > A/cgroup.procs
echo move-shell=$?
for p in $(cat A/cgroup.procs); do [ $p = $$ ] && echo shell-in-A; done
rmdir A
echo rmdir-busy=$?
echo $$ > cgroup.procs
for p in $(cat A/cgroup.procs); do [ $p = $$ ] && echo shell-still-in-A; done
sleep 30 &
bg=$!
echo $bg > A/B/cgroup.procs
echo move-bg=$?
for p in $(cat A/B/cgroup.procs); do [ $p = $bg ] && echo bg-in-B; done
echo A-events: $(cat A/cgroup.events)
rmdir A/B
echo rmdir-populated=$?
kill $bg
wait $bg
echo A-events: $(cat A/cgroup.events)
rmdir A/B
echo rmdir-B=$?
rmdir A
echo rmdir-A=$?
ls /sys/fs/cgroup/A
echo gone=$?
mkdir G
cgexec -g G ps
echo cgexec-fg=$?
cgexec -g /G sleep 30 &
job=$!
# the job's task may still be starting on another CPU: wait until it runs in G
until ps | grep -q ' /G  *sleep$'; do true; done
ps
kill $job
wait $job
echo cgexec-bg=$?
cgexec -g G ps | cat
echo one two | cgexec -g G wc -w
cgexec -g memory:G echo libcgroup-form
echo cgexec-libcgroup=$?
cgexec -g nope true
echo cgexec-missing=$?
cgexec -g G
echo cgexec-usage=$?
cgexec -g G nosuchcmd
echo cgexec-nocmd=$?
echo after=$(cat G/cgroup.procs)
rmdir G
echo rmdir-G=$?
mount
poweroff 0
GUEST
run_guest
expect_status 0
expect_output '^controllers=memory( io)?( pids)?$'
expect_line 'subtree=memory'
expect_line 'mkdir=0'
expect_line 'children=memory'
expect_line 'move-shell=0'
expect_line 'shell-in-A'
expect_line 'rmdir-busy=1'
expect_output "rmdir: failed to remove 'A': Device or resource busy"
expect_no_output 'shell-still-in-A'
expect_line 'move-bg=0'
expect_line 'bg-in-B'
expect_line 'A-events: populated 1 frozen 0'
expect_line 'rmdir-populated=1'
expect_line 'A-events: populated 0 frozen 0'
expect_line 'rmdir-B=0'
expect_line 'rmdir-A=0'
expect_line 'gone=2'
expect_output "rmdir: failed to remove 'A/B': Device or resource busy"
# foreground, background and pipeline: the command runs as a task in /G
expect_output '^ +[0-9]+ R +[0-9]+ +[0-9:]+ /G +ps$'
expect_line 'cgexec-fg=0'
expect_output '^ +[0-9]+ [SR] +[0-9]+ +[0-9:]+ /G +sleep$'
expect_line 'cgexec-bg=130' # killed once ps has seen it: no race with its end
expect_count 2 '^ +[0-9]+ R +[0-9]+ +[0-9:]+ /G +ps$'
expect_line '2'
expect_line 'libcgroup-form'
expect_line 'cgexec-libcgroup=0'
expect_line "cgexec: cgroup 'nope' not found"
expect_line 'cgexec-missing=1'
expect_output '^usage: cgexec -g CGROUP COMMAND'
expect_line 'cgexec-usage=2'
expect_line 'cgexec-nocmd=127'
expect_line 'after='
expect_line 'rmdir-G=0'
expect_line 'cgroup2 on /sys/fs/cgroup type cgroup2 (rw)'
expect_no_log 'Kernel panic|kernel BUG|WARNING'
