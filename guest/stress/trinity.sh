# shellcheck shell=bash
# trinity: the syscall fuzzer, as FUZZ_UID, in phase 2 only (it opens task
# events on the test_hw PMUs), restarted if it ends early.
#
# Trinity's processes: the one started ("trinity") forks trinity-main,
# which forks the children (comm trinity-cN) that make the syscalls.
# Under KASAN and TCG a child lives for a few syscalls (why is not known:
# NOTES.md) and trinity forks a new one, while trinity-main spends most
# of its time forking them: a look at the children's names every few
# seconds seldom sees one (a run saw the first only after the storms).
# What tells that they ran is the CPU time trinity-main has reaped from
# them: cutime + cstime of its /proc/PID/stat, in clock ticks (USER_HZ,
# 100).

# trinity_list: trinity's list of calls ($S/trinity-list) and the -c
# arguments of those of TRINITY_CALLS it has ($S/trinity-calls), made
# while the guest is quiet: with the stressors running, `trinity -L` took
# minutes under TCG, longer than a smoke run, and the greps alone took
# minutes (the first 30-minute run started trinity 10 minutes late).
trinity_list() {
	local c tcalls=()
	(cd /tmp/trinity && HOME=/tmp/trinity as_user "$FUZZ_UID" trinity -L) > "$S/trinity-list" 2>&1
	for c in $TRINITY_CALLS; do
		if grep -qw -- "$c" "$S/trinity-list"; then
			tcalls+=(-c "$c")
		else
			echo "stress: trinity: '$c' not in trinity -L, left out"
		fi
	done
	echo "${tcalls[*]}" > "$S/trinity-calls"
}

# trinity_cticks RUN: the children's CPU ticks for run RUN (empty before
# trinity-main).
trinity_cticks() {
	local m f
	flag_get "trinity-main.$1"; m=$FLAG
	if [ -z "$m" ]; then
		f=$(grep -lx 'trinity-main' /proc/[0-9]*/comm 2>/dev/null | head -1)
		m=${f#/proc/}; m=${m%/comm}
		[ -n "$m" ] || return 0
		flag_set "trinity-main.$1" "$m"
	fi
	# The PID may have gone to another process since.
	[ "$(cat "/proc/$m/comm" 2>/dev/null)" = trinity-main ] || return 0
	awk '{ print $16 + $17 }' "/proc/$m/stat" 2>/dev/null
}

# trinity_children RUN PID: while PID lives, keep in trinity-cticks.RUN the
# CPU ticks of run RUN's children so far, and note in trinity-children.RUN
# the time they were first seen to have run.
trinity_children() {
	local c
	while kill -0 "$2" 2>/dev/null; do
		c=$(trinity_cticks "$1")
		if [ -n "$c" ]; then
			flag_set "trinity-cticks.$1" "$c"
			if [ "$c" -gt 0 ] && ! flag "trinity-children.$1"; then
				nowv; flag_set "trinity-children.$1" "$NOW"
				log "trinity run $1: its children have run ($c ticks of CPU)"
			fi
		fi
		sleep 5
	done
}

trinity_loop() {
	# shellcheck disable=SC2153	# SEED: the run's (lib.sh)
	local run=0 seed=$SEED calls=() total=0 n short=0 t0 pid
	read -r -a calls < "$S/trinity-calls"
	until phase2; do nap 5 || return 0; done
	if [ ${#calls[@]} = 0 ]; then
		log "trinity: -L named none of the calls; see $S/trinity-list:"
		head -20 "$S/trinity-list"
		count trinity trinity_error=no-calls
		flag_set trinity.off
		return 0
	fi
	while ! stopping; do
		run=$((run + 1))
		echo "=== STATE trinity_seed.$run=$seed"
		log "trinity run $run: seed $seed, ${TRINITY_CHILDREN} children"
		t0=$(now)
		# -V: trinity's file list is a small directory, not its walk of
		# /proc, /sys and /dev, which under the storms kept a smoke
		# run's trinity from reaching its main loop in two minutes.
		(cd /tmp/trinity && HOME=/tmp/trinity exec python3 -I -S "$S/asuser.py" "$FUZZ_UID" \
			trinity -q -l off --arch=64 -C"$TRINITY_CHILDREN" \
			-s"$seed" -V /tmp/trinity/victims --enable-fds=perf "${calls[@]}") \
			> "$S/trinity.$run.log" 2>&1 &
		pid=$!
		flag_set trinity.pid "$pid"
		flag_set trinity.run "$run"
		trinity_children "$run" "$pid" &
		wait "$pid"
		log "trinity run $run ended: status $?"
		n=$(sed -n 's/.*Ran \([0-9]*\) syscalls.*/\1/p' "$S/trinity.$run.log" | tail -1)
		total=$((total + ${n:-0}))
		count trinity trinity_syscalls=$total trinity_runs=$run
		# Trinity that cannot start would spin here.
		if [ $(( $(now) - t0 )) -lt 20 ]; then
			short=$((short + 1))
			if [ $short -ge 3 ]; then
				log "trinity: three runs under 20 s, giving up:"
				tail -20 "$S/trinity.$run.log"
				count trinity trinity_syscalls=$total trinity_runs=$run trinity_error=short-runs
				flag_set trinity.off
				return 0
			fi
		fi
		seed=$((seed + 1))
	done
}

# trinity_stop_ticks: TRINITY_CTICKS, what trinity's children had run while
# the storms ran: the running run's figure read now (the watcher loops are
# starved under the storms; in a smoke run trinity_children had not yet
# seen trinity-main at the stop), the earlier runs' last figures (lower
# bounds).
trinity_stop_ticks() {
	local r c trun=0
	TRINITY_CTICKS=0
	flag_get trinity.run && trun=$FLAG
	for ((r = 1; r <= trun; r++)); do
		if [ "$r" = "$trun" ]; then
			c=$(trinity_cticks "$r")
			# First seen now, if its watcher had not yet looked.
			if [ "${c:-0}" -gt 0 ] && ! flag "trinity-children.$r"; then
				nowv; flag_set "trinity-children.$r" "$NOW"
			fi
		else
			c=
			flag_get "trinity-cticks.$r" && c=$FLAG
		fi
		TRINITY_CTICKS=$((TRINITY_CTICKS + ${c:-0}))
	done
	log "trinity's children had run for $TRINITY_CTICKS ticks of CPU"
}

# trinity_grace: TRINITY_WAIT, the seconds waited for trinity's last run to
# have had TRINITY_MIN seconds with its children running (at most
# TRINITY_GRACE): stopped before they run, a run makes no syscalls, and a
# short run's check would say nothing.
trinity_grace() {
	local tpid trun=0 t0 seen logs=("$S"/trinity.*.log)
	TRINITY_WAIT=0
	flag_get trinity.pid || return 0
	tpid=$FLAG
	[ -e "${logs[0]}" ] && trun=${#logs[@]}
	t0=$(now)
	while kill -0 "$tpid" 2>/dev/null && [ "$TRINITY_WAIT" -lt "$TRINITY_GRACE" ]; do
		seen=
		flag_get "trinity-children.$trun" && seen=$FLAG
		[ -n "$seen" ] && [ $(( $(now) - seen )) -ge "$TRINITY_MIN" ] && break
		sleep 2
		TRINITY_WAIT=$(( $(now) - t0 ))
	done
	[ "$TRINITY_WAIT" = 0 ] || log "waited ${TRINITY_WAIT}s for trinity's children (run $trun)"
}
