"""The bench report's plots: PREFIX-NAME.png of the scaling scenarios,
base (A) and patched (B) against the scenario's parameter (gnuplot)."""
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
%splot '%s' using 1:2 with linespoints title 'base (A)', '' using 1:3 with linespoints title 'patched (B)'
'''
DEV_AXIS = 'device (test_dev) events active on the CPU'


def gnuplot(script):
    subprocess.run(['gnuplot'], input=script, text=True, check=True)


def points(rows, scen, xmap):
    pts = []
    for r in rows:
        if r['key'].split()[0] != scen:
            continue
        x = xmap(r['key'])
        if x is None or r['a'] is None or r['b'] is None:
            continue
        pts.append((x, r['a'], r['b']))
    return sorted(pts)


def plot(prefix, rows, scen, xname, xmap, title, name=None, ints=False, run=gnuplot):
    """PREFIX-NAME.png, or None when there are fewer than two points or
    gnuplot fails."""
    pts = points(rows, scen, xmap)
    if len(pts) < 2:
        return None
    dat = prefix + '-%s.dat' % (name or scen)
    png = prefix + '-%s.png' % (name or scen)
    with open(dat, 'w') as f:
        for p in pts:
            f.write('%s %s %s\n' % p)
    try:
        run(GNUPLOT % (png, title, xname, 'set xtics 1\n' if ints else '', dat))
    except (OSError, subprocess.CalledProcessError) as e:
        print('bench-report: no plot %s: %s' % (png, e), file=sys.stderr)
        return None
    finally:
        os.unlink(dat)
    return png


def count(p):
    """The number of PMUs in a pmus=/others= value ('none': 0)."""
    return 0 if p == 'none' else len(p.split(','))


def pipe_x(mode):
    def x(k):
        if param(k, 'mode') != mode:
            return None
        p = param(k, 'pmus')
        if p is None or not (p == 'none' or p.startswith('sw')):
            return None
        return count(p)
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
    ('pipe', 'pipe', 'PMUs with events on each task', pipe_x('self'),
     'context switch (pipe ping-pong), own contexts', True),
    ('pipe-inherit', 'pipe', 'PMUs with events on each task', pipe_x('inherit'),
     'context switch (pipe ping-pong), clone contexts', True),
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
