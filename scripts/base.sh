#!/usr/bin/env bash
# base.sh: make sure the pinned base tarball (base.pin) is on this machine.
# Prints the tarball's path.  If the archive no longer serves the pinned
# version, the newest one is used, a banner says so, and build/BASE-UNPINNED
# records it: `make check` then fails unless ALLOW_UNPINNED=1 is set, so an
# unpinned base never passes silently.
. "$(dirname "$0")/lib.sh"
# shellcheck source=/dev/null
. <(grep -E '^[a-z0-9]+=' "$TOP/base.pin")
mkdir -p "$BUILD"
rm -f "$BUILD/BASE-UNPINNED"

have=$(dpkg-query -W -f='${Version}' "$package" 2>/dev/null || true)
if [ "$have" != "$version" ]; then
	say "installing $package=$version"
	if ! apt-get install -y -qq --no-install-recommends --allow-downgrades \
			"$package=$version" >&2; then
		apt-get update -qq >&2 || true
		apt-get install -y -qq --no-install-recommends --allow-downgrades \
			"$package=$version" >&2 || true
	fi
	have=$(dpkg-query -W -f='${Version}' "$package" 2>/dev/null || true)
fi
if [ "$have" != "$version" ]; then
	apt-get install -y -qq --no-install-recommends "$package" >&2 ||
		die "cannot install $package at all"
	have=$(dpkg-query -W -f='${Version}' "$package")
	cat >&2 <<MSG
################################################################
#  UNPINNED BASE: base.pin wants $package $version,
#  the archive serves $have.  Trying the series on $have;
#  'make tree' reports what does not apply.  Update base.pin once
#  the series is known good on it.
################################################################
MSG
	echo "$have" > "$BUILD/BASE-UNPINNED"
else
	sum=$(sha256sum "$tarball" | cut -d' ' -f1)
	[ "$sum" = "$sha256" ] || die "$tarball: sha256 $sum, base.pin wants $sha256"
fi
echo "$tarball"
