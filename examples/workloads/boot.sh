# Boot to prompt: the uptime when the workload starts (after the init's setup).
read up rest < /proc/uptime
s=${up%.*}
f=${up#*.}
echo "RESULT boot_ms=$((s * 1000 + ${f#0} * 10))"
