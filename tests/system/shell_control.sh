# Loops, conditionals and pipelines.
guest_script <<'GUEST'
for i in 1 2 3; do echo item $i; done
n=0
while [ $n -lt 3 ]; do
	n=$((n + 1))
done
echo n=$n
if [ $n -eq 3 ]; then echo three; elif true; then echo wrong; else echo wrong; fi
if false; then echo wrong; else echo else-branch; fi
for w in $(seq 4 6); do printf '%s,' $w; done; echo
total=0
for i in $(seq 1 100); do total=$((total + i)); done
echo total=$total
for i in 1 2 3 4 5; do if [ $i -eq 2 ]; then continue; fi; if [ $i -eq 4 ]; then break; fi; echo loop $i; done
poweroff 0
GUEST
run_guest
expect_status 0
expect_line 'item 1'
expect_line 'item 3'
expect_line 'n=3'
expect_line 'three'
expect_line 'else-branch'
expect_line '4,5,6,'
expect_line 'total=5050'
expect_line 'loop 1'
expect_line 'loop 3'
expect_no_output '^loop (2|4|5)$'
