#!/usr/bin/env python3
"""checkpatch-filter.py SRC PATCH EXCEPTIONS < checkpatch output: drop the
complaints tests/checkpatch-exceptions.txt accepts, and FILE_PATH_CHANGES
when MAINTAINERS covers every file the patch adds or removes.  Prints what
is left (and, indented, what was accepted and why); exit 1 if anything is
left."""
import fnmatch
import re
import subprocess
import sys

src, patch, exc_path = sys.argv[1:4]
exc = []
for line in open(exc_path):
    line = line.strip()
    if not line or line.startswith('#'):
        continue
    t, glob, why = [x.strip() for x in line.split('|', 2)]
    exc.append((t, glob, why))

blocks, cur = [], []
for line in sys.stdin.read().splitlines():
    if re.match(r'^(WARNING|ERROR|CHECK):', line):
        if cur:
            blocks.append(cur)
        cur = [line]
    elif cur:
        cur.append(line)
    elif line.strip():
        blocks.append([line])
if cur:
    blocks.append(cur)


def covered(paths):
    for p in paths:
        out = subprocess.run([src + '/scripts/get_maintainer.pl', '--no-git',
                              '--no-git-fallback', '-f', p], cwd=src,
                             capture_output=True, text=True).stdout
        if not re.search(r'\((maintainer|supporter|reviewer|odd fixer):', out):
            return False, p
    return True, None


changed = []
for line in open(patch):
    m = re.match(r'^diff --git a/(\S+) b/(\S+)', line)
    if m:
        last = m.group(2)
    if re.match(r'^(new|deleted) file mode', line) or line.startswith('rename '):
        changed.append(last)

left = 0
for b in blocks:
    m = re.match(r'^(?:WARNING|ERROR|CHECK):([A-Z_]+):', b[0])
    t = m.group(1) if m else None
    f = None
    for line in b:
        m2 = re.search(r'FILE: (\S+?):\d+:', line)
        if m2:
            f = m2.group(1)
            break
    why = None
    if t == 'FILE_PATH_CHANGES':
        ok, bad = covered(changed)
        if ok:
            why = 'MAINTAINERS covers ' + ', '.join(changed)
    else:
        for et, glob, ewhy in exc:
            if et == t and f and fnmatch.fnmatch(f, glob):
                why = ewhy
                break
    if why:
        print('  accepted %s (%s): %s' % (t, f or '-', why))
    else:
        left += 1
        print('\n'.join(b))
sys.exit(1 if left else 0)
