"""The bench report's plots: PREFIX-NAME.png of the scaling scenarios,
base (A), patched (B) and, where it ran, mainline (M) against the
scenario's parameter (gnuplot)."""
import os
import subprocess
import sys

from workshop.judge.bench_goals import param

GNUPLOT = '''set terminal pngcairo size 800,500
set output '%s'
set title '%s'
set xlabel '%s'
set ylabel 'guest ns per operation (= instructions)'
set key left top
set grid
set termoption noenhanced
%splot %s
'''
# The lines: (column of the data file, title); mainline's only where the
# scenario ran there.
LINES = ((2, 'base (A)'), (3, 'patched (B)'), (4, 'mainline 6.12 (M)'))
DEV_AXIS = 'device (test_dev) events active on the CPU'


def gnuplot(script):
    subprocess.run(['gnuplot'], input=script, text=True, check=True)


def points(rows, scen, xmap):
    """[(x, A, B, M or None)], sorted by x"""
    pts = []
    for r in rows:
        if r['key'].split()[0] != scen:
            continue
        x = xmap(r['key'])
        if x is None or r['a'] is None or r['b'] is None:
            continue
        pts.append((x, r['a'], r['b'], r.get('m')))
    return sorted(pts)


def plot(prefix, rows, scen, xname, xmap, title, name=None, ints=False, run=gnuplot):
    """PREFIX-NAME.png, or None when there are fewer than two points or
    gnuplot fails."""
    pts = points(rows, scen, xmap)
    if len(pts) < 2:
        return None
    dat = prefix + '-%s.dat' % (name or scen)
    png = prefix + '-%s.png' % (name or scen)
    with_m = any(p[3] is not None for p in pts)
    with open(dat, 'w') as f:
        for p in pts:
            f.write(' '.join('NaN' if v is None else str(v) for v in p[:4 if with_m else 3]) + '\n')
    lines = ', '.join("%s using 1:%d with linespoints title '%s'" % (
        "'%s'" % dat if i == 0 else "''", col, t) for i, (col, t) in enumerate(LINES[:3 if with_m else 2]))
    try:
        run(GNUPLOT % (png, title, xname, 'set xtics 1\n' if ints else '', lines))
    except (OSError, subprocess.CalledProcessError) as e:
        print('bench-report: no plot %s: %s' % (png, e), file=sys.stderr)
        return None
    finally:
        os.unlink(dat)
    return png


def count(p):
    """The number of PMUs in a pmus=/others= value ('none': 0)."""
    return 0 if p == 'none' else len(p.split(','))


# The pipe runs of guest/modes/bench.sh that add one PMU with events a step:
# the software PMUs, and the test PMUs test_hw0..N-1 (as many as the boot
# registered: test_pmu bench in config/boots.toml).
SW_CHAIN = ('none', 'sw', 'sw,tp', 'sw,tp,task-clock', 'sw,tp,task-clock,cpu-clock')


def hw_chain_index(p):
    """The number of test PMUs of a test chain step ('none': 0), or None."""
    if p == 'none':
        return 0
    names = p.split(',')
    return len(names) if names == ['test_hw%d' % i for i in range(len(names))] else None


def pipe_x(mode, chain=SW_CHAIN):
    """x of a pipe run of CHAIN in MODE (a tuple of steps, or a function
    from a step to its index): its number of PMUs"""
    index = chain if callable(chain) else (lambda p: chain.index(p) if p in chain else None)

    def x(k):
        # (the boots with more PMUs registered plot apart: exist_x)
        if param(k, 'mode') != mode or param(k, 'extra'):
            return None
        return index(param(k, 'pmus'))
    return x


def exist_x(mode):
    """x of pipe test_hw0 in MODE: the PMUs that exist without events
    beside it (extra=N of the nr_extra boots; 0: the main boot)"""
    def x(k):
        if param(k, 'mode') != mode or param(k, 'pmus') != 'test_hw0':
            return None
        return int(param(k, 'extra') or 0)
    return x


def rotate_x(k):
    o = param(k, 'others')
    return None if o is None else count(o)


def open_x(pmu):
    return lambda k: int(param(k, 'dev')) if param(k, 'pmu') == pmu else None


# (file name, scenario, x axis, x of a row, title, integer x ticks)
PLOTS = (
    ('cgroup', 'cgroup', DEV_AXIS, lambda k: int(param(k, 'dev')),
     'cgroup switch (pipe ping-pong, two cgroups)', False),
    ('open', 'open', DEV_AXIS, open_x('sw'),
     'open + enable + close of one software task event', False),
    ('open-hw', 'open', DEV_AXIS, open_x('test_hw0'),
     'open + enable + close of one test_hw0 task event', False),
    ('pipe', 'pipe', 'software PMUs with events on each task', pipe_x('self'),
     'context switch (pipe ping-pong), own contexts', True),
    ('pipe-inherit', 'pipe', 'software PMUs with events on each task', pipe_x('inherit'),
     'context switch (pipe ping-pong), clone contexts', True),
    ('pipe-hw', 'pipe', 'test PMUs with events on each task', pipe_x('self', hw_chain_index),
     'context switch (pipe ping-pong), own contexts', True),
    ('pipe-hw-inherit', 'pipe', 'test PMUs with events on each task',
     pipe_x('inherit', hw_chain_index), 'context switch (pipe ping-pong), clone contexts', True),
    ('pipe-exist', 'pipe', 'PMUs that exist without events (test_x)', exist_x('self'),
     'context switch with events of test_hw0, own contexts', False),
    ('rotate', 'rotate', 'other PMUs with events (one each)', rotate_x,
     'one rotation of test_hw0 (16 events on 4 counters)', True))


def plots(prefix, rows, run=gnuplot):
    """The PNG files made."""
    out = []
    for name, scen, xname, xmap, title, ints in PLOTS:
        p = plot(prefix, rows, scen, xname, xmap, title, name, ints, run)
        if p:
            out.append(p)
    return out
