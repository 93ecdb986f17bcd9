#!/usr/bin/env bash
# build-kernel.sh ARCH [FLAVOUR]: configure and build the test kernel for ARCH
# out of tree in build/out/ARCH[-FLAVOUR], with ccache.
#   FLAVOUR debug (default): configs/base + debug + ARCH fragments
#   FLAVOUR bench: configs/base + ARCH + bench fragments, no debug options
#   FLAVOUR stress: debug + configs/stress (kmemleak, the test PMUs as a
#     module), merged last so that its lines override base's
# ABSENT_OK="CONFIG_X ...": options that may be missing from the tree's
# Kconfig (checked only where the tree has them).
. "$(dirname "$0")/lib.sh"
arch=${1:?usage: build-kernel.sh ARCH [debug|bench|stress]}
flavour=${2:-debug}
arch_vars "$arch"
[ -e "$SRC/.git" ] || die "no kernel tree at $SRC: run 'make tree' first"

case $flavour in
debug) frags="$TOP/configs/base.config $TOP/configs/debug.config $TOP/configs/$arch.config"
       o=$OUT/$arch ;;
bench) frags="$TOP/configs/base.config $TOP/configs/$arch.config $TOP/configs/bench.config"
       o=$OUT/$arch-bench ;;
stress) frags="$TOP/configs/base.config $TOP/configs/debug.config $TOP/configs/$arch.config $TOP/configs/stress.config"
       o=$OUT/$arch-stress ;;
*) die "unknown flavour $flavour" ;;
esac
mkdir -p "$o"
kmake() { make -s -C "$SRC" O="$o" ARCH="$KARCH" CROSS_COMPILE="$CROSS" \
	CC="ccache ${CROSS}gcc" HOSTCC="ccache gcc" -j"$JOBS" "$@"; }

# Re-make .config only when a fragment changed, so incremental builds stay so.
stamp=$o/.fragments.sha
want=$(cat $frags | sha256sum | cut -d' ' -f1)
if [ ! -f "$o/.config" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
	say "configuring $arch ($flavour)"
	kmake tinyconfig >/dev/null
	# shellcheck disable=SC2086
	KCONFIG_CONFIG=$o/.config "$SRC/scripts/kconfig/merge_config.sh" -m \
		-O "$o" "$o/.config" $frags >/dev/null
	kmake olddefconfig >/dev/null
	# Every option a fragment asks for must have stuck (catches typos and
	# unmet dependencies, which merge_config only warns about).  A later
	# fragment overrides an earlier one, as in merge_config: the last value
	# of each option is the one checked.
	bad=0
	declare -A last=()
	opts=()
	for f in $frags; do
		while IFS= read -r line; do
			case $line in
			CONFIG_*=*) opt=${line%%=*}
				[ -n "${last[$opt]+set}" ] || opts+=("$opt")
				last[$opt]=${line#*=} ;;
			esac
		done < "$f"
	done
	for opt in "${opts[@]}"; do
		val=${last[$opt]}
		# ABSENT_OK: options the tree may not have at all (the test PMU
		# options on the plain base, scripts/stress.sh BASE=1).
		if [[ " ${ABSENT_OK:-} " == *" $opt "* ]] &&
		   ! grep -rqs --include='Kconfig*' "^config ${opt#CONFIG_}\$" "$SRC"; then
			echo "  $opt: not in this tree, skipped" >&2
			continue
		fi
		if [ "$val" = n ]; then
			if grep -q "^$opt=" "$o/.config"; then
				echo "  $opt: wanted n, got $(grep "^$opt=" "$o/.config")"; bad=1; fi
		else
			grep -qxF "$opt=$val" "$o/.config" ||
				{ echo "  $opt: wanted $val, got $(grep "^$opt=" "$o/.config" || echo unset)"; bad=1; }
		fi
	done
	[ $bad = 0 ] || die "config fragments for $arch did not apply (above)"
	echo "$want" > "$stamp"
fi
say "building $arch kernel ($flavour) in $o"
kmake
kmake modules >/dev/null
ls -l "$o/$IMAGE" >&2
