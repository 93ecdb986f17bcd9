#!/usr/bin/env bash
# check.sh [core|full|checkpatch]: the whole test suite (`make check`,
# `make check-full`); checkpatch: the harness self-test and checkpatch only.
#   - checkpatch --strict on every patch in patches/series
#   - for each of ARCHS (default "x86_64 arm64"): build the debug kernel,
#     perf and the kselftests; boot under QEMU TCG; KUnit at boot, the
#     perf_events kselftests, perf test (core: the perf-core tests listed in
#     tests/perf-tests-core.txt; full: all of them); scan the kernel log.
#   - a smoke run of `make stress` on x86_64 (SMOKE_DURATION, 180 s;
#     STRESS_SMOKE=0 leaves it out)
#   - a smoke run of `make bench` on x86_64 (BENCH=quick, the debug kernel
#     as both sides; BENCH_SMOKE=0 leaves it out): fails only when the
#     harness does not run end to end
# Ends with one line "N passed, N failed, N skipped"; exit 1 on any failure.
. "$(dirname "$0")/lib.sh"
filter=${1:-core}
archs=${ARCHS:-x86_64 arm64}
case $filter in
core|full) ;;
checkpatch) archs= ;;
*) die "usage: check.sh [core|full|checkpatch]" ;;
esac
t0=$(date +%s)
run=check
[ "$filter" = full ] && run=check-full
passed=0 failed=0 skipped=0
mkdir -p "$BUILD/logs"
summary=$BUILD/logs/summary-$filter.txt
: > "$summary"
note() { echo "$*" | tee -a "$summary"; }
count() { # count passed|failed|skipped N
	eval "$1=\$(( $1 + $2 ))"
}

"$TOP/scripts/deps.sh"
SYNC=1 "$TOP/scripts/tree.sh"
if [ -f "$BUILD/BASE-UNPINNED" ] && [ "${ALLOW_UNPINNED:-0}" != 1 ]; then
	note "FAIL  base: the archive serves linux-source-6.1 $(cat "$BUILD/BASE-UNPINNED"), base.pin pins another (ALLOW_UNPINNED=1 to test anyway)"
	count failed 1
fi

# The judge itself: results.py on made-up logs.
hrc=0
hs=$(SRC=$SRC "$TOP/tests/harness/selftest.sh" 2>&1) || hrc=$?
{ grep -v '^PASS' <<<"$hs" || true; } | tee -a "$summary"
hp=$(grep -c '^PASS' <<<"$hs" || true)
hf=$(grep -c '^FAIL' <<<"$hs" || true)
[ "$hrc" != 0 ] && [ "$hf" = 0 ] && hf=1
count passed "$hp"; count failed "$hf"
note "harness self-test: $hp passed, $hf failed"

# checkpatch
np=0
while read -r p; do
	case $p in ''|'#'*) continue ;; esac
	np=$((np + 1))
	# /usr/bin first: checkpatch runs scripts/spdxcheck.py, which needs
	# Debian's python3-ply, not whatever python3 comes first in PATH.
	raw=$(PATH=/usr/bin:$PATH "$SRC/scripts/checkpatch.pl" --strict --quiet \
		--no-summary --show-types "$TOP/patches/$p" 2>&1 || true)
	if out=$(printf '%s\n' "$raw" | python3 "$TOP/scripts/checkpatch-filter.py" \
			"$SRC" "$TOP/patches/$p" "$TOP/tests/checkpatch-exceptions.txt"); then
		note "PASS  checkpatch: $p"; count passed 1
		[ -z "$out" ] || echo "$out" | sed 's/^/      /'
	else
		note "FAIL  checkpatch: $p"; echo "$out" | sed 's/^/      /'; count failed 1
	fi
done < <(cat "$TOP/patches/series" 2>/dev/null || true)
note "checkpatch: $np patches checked"

# Build everything first (one build at a time), then boot the guests one
# after the other.  PARALLEL=1 boots them side by side, which saves about
# ten minutes, but with 8 vCPU threads on 2 cores the kselftests' 30 s
# timeouts no longer hold (sigtrap_threads.signal_stress_with_disable timed
# out on x86_64 that way): fine for a quick look, not for the verdict.
built=
for arch in $archs; do
	ta=$(date +%s)
	if "$TOP/scripts/build-kernel.sh" "$arch" &&
	   "$TOP/scripts/build-tools.sh" "$arch" &&
	   "$TOP/scripts/mkinitramfs.sh" "$arch"; then
		built+=" $arch"
	else
		note "FAIL  $arch: build"; count failed 1
	fi
	note "$arch: build $(( $(date +%s) - ta )) s"
done

pids=
for arch in $built; do
	tg=$(date +%s)
	# No -icount here: it runs every vCPU on one host thread, and the arm64
	# suite then takes several times as long.  QEMU's arm PMU counts
	# INST_RETIRED only under -icount, so the tests that need 'instructions'
	# are listed in tests/expect/arm64.txt ("needs -icount").  ICOUNT=1 or
	# auto with scripts/qemu.sh runs a guest under -icount by hand.
	( ICOUNT=0 LOGS=$BUILD/logs/$arch-$run TIMEOUT=${TIMEOUT:-3600} \
		"$TOP/scripts/qemu.sh" "$arch" check "$filter" || true
	  echo "$(( $(date +%s) - tg ))" > "$BUILD/logs/$arch-$run/.guest-seconds" ) &
	pids+=" $!"
	[ "${PARALLEL:-0}" = 1 ] || { wait "$!" || true; }
done
for p in $pids; do wait "$p" || true; done

for arch in $built; do
	arch_vars "$arch"
	logs=$BUILD/logs/$arch-$run
	rm -f "$logs/results.json" "$logs/results.txt"
	rrc=0
	python3 "$TOP/scripts/results.py" "$arch" "$logs" "$TOP/tests/expect/$arch.txt" \
		--vmlinux "$OUT/$arch/vmlinux" --src "$SRC" --cross "$CROSS" \
		--json "$logs/results.json" > "$logs/results.txt" 2>&1 || rrc=$?
	{ grep -vE '^PASS ' "$logs/results.txt" || true; } | tee -a "$summary"
	read -r p f s < <(python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["counts"]; print(c["passed"], c["failed"], c["skipped"])' "$logs/results.json" 2>/dev/null || echo "0 0 0")
	# results.py exits 1 exactly when it counted a failure; anything else
	# (a crash, a bad expect line) is a failure of its own.
	if [ "$rrc" != 0 ] && [ "$f" = 0 ]; then
		note "FAIL  $arch: results.py exit status $rrc"; f=1
	fi
	count passed "$p"; count failed "$f"; count skipped "$s"
	note "$arch: guest $(cat "$logs/.guest-seconds" 2>/dev/null || echo ?) s (full results: ${logs#"$TOP"/}/results.txt)"
done
# A smoke run of `make stress` (x86_64): the stress kernel, every stressor
# side by side for SMOKE_DURATION seconds, the same verdict as a full run.
# It shows that the harness runs end to end and that nothing splats at
# once; the 30-minute runs are `make stress`.  STRESS_SMOKE=0 leaves it out.
if [[ " $built " == *" x86_64 "* ]] && [ "${STRESS_SMOKE:-1}" = 1 ]; then
	ts=$(date +%s)
	slogs=$BUILD/logs/x86_64-stress-smoke
	rm -f "$slogs/results.json"
	src=0
	MODPHASE=45 STRESS_LOGS=$slogs "$TOP/scripts/stress.sh" x86_64 \
		"${SMOKE_DURATION:-180}" > "$BUILD/logs/stress-smoke.out" 2>&1 || src=$?
	{ grep -vE '^PASS ' "$slogs/results.txt" 2>/dev/null || tail -20 "$BUILD/logs/stress-smoke.out"; } |
		tee -a "$summary"
	read -r p f < <(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(len(j["results"]) - j["failed"], j["failed"])' \
		"$slogs/results.json" 2>/dev/null || echo "0 0")
	if [ "$src" != 0 ] && [ "$f" = 0 ]; then
		note "FAIL  x86_64 stress smoke: scripts/stress.sh exit status $src (see build/logs/stress-smoke.out)"; f=1
	fi
	count passed "$p"; count failed "$f"
	note "x86_64 stress smoke: $p passed, $f failed, $(( $(date +%s) - ts )) s (full verdict: ${slogs#"$TOP"/}/results.txt)"
fi
# A smoke run of `make bench` (x86_64, BENCH=quick): every scenario
# measured on both sides.  Both sides boot the debug kernel just tested
# (BENCH_KERNEL; BENCH_KERNEL= builds the two bench kernels as `make bench`
# does): two more cold kernel builds would not fit CI's 90 minutes.  It
# fails the check only when the harness does not run end to end, never on
# a timing.  BENCH_SMOKE=0 leaves it out.
if [[ " $built " == *" x86_64 "* ]] && [ "${BENCH_SMOKE:-1}" = 1 ]; then
	ts=$(date +%s)
	brc=0
	BENCH_KERNEL=${BENCH_KERNEL-$OUT/x86_64} BENCH=quick TIMEOUT=900 \
		BENCH_COMMAND="BENCH_KERNEL=build/out/x86_64 BENCH=quick scripts/bench.sh x86_64" \
		"$TOP/scripts/bench.sh" x86_64 > "$BUILD/logs/bench-smoke.out" 2>&1 || brc=$?
	if [ $brc = 0 ]; then
		note "PASS  x86_64 bench smoke: $(tail -1 "$BUILD/logs/bench-smoke.out"), $(( $(date +%s) - ts )) s (report: build/logs/x86_64-bench/report.md)"
		count passed 1
	else
		tail -30 "$BUILD/logs/bench-smoke.out" | tee -a "$summary"
		note "FAIL  x86_64 bench smoke: scripts/bench.sh exit status $brc (see build/logs/bench-smoke.out)"
		count failed 1
	fi
fi
note "check ($filter) took $(( $(date +%s) - t0 )) s"
echo "$passed passed, $failed failed, $skipped skipped" | tee -a "$summary"
[ "$failed" = 0 ]
