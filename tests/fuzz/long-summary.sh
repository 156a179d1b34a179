#!/bin/bash
# The table `make fuzz-long` ends with: for each target, from its log
# (build/fuzz/long-TARGET.log, libFuzzer's final stats and the lines fuzz.mk adds), the
# executions, their rate, the coverage (cov: edges, ft: features), the seconds and the
# crashes. Usage: long-summary.sh LOGDIR TARGET...
set -u
dir=${1:?usage: long-summary.sh LOGDIR TARGET...}
shift
status=0
printf '%-10s %12s %8s %7s %7s %8s  %s\n' target executions exec/s cov ft seconds crashes
for t in "$@"; do
	log=$dir/long-$t.log
	if [[ ! -f $log ]]; then
		printf '%-10s %s\n' "$t" "no log ($log)"
		status=1
		continue
	fi
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	secs=$(sed -n 's/^fuzz-long: seconds //p' "$log" | tail -n 1)
	rc=$(sed -n 's/^fuzz-long: exit //p' "$log" | tail -n 1)
	covft=$(grep -a -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -n 1)
	crash=$(grep -a -o 'Test unit written to [^ ]*' "$log" | tail -n 1 | sed 's/Test unit written to //')
	if [[ ${rc:-1} -eq 0 ]]; then
		crashes=0
	else
		crashes="1 (stopped: ${crash:-exit $rc}; see $log)"
		status=1
	fi
	rate=-
	[[ -n $runs && -n $secs && $secs -gt 0 ]] && rate=$((runs / secs))
	printf '%-10s %12s %8s %7s %7s %8s  %s\n' "$t" "${runs:--}" "$rate" \
		"$(awk '{print $2}' <<< "$covft")" "$(awk '{print $4}' <<< "$covft")" "${secs:--}" "$crashes"
done
exit $status
