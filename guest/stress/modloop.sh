# shellcheck shell=bash
# modloop: unload and reload the test PMU module ($MOD) with events open
# (stress.sh's header: the two phases).

# modcount: modloop's figures (its locals: bash's scope is dynamic).
modcount() {
	count mod "module_reloads=$reloads" "module_unloads=$unloads" \
		"module_rmmod_refused_with_events=$refused" \
		"module_rmmod_ok_with_events=$okwith" "module_busy=$busy" \
		"module_rmmod_unjudged=$unjudged" "module_rmmod_check_skipped=$skipped" \
		"module_refcnt_short=$short" \
		"module_insmod_failed=$insfail" "module_state=$state"
}

# mod_quiesce: until pinned, the module's other users hold off (quiesce)
# and the loop waits up to 40 s for its count to reach 0, for the unload
# that follows.  The rmmod check does not rest on that count: a user that
# had looked for quiesce just before it was set still opened its events
# after the count had been 0 (a CI smoke run, refcnt 18 with perf stat's
# events not yet open), and both of that run's checks were not made.
mod_quiesce() {
	local t
	flag_set quiesce
	nowv; t=$((NOW + 40))
	refcntv
	while [ "$REFCNT" != 0 ] && [ "$NOW" -lt "$t" ] && ! stopping; do
		snooze 1; nowv; refcntv
	done
	if [ "$REFCNT" = 0 ]; then
		log "module: its other users are quiet"
	else
		log "module: its other users are not quiet after 40 s (refcnt $REFCNT)"
	fi
}

# mod_check: rmmod must fail while the loop's own CPU-wide events are open.
# CPU 0 only, which never goes offline, and PMUs that cover it: with -a a
# CPU going offline under perf stat made it fail, and most checks could not
# be made.  (test_dev's events are the devev stressor's.)
# perf stat's workload sets modrun and waits for modrel (at most 300 s):
# perf stat starts its workload only once it has opened its events, so
# modrun tells that the open is over, and perf stat's perf fds then tell
# whether they opened (an event refused with ENOENT, EINVAL, EOPNOTSUPP,
# ENXIO or ENOSYS is "<not supported>" and perf stat runs on; other errors
# end it).  Waiting for modrel holds the events until rmmod has been tried:
# with a plain `sleep 20`, a starved loop (arm64, 4 vCPUs on 2 cores) once
# reached rmmod after perf stat had ended.  A perf stat that ended or
# opened nothing is tried again, at most 3 times a cycle (in a short run
# each check counts); one still opening after 120 s is not (another would
# be as slow, and phase 2 waits for the cycle).
# The check: with perf stat's n fds open before and after the rmmod, rmmod
# must fail, and the module's count just before must be at least n (each
# event holds the module): Debian's rmmod refuses on its own from that
# count, so a refusal alone would not tell perf stat's events from another
# user's.  (modloop's locals: the counts.)
mod_check() {
	local p t n n2 r0 rc try why
	for ((try = 1; try <= 3; try++)); do
		stopping && break
		loaded || break
		flag_clear modrel modrun
		perf stat -C 0 -x, -o "$S/mod.csv" \
			-e test_hw0/cycles/,test_hw1/cycles/ \
			-- bash -c ": > $F/modrun; t=\$((SECONDS + 300)); while [ ! -e $F/modrel ] && [ \$SECONDS -lt \$t ]; do sleep 1; done" \
			> /dev/null 2> "$S/mod.err" &
		p=$!
		# It starts slowly under the storms: 120 s, with no process
		# made while it waits.
		nowv; t=$((NOW + 120))
		while ! flag modrun && [ "$NOW" -lt "$t" ] && kill -0 "$p" 2>/dev/null; do
			snooze 0.5; nowv
		done
		n=0
		flag modrun && kill -0 "$p" 2>/dev/null && n=$(perf_fds "$p")
		if [ "$n" -gt 0 ]; then
			refcntv; r0=$REFCNT
			if rmmod "$MOD" 2>/dev/null; then rc=0; else rc=1; fi
			# Judged only if perf stat held its events throughout
			# (it may close them on an error of its own; it never
			# opens them again).
			n2=$(perf_fds "$p")
			kill -0 "$p" 2>/dev/null || n2=0
			if [ "$n2" = 0 ]; then
				unjudged=$((unjudged + 1))
				log "module: perf stat $p had $n perf fds, but had closed them after the rmmod ($([ $rc = 0 ] && echo succeeded || echo refused)): not judged"
			elif [ $rc = 0 ]; then
				okwith=$((okwith + 1))
				log "BAD: rmmod $MOD succeeded with events open (perf stat $p holds $n2 perf fds)"
			elif [ "$r0" -lt "$n2" ]; then
				short=$((short + 1))
				log "BAD: the module's count was $r0 with perf stat $p's $n2 events open"
			else
				refused=$((refused + 1))
				log "module: rmmod refused with perf stat $p's $n2 events open (refcnt $r0), as it should"
			fi
			try=4
		else
			skipped=$((skipped + 1))
			if ! kill -0 "$p" 2>/dev/null; then
				why="perf stat $p is gone"
			elif flag modrun; then
				why="perf stat $p runs its workload with no perf fds"
			else
				why="perf stat $p has not started its workload in 120 s"
				try=4
			fi
			refcntv
			log "module: rmmod check not made (try $try): $why, refcnt $REFCNT; its words: $(cat "$S/mod.err" "$S/mod.csv" 2>/dev/null | tr '\n' ' ' | cut -c1-300)"
		fi
		flag_set modrel
		wait "$p"
		modcount
		loaded || break
	done
}

# mod_unload: unload the module, its other users holding off meanwhile
# (quiesce), and a few quick cycles with nothing open; else it is busy
# (phase 1) or pinned (phase 2).  (modloop's locals: the counts, state.)
mod_unload() {
	local t i
	flag_set quiesce
	nowv; t=$((NOW + 40))
	while loaded && [ "$NOW" -lt "$t" ] && ! stopping; do
		refcntv
		[ "$REFCNT" = 0 ] && rmmod "$MOD" 2>/dev/null && break
		snooze 1; nowv
	done
	if ! loaded; then
		unloads=$((unloads + 1))
		log "module: unloaded"
		flag_set mod-cycled
		sleep 0.$((RANDOM % 10))
		# And a few quick cycles with nothing open.
		for ((i = 0; i < 3; i++)); do
			# shellcheck disable=SC2086
			insmod "$KO" $MODPARAMS || { insfail=$((insfail + 1)); break; }
			reloads=$((reloads + 1))
			rmmod "$MOD" || break
			unloads=$((unloads + 1))
		done
		# shellcheck disable=SC2086
		loaded || { insmod "$KO" $MODPARAMS && reloads=$((reloads + 1)); } ||
			insfail=$((insfail + 1))
	elif loaded && ! stopping; then
		if phase2; then
			state=pinned
			log "module: pinned (refcnt $(refcnt)) after test_hw task events, as expected in phase 2"
		else
			busy=$((busy + 1))
			log "module: still in use 40 s after its users closed (refcnt $(refcnt)) in phase 1"
		fi
	fi
	flag_clear quiesce
}

modloop() {
	local reloads=0 unloads=0 refused=0 okwith=0 busy=0 insfail=0 state=loaded
	local unjudged=0 skipped=0 short=0 t
	[ -f "$KO" ] || { flag_set mod-cycled; count mod module_state=builtin-or-absent; return 0; }
	# devev and the unbind loop hold off while the module cycles, and
	# under the storms one cycle (check, unload, quick reloads) can
	# outlast a smoke run: the first waits for their first tries (at
	# most 60 s).
	nowv; t=$((NOW + 60))
	while { ! flag devev-ran || ! flag unbind-ran; } &&
		[ "$NOW" -lt "$t" ] && ! stopping; do
		snooze 1; nowv
	done
	while ! stopping; do
		if ! loaded; then
			# shellcheck disable=SC2086
			if insmod "$KO" $MODPARAMS; then reloads=$((reloads + 1)); else insfail=$((insfail + 1)); fi
		fi
		if [ "$state" != pinned ]; then
			mod_quiesce
		fi
		mod_check
		if [ "$state" = pinned ]; then
			modcount
			nap 30 || break
			continue
		fi
		mod_unload
		modcount
		# The window of devev and cgev, which hold off while it cycles.
		nap 10 || break
	done
}
