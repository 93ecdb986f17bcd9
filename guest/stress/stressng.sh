# shellcheck shell=bash
# stressng: stress-ng's perf, switch, fork, exec and affinity stressors as
# NOBODY, for DURATION seconds (SIGINT at the stop).
stressng() {
	(cd /tmp/stress-ng && exec python3 -I -S "$S/asuser.py" "$NOBODY" \
		stress-ng --perf --switch "$STRESSNG_N" --fork "$STRESSNG_N" \
		--exec "$STRESSNG_N" --affinity "$STRESSNG_N" --timeout "${DURATION}s" \
		--seed "$SEED" --metrics-brief --temp-path /tmp/stress-ng) \
		> "$S/stress-ng.log" 2>&1 &
	flag_set stress-ng.pid "$!"
	wait "$!"
	count stressng stressng_rc=$?
}
