# Background jobs: & returns at once, $! names the job, wait collects exit statuses, and
# jobs run concurrently with the shell. kill -0 only asks whether the task is there.
guest_script <<'GUEST'
sleep 0.3 &
P=$!
echo started
wait $P
echo waited=$?
false &
wait $!
echo bg-false=$?
sleep 0.2 & sleep 0.2 & sleep 0.2 &
wait
echo all-done
sleep 5 &
K=$!
kill -0 $K
echo probe=$?
kill -s 0 $K
echo probe-s=$?
kill $K
wait $K
echo killed=$?
kill -0 $K 2> /dev/null
echo probe-gone=$?
poweroff 0
GUEST
run_guest
expect_status 0
expect_line 'started'
expect_line 'waited=0'
expect_line 'bg-false=1'
expect_line 'all-done'
expect_line 'probe=0'
expect_line 'probe-s=0'
expect_line 'killed=130'
expect_line 'probe-gone=1'
