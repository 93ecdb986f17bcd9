#!/usr/bin/env python3
"""bench-report.py: the A/B table of `make bench` (scripts/bench.sh).

Reads the two guests' logs (guest/bench.sh output: "bench SCENARIO PARAMS
rep=I [EXTRA=V...] ns_per_op=X ops=N" lines between "=== BEGIN bench" and
"=== END bench rc=N"), and prints per scenario the median of each side,
the ratio patched/base and each side's spread ((max - min) / median over
the repeats; over 2% is flagged), then the issue's goals.  With --out
PREFIX it writes PREFIX.md, PREFIX.json and PREFIX-SCENARIO.png plots of
the scaling scenarios (gnuplot).  With --b-few LOG (B booted again with
fewer PMUs registered) it also sets B's pipe runs with fewer PMUs against
the same runs with all of them.  Exit status: 0 when every guest ran end
to end (every scenario measured), else 1.  Timings never change the exit
status.
"""
import argparse
import datetime
import json
import os
import re
import statistics
import subprocess
import sys

SPREAD_FLAG = 0.02


def parse(path):
    """{key: {'ns': [..], 'extra': {..}}}, skips, errors, rc (None: no end)"""
    res, skips, errors, rc, inside = {}, [], [], None, False
    try:
        lines = open(path, errors='replace').read().splitlines()
    except OSError:
        return res, skips, ['no log %s' % path], None
    for line in lines:
        if line.startswith('=== BEGIN bench'):
            inside = True
            continue
        m = re.match(r'=== END bench rc=(\d+)', line)
        if m:
            rc = int(m.group(1))
            inside = False
            continue
        if not inside:
            continue
        tok = line.split()
        if not tok:
            continue
        if tok[0] == 'skip':
            skips.append(' '.join(tok[1:]))
            continue
        if tok[0] == 'error':
            errors.append(' '.join(tok[1:]))
            continue
        if tok[0] != 'bench' or len(tok) < 3:
            continue
        params, extra, i = [], {}, 2
        while i < len(tok) and not tok[i].startswith('rep='):
            params.append(tok[i])
            i += 1
        for t in tok[i + 1:]:
            k, _, v = t.partition('=')
            extra[k] = v
        if 'ns_per_op' not in extra:
            continue
        key = ' '.join([tok[1]] + params)
        r = res.setdefault(key, {'ns': [], 'extra': {}})
        r['ns'].append(float(extra.pop('ns_per_op')))
        for k, v in extra.items():
            r['extra'].setdefault(k, []).append(v)
    return res, skips, errors, rc


def summary(vals):
    if not vals:
        return None, None
    med = statistics.median(vals)
    spread = (max(vals) - min(vals)) / abs(med) if med else 0.0
    return med, spread


def fmt(x, nd=1):
    return '-' if x is None else ('%.*f' % (nd, x))


def param(key, name):
    m = re.search(r'(?:^| )%s=(\S+)' % re.escape(name), key)
    return m.group(1) if m else None


def verdict(x, thr, noise):
    """yes / within noise / NO for "x <= thr"; x None: not measured"""
    if x is None:
        return 'not measured'
    if x <= thr + 0.0005:
        return 'yes'
    if noise is not None and x <= thr + noise:
        return 'within noise (+-%.3f)' % noise
    return 'NO'


def goals(rows):
    """the issue's goals, each: (goal, what, value, verdict)

    The noise of a value is half the repeats' spread, carried through the
    value's formula: a value over its bound by less is "within noise"."""
    out = []

    def find(scen, **want):
        for r in rows:
            if r['key'].split()[0] == scen and \
               all(param(r['key'], k) == v for k, v in want.items()):
                return r
        return None

    def rnoise(r):
        if not r or r['spread_a'] is None or r['spread_b'] is None:
            return None
        return (r['spread_a'] + r['spread_b']) / 2

    for mode, n in (('self', '(1)'), ('inherit', '(2)')):
        for pmus in ('sw', 'test_hw0'):
            r = find('pipe', mode=mode, pmus=pmus)
            x = r['ratio'] if r else None
            out.append((n + ' <= 1.00', r['key'] if r else 'pipe mode=%s pmus=%s' % (mode, pmus),
                        x, verdict(x, 1.0, rnoise(r))))
    # The design note's measure: the extra cost over no events.
    for mode, n in (('self', '(1)'), ('inherit', '(2)')):
        none = find('pipe', mode=mode, pmus='none')
        for pmus in ('sw', 'test_hw0'):
            r = find('pipe', mode=mode, pmus=pmus)
            x = noise = None
            if r and none and None not in (r['a'], r['b'], none['a'], none['b'],
                                           r['spread_a'], r['spread_b'],
                                           none['spread_a'], none['spread_b']) \
               and r['a'] > none['a'] and r['b'] > none['b']:
                x = (r['b'] - none['b']) / (r['a'] - none['a'])
                noise = ((r['a'] * r['spread_a'] + none['a'] * none['spread_a'])
                         / (2 * (r['a'] - none['a'])) +
                         (r['b'] * r['spread_b'] + none['b'] * none['spread_b'])
                         / (2 * (r['b'] - none['b'])))
            out.append((n + ' extra over no events <= 1.00',
                        'pipe mode=%s pmus=%s minus pmus=none' % (mode, pmus),
                        x, verdict(x, 1.0, noise)))
    for scen, n in (('cgroup', '(3)'), ('open', '(4)')):
        for r in rows:
            if r['key'].split()[0] == scen:
                x = r['ratio']
                out.append((n + ' <= 1.05', r['key'], x, verdict(x, 1.05, rnoise(r))))
    # (5) on the patched side: the cost of a rotation of test_hw0 with
    # other PMUs' events against without.
    base = find('rotate', pmu='test_hw0', others='none')
    for r in rows:
        if r['key'].startswith('rotate ') and base and r is not base and r['b'] and base['b']:
            x = r['b'] / base['b']
            noise = None
            if r['spread_b'] is not None and base['spread_b'] is not None:
                noise = (r['spread_b'] + base['spread_b']) / 2
            out.append(('(5) same cost (<= 1.05)', 'B: %s / others=none' % r['key'],
                        x, verdict(x, 1.05, noise)))
    return out


# The PMUs that B has and B-few must not, for the "PMUs that exist" rows.
EXIST_EXTRA = {'test_hw1', 'test_hw2', 'test_dev'}


def state(path, name):
    """the value of a guest log's "=== STATE NAME=" line, or '?'"""
    try:
        m = re.search(r'^=== STATE %s=(.*)$' % re.escape(name),
                      open(path, errors='replace').read(), re.M)
    except OSError:
        return '?'
    return m.group(1) if m else '?'


def pmus_of(path):
    """the PMUs a guest had: its "pmus: ..." line (guest/bench.sh)"""
    try:
        for line in open(path, errors='replace'):
            if line.startswith('pmus: '):
                return set(line.split()[1:])
    except OSError:
        pass
    return set()


def exist_keys(key):
    """(goal number, mode) of a pipe run the "PMUs that exist" rows judge"""
    mode = param(key, 'mode')
    if key.split()[0] != 'pipe' or mode not in ('self', 'inherit'):
        return None
    return '(1)' if mode == 'self' else '(2)'


def goals_exist(erows, extra):
    """(1), (2): the cost grows with the PMUs that have events, not with
    the PMUs that exist: B with all PMUs registered against B with fewer,
    where both have the same events.  Over 1.00 by less than the noise
    (half the two spreads) is "within noise".  Not measured unless B-few
    really lacked the PMUs of EXIST_EXTRA."""
    out = []
    for r in erows:
        n = exist_keys(r['key'])
        if n is None or param(r['key'], 'pmus') == 'none':
            continue
        what = 'B: %s, all PMUs / test_hw0 alone' % r['key']
        goal = n + ' not with the PMUs that exist (<= 1.00)'
        if not EXIST_EXTRA <= extra:
            out.append((goal, what, None, 'not measured (B-few has %s too)'
                        % ', '.join(sorted(EXIST_EXTRA - extra))))
            continue
        noise = None
        if r['spread_few'] is not None and r['spread_all'] is not None:
            noise = (r['spread_few'] + r['spread_all']) / 2
        out.append((goal, what, r['ratio'], verdict(r['ratio'], 1.0, noise)))
    return out


def plot(prefix, rows, scen, xname, xmap, title, name=None, ints=False):
    pts = []
    for r in rows:
        if r['key'].split()[0] != scen:
            continue
        x = xmap(r['key'])
        if x is None or r['a'] is None or r['b'] is None:
            continue
        pts.append((x, r['a'], r['b']))
    if len(pts) < 2:
        return None
    pts.sort()
    dat = prefix + '-%s.dat' % (name or scen)
    png = prefix + '-%s.png' % (name or scen)
    with open(dat, 'w') as f:
        for p in pts:
            f.write('%s %s %s\n' % p)
    gp = '''set terminal pngcairo size 800,500
set output '%s'
set title '%s'
set xlabel '%s'
set ylabel 'guest ns per operation (= instructions)'
set key left top
set grid
set termoption noenhanced
%splot '%s' using 1:2 with linespoints title 'base (A)', '' using 1:3 with linespoints title 'patched (B)'
''' % (png, title, xname, 'set xtics 1\n' if ints else '', dat)
    try:
        subprocess.run(['gnuplot'], input=gp, text=True, check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        print('bench-report: no plot %s: %s' % (png, e), file=sys.stderr)
        return None
    finally:
        os.unlink(dat)
    return png


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--arch', required=True)
    ap.add_argument('--mode', default='full')
    ap.add_argument('--a', required=True)
    ap.add_argument('--b', required=True)
    ap.add_argument('--b-few', help='B booted with fewer PMUs registered')
    ap.add_argument('--a-desc', default='A')
    ap.add_argument('--b-desc', default='B')
    ap.add_argument('--same', default='0')
    ap.add_argument('--command', default='make bench')
    ap.add_argument('--logdir')
    ap.add_argument('--out')
    o = ap.parse_args()

    ra, sa, ea, rca = parse(o.a)
    rb, sb, eb, rcb = parse(o.b)
    keys = list(ra) + [k for k in rb if k not in ra]
    rows = []
    for k in keys:
        a, spa = summary(ra.get(k, {}).get('ns', []))
        b, spb = summary(rb.get(k, {}).get('ns', []))
        ratio = b / a if a and b is not None else None
        extra = {}
        for side, r in (('a', ra), ('b', rb)):
            for ek, ev in r.get(k, {}).get('extra', {}).items():
                if ek != 'ops':
                    extra['%s_%s' % (side, ek)] = sorted(set(ev))
        rows.append({'key': k, 'a': a, 'b': b, 'ratio': ratio,
                     'spread_a': spa, 'spread_b': spb,
                     'reps_a': ra.get(k, {}).get('ns', []),
                     'reps_b': rb.get(k, {}).get('ns', []),
                     'extra': extra})

    # B with fewer PMUs registered against B with all of them
    erows, sf, ef, rcf, extra_pmus = [], [], [], 0, set()
    if o.b_few:
        rf, sf, ef, rcf = parse(o.b_few)
        extra_pmus = pmus_of(o.b) - pmus_of(o.b_few)
        for k in rf:
            few, sp_few = summary(rf[k]['ns'])
            allv, sp_all = summary(rb.get(k, {}).get('ns', []))
            erows.append({'key': k, 'few': few, 'all': allv,
                          'ratio': allv / few if few and allv is not None else None,
                          'spread_few': sp_few, 'spread_all': sp_all,
                          'reps_few': rf[k]['ns'],
                          'reps_all': rb.get(k, {}).get('ns', [])})

    date = datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')
    kern = {'A': state(o.a, 'kernel'), 'B': state(o.b, 'kernel')}
    md = []
    md.append('# perf core A/B benchmarks: %s, %s' % (o.arch, date))
    md.append('')
    md.append('- command: `%s`%s' % (o.command, ' (quick: the smoke run)' if o.mode == 'quick' else ''))
    md.append('- A (base): %s; kernel %s' % (o.a_desc, kern['A']))
    md.append('- B (patched): %s; kernel %s' % (o.b_desc, kern['B']))
    if o.same == '1':
        md.append('- A and B are the same commit (no rewrite patch after the A side yet): '
                  'the ratios show the harness\'s own noise.')
    md.append('- QEMU TCG, `-icount shift=0,sleep=off`, `-smp 1`: guest ns = guest instructions. '
              'Medians of the repeats; spread = (max - min) / median, '
              'flagged `!` over %d%%.' % (SPREAD_FLAG * 100))
    md.append('')
    md.append('| scenario | base ns/op | patched ns/op | patched/base | spread A | spread B | notes |')
    md.append('|---|---:|---:|---:|---:|---:|---|')
    flagged = 0
    for r in rows:
        notes = []
        for s in ('spread_a', 'spread_b'):
            if r[s] is not None and r[s] > SPREAD_FLAG:
                notes.append('! spread %s' % s[-1].upper())
                flagged += 1
        for ek, ev in sorted(r['extra'].items()):
            notes.append('%s=%s' % (ek, '/'.join(ev)))
            dev = param(r['key'], 'dev')
            if ek.endswith('_active') and dev is not None and ev != [dev]:
                notes.append('! %s of %s device events active' % ('/'.join(ev), dev))
                flagged += 1
        sp = ['-' if r[s] is None else '%.2f%%' % (r[s] * 100) for s in ('spread_a', 'spread_b')]
        md.append('| `%s` | %s | %s | %s | %s | %s | %s |' % (
            r['key'], fmt(r['a']), fmt(r['b']), fmt(r['ratio'], 3), sp[0], sp[1],
            ', '.join(notes)))
    md.append('')
    md.append('## Goals (issue 6)')
    md.append('')
    md.append('| goal | measured | value | met |')
    md.append('|---|---|---:|---|')
    gl = goals(rows) + goals_exist(erows, extra_pmus)
    for g, what, x, v in gl:
        md.append('| %s | `%s` | %s | %s |' % (g, what, fmt(x, 3), v))
    md.append('')
    if erows:
        md.append('## PMUs that exist (B only)')
        md.append('')
        md.append('B booted again with fewer PMUs registered (B-few: kernel %s, `%s`); '
                  'the same runs, whose events are on PMUs that both boots have.  '
                  'PMUs of B that B-few lacks: %s.' % (
                      state(o.b_few, 'kernel'), state(o.b_few, 'cmdline'),
                      ', '.join(sorted(extra_pmus)) or 'none'))
        md.append('')
        md.append('| scenario | B-few ns/op | B ns/op | B/B-few | spread B-few | spread B | notes |')
        md.append('|---|---:|---:|---:|---:|---:|---|')
        for r in erows:
            notes = []
            for x in ('spread_few', 'spread_all'):
                if r[x] is not None and r[x] > SPREAD_FLAG:
                    notes.append('! %s' % x.replace('_all', ' B').replace('_few', ' B-few'))
                    flagged += 1
            sp = ['-' if r[x] is None else '%.2f%%' % (r[x] * 100)
                  for x in ('spread_few', 'spread_all')]
            md.append('| `%s` | %s | %s | %s | %s | %s | %s |' % (
                r['key'], fmt(r['few']), fmt(r['all']), fmt(r['ratio'], 3), sp[0], sp[1],
                ', '.join(notes)))
        # Against the cost of one more PMU with events on B.
        bk = {r['key']: r for r in rows}
        n_extra = len(extra_pmus)
        lines = []
        for mode in ('self', 'inherit'):
            one = [r for r in erows if r['key'] == 'pipe pmus=test_hw0 mode=%s' % mode]
            a1 = bk.get('pipe pmus=sw mode=%s' % mode)
            a2 = bk.get('pipe pmus=sw,test_hw0 mode=%s' % mode)
            if one and one[0]['all'] is not None and one[0]['few'] is not None and \
               n_extra and a1 and a2 and a1['b'] is not None and a2['b'] is not None:
                lines.append('- %s: %+.1f ns per op for each PMU that exists without events '
                          '(pipe test_hw0, (B - B-few) / %d); one more PMU with events '
                          '(pipe sw,test_hw0 - pipe sw, B) adds %.1f ns.' % (
                              mode, (one[0]['all'] - one[0]['few']) / n_extra, n_extra,
                              a2['b'] - a1['b']))
        if lines:
            md.append('')
            md.extend(lines)
        md.append('')
    for side, s, e in (('A', sa, ea), ('B', sb, eb), ('B-few', sf, ef)):
        for x in s:
            md.append('- skipped on %s: %s' % (side, x))
        for x in e:
            md.append('- ERROR on %s: %s' % (side, x))
    # Every scenario of guest/bench.sh must run: a skip is the guest's setup
    # gone wrong (no test PMU, no cgroup2...), so it fails the harness too.
    ok = rca == 0 and rcb == 0 and not ea and not eb and not sa and not sb and bool(rows)
    if o.b_few:
        ok = ok and rcf == 0 and not ef and not sf
    if not ok:
        md.append('- the harness did not run end to end (guest rc A=%s B=%s%s; errors and skips above)'
                  % (rca, rcb, ' B-few=%s' % rcf if o.b_few else ''))

    pngs = []
    if o.out:
        os.makedirs(os.path.dirname(o.out), exist_ok=True)
        npmus = {'none': 0}

        def pipe_x(mode):
            def x(k):
                if param(k, 'mode') != mode:
                    return None
                p = param(k, 'pmus')
                if p is None or not (p == 'none' or p.startswith('sw')):
                    return None
                return npmus.get(p, len(p.split(',')))
            return x

        def rotate_x(k):
            o = param(k, 'others')
            return None if o is None else npmus.get(o, len(o.split(',')))

        def open_x(pmu):
            return lambda k: int(param(k, 'dev')) if param(k, 'pmu') == pmu else None

        dev_axis = 'device (test_dev) events active on the CPU'
        # (file name, scenario, x axis, x of a row, title, integer x ticks)
        for name, scen, xname, xmap, title, ints in (
                ('cgroup', 'cgroup', dev_axis, lambda k: int(param(k, 'dev')),
                 'cgroup switch (pipe ping-pong, two cgroups)', False),
                ('open', 'open', dev_axis, open_x('sw'),
                 'open + enable + close of one software task event', False),
                ('open-hw', 'open', dev_axis, open_x('test_hw0'),
                 'open + enable + close of one test_hw0 task event', False),
                ('pipe', 'pipe', 'PMUs with events on each task', pipe_x('self'),
                 'context switch (pipe ping-pong), own contexts', True),
                ('pipe-inherit', 'pipe', 'PMUs with events on each task', pipe_x('inherit'),
                 'context switch (pipe ping-pong), clone contexts', True),
                ('rotate', 'rotate', 'other PMUs with events (one each)', rotate_x,
                 'one rotation of test_hw0 (16 events on 4 counters)', True)):
            p = plot(o.out, rows, scen, xname, xmap, title, name, ints)
            if p:
                pngs.append(p)
        if pngs:
            if md[-1]:
                md.append('')
            md.append('Plots: ' + ', '.join('`%s`' % os.path.basename(p) for p in pngs))
    text = '\n'.join(md) + '\n'
    sys.stdout.write(text)
    if o.logdir:
        with open(os.path.join(o.logdir, 'report.md'), 'w') as f:
            f.write(text)
    if o.out:
        with open(o.out + '.md', 'w') as f:
            f.write(text)
        with open(o.out + '.json', 'w') as f:
            json.dump({'arch': o.arch, 'date': date, 'command': o.command,
                       'a': o.a_desc, 'b': o.b_desc, 'kernels': kern,
                       'rows': rows, 'exist_rows': erows,
                       'b_few': {'kernel': state(o.b_few, 'kernel') if o.b_few else None,
                                 'cmdline': state(o.b_few, 'cmdline') if o.b_few else None,
                                 'pmus_b_lacks': sorted(extra_pmus)},
                       'goals': [list(g) for g in gl],
                       'flagged_spreads': flagged}, f, indent=1)
        print('bench: report in %s.md' % os.path.relpath(o.out))
    print('bench: %s, %d scenarios, %d spreads over %d%%' % (
        'ran end to end' if ok else 'DID NOT RUN END TO END', len(rows), flagged,
        SPREAD_FLAG * 100))
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
