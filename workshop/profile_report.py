#!/usr/bin/env python3
"""profile-report.py: the insnprof counts of two kernels, function by function.

    profile-report.py [--cross PREFIX] [--top N] A_VMLINUX A_DIR B_VMLINUX B_DIR

Each DIR holds insn.txt (the plugin's "VADDR COUNT" lines) and guest.log
(perfbench's "bench ... ops=N" lines).  Every address goes to the text
symbol that holds it (nm of that side's vmlinux); the counts are divided by
the ops of the run.  Printed: the total per op on each side, then the
functions whose per-op counts differ most between A and B.
"""
import argparse
import bisect
import collections
import re
import subprocess
import sys


def symbols(vmlinux, cross):
    out = subprocess.run([cross + 'nm', '-n', '--defined-only', vmlinux],
                         check=True, capture_output=True, text=True).stdout
    addrs, names = [], []
    for line in out.splitlines():
        f = line.split()
        if len(f) < 3 or f[1] not in 'tTwW':
            continue
        addrs.append(int(f[0], 16))
        names.append(f[2])
    return addrs, names


def per_function(vmlinux, d, cross):
    addrs, names = symbols(vmlinux, cross)
    counts = collections.Counter()
    with open(d + '/insn.txt') as f:
        for line in f:
            va, n = line.split()
            i = bisect.bisect_right(addrs, int(va, 16)) - 1
            counts[names[i] if i >= 0 else '?'] += int(n)
    ops = 0
    lines = []
    with open(d + '/guest.log', errors='replace') as f:
        for line in f:
            m = re.match(r'bench .* ops=(\d+)', line)
            if m:
                ops += int(m.group(1))
                lines.append(line.strip())
    return counts, ops, lines


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--cross', default='')
    p.add_argument('--top', type=int, default=40)
    p.add_argument('a_vmlinux')
    p.add_argument('a_dir')
    p.add_argument('b_vmlinux')
    p.add_argument('b_dir')
    a = p.parse_args()
    ca, oa, la = per_function(a.a_vmlinux, a.a_dir, a.cross)
    cb, ob, lb = per_function(a.b_vmlinux, a.b_dir, a.cross)
    if not oa or not ob:
        print('no "bench ... ops=N" line in a guest.log', file=sys.stderr)
        return 1
    for side, lines in (('A', la), ('B', lb)):
        for line in lines:
            print('%s: %s' % (side, line))
    ta, tb = sum(ca.values()) / oa, sum(cb.values()) / ob
    print('kernel instructions per op (the whole boot counted): A %.1f, B %.1f, B - A %+.1f'
          % (ta, tb, tb - ta))
    rows = []
    for name in set(ca) | set(cb):
        x, y = ca[name] / oa, cb[name] / ob
        rows.append((y - x, x, y, name))
    rows.sort(key=lambda r: -abs(r[0]))
    print('%12s %12s %10s  %s' % ('A/op', 'B/op', 'B-A', 'function'))
    for d, x, y, name in rows[:a.top]:
        print('%12.1f %12.1f %+10.1f  %s' % (x, y, d, name))
    return 0


if __name__ == '__main__':
    sys.exit(main())
