#!/usr/bin/env bash
# build-each.sh [ARCH] [FLAVOUR]: build every patch of the series in turn
# and report the first that breaks (`make build-each`).
#
# build/linux's base..HEAD is checked out commit by commit in a worktree of
# its own (build/each) and built incrementally out of tree in
# build/out-each/ARCH[-FLAVOUR] with the test config (scripts/build-kernel.sh,
# default ARCH x86_64, FLAVOUR debug), so that build/linux and its builds
# are left alone.  The first run is a cold build; later ones only rebuild
# what each patch touches.  Exit status 0 when every patch builds; else 1,
# with the failing patch and the tail of its build log
# (build/logs/build-each/NN.log).
. "$(dirname "$0")/lib.sh"
arch=${1:-x86_64}
flavour=${2:-debug}
arch_vars "$arch"
[ -e "$SRC/.git" ] || die "no tree at $SRC: run 'make tree' first"
wt=$BUILD/each
logs=$BUILD/logs/build-each
mkdir -p "$logs"
rm -f "$logs"/*.log

if [ ! -e "$wt/.git" ]; then
	git -C "$SRC" worktree prune
	git -C "$SRC" worktree add -q --detach "$wt" base
fi
mapfile -t commits < <(git -C "$SRC" rev-list --reverse base..HEAD)
[ ${#commits[@]} -gt 0 ] || die "build/linux has no commits on base"
say "building ${#commits[@]} patches of the series in turn ($arch, $flavour)"

# The config options the series adds (the test PMU, the KUnit suite): the
# config check skips each one until the patch that adds it.
ABSENT_OK=$(git -C "$SRC" diff base..HEAD -- '*Kconfig*' |
	sed -n 's/^+config \([A-Za-z0-9_]*\)$/CONFIG_\1/p' | tr '\n' ' ')
export ABSENT_OK
out=$BUILD/out-each/$arch
[ "$flavour" = debug ] || out=$out-$flavour

n=0
for c in "${commits[@]}"; do
	n=$((n + 1))
	subj=$(git -C "$SRC" log -1 --format=%s "$c")
	git -C "$wt" checkout -q --detach "$c"
	# A patch that changes a Kconfig file: configure again, so that its
	# new options are on from that patch on.
	if git -C "$SRC" diff-tree --no-commit-id --name-only -r "$c" | grep -q 'Kconfig'; then
		rm -f "$out/.fragments.sha"
	fi
	t0=$(date +%s)
	log=$(printf '%s/%02d.log' "$logs" "$n")
	if SRC=$wt OUT=$BUILD/out-each "$TOP/scripts/build-kernel.sh" "$arch" "$flavour" > "$log" 2>&1; then
		printf 'PASS  %02d/%02d %s (%s s)\n' "$n" "${#commits[@]}" "$subj" $(( $(date +%s) - t0 ))
	else
		printf 'FAIL  %02d/%02d %s: it does not build (%s)\n' "$n" "${#commits[@]}" "$subj" "${log#"$TOP"/}"
		grep -E 'error|Error' "$log" | head -20 | sed 's/^/      /'
		tail -5 "$log" | sed 's/^/      /'
		exit 1
	fi
done
say "every patch builds (${#commits[@]})"
