# shellcheck shell=bash
# unbindloop: unbind a test PMU and bind it again (the driver's debugfs
# unbind and bind: it unregisters the PMU with its events open, and the
# core revokes them), under the other storms.
#
# It takes turns with test_hw2 and test_dev: the module loop's rmmod check
# holds events of test_hw0 and test_hw1 and must find them open.  Each
# unbind has an event of its own open on the PMU (perf stat: a task event
# on test_hw2, a CPU-wide one on test_dev), and the driver's count of the
# PMU's events just before tells that the unbind was made with events
# open (the storms' and trinity's are counted there too).  It holds off
# while the module loop wants the module free (quiesce), and while the
# module is out.
# Figures: pmu_unbinds, pmu_unbinds_with_events, pmu_unbind_failed,
# pmu_bind_failed (a bind refused, but for the module having been
# reloaded meanwhile: EBUSY), pmu_unbind_holder_failed (perf stat did not
# end well: informative).  perf stat's workload waits for the flag
# unbindrel (by path, as modloop's), set once the PMU is bound again.

# The module's debugfs directory (the driver names it after the module).
UNBIND_DIR=/sys/kernel/debug/$MOD

# unbind_events PMU: EVENTS := the driver's count of PMU's open events.
unbind_events() {
	local k v
	EVENTS=0
	while read -r k v; do
		[ "$k" = events ] && EVENTS=$v
	done < "$UNBIND_DIR/$1/stats" 2>/dev/null
}

unbindcount() {
	count unbind "pmu_unbinds=$n" "pmu_unbinds_with_events=$live" \
		"pmu_unbind_failed=$ufail" "pmu_bind_failed=$bfail" \
		"pmu_unbind_holder_failed=$hfail"
}

unbindloop() {
	local n=0 live=0 ufail=0 bfail=0 hfail=0 turn=0 pmu ev opt p err t
	if [ "$TESTPMU" = 0 ]; then
		count unbind pmu_unbind_state=absent
		flag_set unbind-ran
		return 0
	fi
	while ! stopping; do
		if quiet || ! loaded || [ ! -w "$UNBIND_DIR/unbind" ]; then
			snooze 1
			continue
		fi
		turn=$((turn + 1))
		if [ $((turn % 2)) = 0 ]; then
			pmu=test_dev ev=test_dev/ticks/ opt=-a
		else
			pmu=test_hw2 ev=test_hw2/cycles/ opt=
		fi
		[ -d "/sys/bus/event_source/devices/$pmu" ] || { snooze 1; continue; }
		# shellcheck disable=SC2086	# opt is one word or none
		flag_clear unbindrel
		perf stat $opt -x, -o "$S/unbind.csv" -e "$ev" \
			-- bash -c "t=\$((SECONDS + 60)); while [ ! -e $F/unbindrel ] && [ \$SECONDS -lt \$t ]; do sleep 0.5; done" \
			> /dev/null 2> "$S/unbind.err" &
		p=$!
		# perf stat starts slowly under the storms: up to 60 s for its
		# events to open (its perf fds tell).
		nowv; t=$((NOW + 60))
		while [ "$(perf_fds "$p")" = 0 ] && [ "$NOW" -lt "$t" ] &&
			kill -0 "$p" 2>/dev/null; do
			snooze 0.5; nowv
		done
		unbind_events "$pmu"
		if echo "$pmu" > "$UNBIND_DIR/unbind" 2> "$S/unbind.werr"; then
			n=$((n + 1))
			[ "$EVENTS" -gt 0 ] && live=$((live + 1))
		elif loaded; then
			ufail=$((ufail + 1))
			log "unbind $pmu failed: $(cat "$S/unbind.werr")"
		fi
		snooze 1
		if ! echo "$pmu" > "$UNBIND_DIR/bind" 2> "$S/unbind.werr"; then
			err=$(cat "$S/unbind.werr")
			# a reload in between registered it again
			case "$err" in
			*busy*) ;;
			*) loaded && { bfail=$((bfail + 1)); log "bind $pmu failed: $err"; } ;;
			esac
		fi
		flag_set unbindrel
		wait "$p" || hfail=$((hfail + 1))
		unbindcount
		flag unbind-ran || flag_set unbind-ran
		nap 5 || break
	done
}

# unbind_rmmod: once the storms are over, the module must go while perf
# stat holds events on each of its PMUs, all of them unbound first (the
# core revoked the events and dropped the module references they held);
# perf stat then reads and closes them with the module gone.
# Figures: unbind_rmmod=ok|refused|unjudged|skipped (unjudged: perf stat
# had closed its events by the rmmod), unbind_rmmod_fds,
# unbind_rmmod_holder_rc (perf stat's exit status, informative).
unbind_rmmod() {
	local p d name n=0 n2=0 rc res=skipped
	local -a ev=()
	if [ "$TESTPMU" = 0 ] || ! loaded || [ ! -w "$UNBIND_DIR/unbind" ]; then
		count unbindrm unbind_rmmod=skipped
		return 0
	fi
	for d in /sys/bus/event_source/devices/test_*; do
		name=${d##*/}
		case $name in
		test_dev) ev+=(-e test_dev/ticks/) ;;
		test_hw*) ev+=(-e "$name/cycles/") ;;
		esac
	done
	perf stat -a -x, -o "$S/unbindrm.csv" "${ev[@]}" -- sleep 20 \
		> /dev/null 2> "$S/unbindrm.err" &
	p=$!
	sleep 3
	n=$(perf_fds "$p")
	for d in /sys/bus/event_source/devices/test_*; do
		echo "${d##*/}" > "$UNBIND_DIR/unbind"
	done
	if [ "$n" -gt 0 ]; then
		if rmmod "$MOD"; then res=ok; else res=refused; fi
		n2=$(perf_fds "$p")
		[ "$n2" -gt 0 ] || res=unjudged
	fi
	log "unbind_rmmod: $res, perf stat $p holds $n perf fds, $n2 after the rmmod (refcnt $(refcnt))"
	wait "$p"
	rc=$?
	count unbindrm "unbind_rmmod=$res" "unbind_rmmod_fds=$n" "unbind_rmmod_holder_rc=$rc"
}
