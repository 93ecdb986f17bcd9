#!/usr/bin/env bash
# export.sh: write build/linux's base..HEAD into patches/ with git
# format-patch.  File names are the ones format-patch gives (number and
# subject); patches/series lists them in order; the cover letter
# 0000-cover-letter.patch keeps its subject and text, its shortlog and
# diffstat are made anew.
. "$(dirname "$0")/lib.sh"
[ -d "$SRC/.git" ] || die "no tree at $SRC"
[ -z "$(git -C "$SRC" status --porcelain --untracked-files=no)" ] ||
	die "build/linux has uncommitted edits: commit them first"
if [ "${FORCE:-0}" != 1 ]; then
	[ ! -f "$SRC/.git/perfctx-partial" ] ||
		die "build/linux lacks patches that did not apply ($(tr '\n' ' ' < "$SRC/.git/perfctx-partial")); FORCE=1 exports it anyway"
	[ ! -d "$SRC/.git/rebase-apply" ] && [ ! -d "$SRC/.git/rebase-merge" ] ||
		die "a git am or rebase is in progress in build/linux"
	if [ "$(git -C "$SRC" rev-list --count base..HEAD)" = 0 ] &&
	   grep -qvE '^\s*(#|$)' "$TOP/patches/series" 2>/dev/null; then
		die "build/linux has no commits on base but patches/series is not empty (HEAD moved?); FORCE=1 exports it anyway"
	fi
fi
P=$TOP/patches
mkdir -p "$P"
cover=$P/0000-cover-letter.patch
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

n=$(git -C "$SRC" rev-list --count base..HEAD)
if [ "$n" -gt 0 ]; then
	git -C "$SRC" format-patch -q --zero-commit --no-signature --cover-letter \
		-o "$tmp" base..HEAD
	# A fixed date keeps tree -> export -> tree free of diffs.
	sed -i "0,/^Date: /s/^Date: .*/Date: $(git -C "$SRC" log -1 --format=%aD HEAD)/" \
		"$tmp/0000-cover-letter.patch"
	if [ -f "$cover" ]; then
		# Keep the hand-written subject and blurb of the existing letter.
		python3 - "$cover" "$tmp/0000-cover-letter.patch" <<'PY'
import re, sys
old, new = (open(f).read() for f in sys.argv[1:])
subj = re.search(r'^Subject: (?:\[[^]]*\] )?(.*(?:\n .*)*)$', old, re.M).group(1)
ob = old.split('\n\n', 1)[1]
m = re.search(r'^\S.* \(\d+\):$', ob, re.M)
blurb = ob[:m.start()] if m else ob
new = re.sub(r'\*\*\* SUBJECT HERE \*\*\*', lambda _: subj, new)
nh, nb = new.split('\n\n', 1)
nb = re.sub(r'\A\*\*\* BLURB HERE \*\*\*\n\n', lambda _: blurb, nb)
open(sys.argv[2], 'w').write(nh + '\n\n' + nb)
PY
	fi
else
	[ -f "$cover" ] && cp "$cover" "$tmp/"
fi
rm -f "$P"/[0-9][0-9][0-9][0-9]-*.patch
cp "$tmp"/*.patch "$P"/ 2>/dev/null || true
( cd "$P" && ls [0-9][0-9][0-9][0-9]-*.patch 2>/dev/null | grep -v '^0000-' || true ) > "$P/series"
say "exported $n patches to patches/"
