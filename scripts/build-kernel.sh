#!/usr/bin/env bash
# build-kernel.sh ARCH [FLAVOUR]: configure and build the test kernel for ARCH
# out of tree in build/out/ARCH[-FLAVOUR], with ccache.
#   FLAVOUR debug (default): configs/base + debug + ARCH fragments
#   FLAVOUR bench: configs/base + ARCH fragments, no debug options
. "$(dirname "$0")/lib.sh"
arch=${1:?usage: build-kernel.sh ARCH [debug|bench]}
flavour=${2:-debug}
arch_vars "$arch"
[ -e "$SRC/.git" ] || die "no kernel tree at $SRC: run 'make tree' first"

case $flavour in
debug) frags="$TOP/configs/base.config $TOP/configs/debug.config $TOP/configs/$arch.config"
       o=$OUT/$arch ;;
bench) frags="$TOP/configs/base.config $TOP/configs/$arch.config"
       o=$OUT/$arch-bench ;;
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
	# unmet dependencies, which merge_config only warns about).
	bad=0
	for f in $frags; do
		while IFS= read -r line; do
			case $line in
			CONFIG_*=n) opt=${line%%=*}
				if grep -q "^$opt=" "$o/.config"; then
					echo "  $opt: wanted n, got $(grep "^$opt=" "$o/.config")"; bad=1; fi ;;
			CONFIG_*=*) grep -qxF "$line" "$o/.config" ||
				{ echo "  ${line%%=*}: wanted ${line#*=}, got $(grep "^${line%%=*}=" "$o/.config" || echo unset)"; bad=1; } ;;
			esac
		done < "$f"
	done
	[ $bad = 0 ] || die "config fragments for $arch did not apply (above)"
	echo "$want" > "$stamp"
fi
say "building $arch kernel ($flavour) in $o"
kmake
kmake modules >/dev/null
ls -l "$o/$IMAGE" >&2
