"""The bench report's markdown: the A/B table, the goals, the "PMUs that
exist" table, the skips and errors of each side."""
from workshop.judge import bench_goals
from workshop.judge.bench_goals import param

# A side's spread over this is flagged '!'.
SPREAD_FLAG = 0.02


def fmt(x, nd=1):
    return '-' if x is None else ('%.*f' % (nd, x))


def pct(x):
    return '-' if x is None else '%.2f%%' % (x * 100)


def all_goals(bn):
    return bench_goals.goals(bn.rows) + bench_goals.goals_exist(bn.erows, bn.extra_pmus) + \
        bench_goals.goals_23(bn.rows) + (bench_goals.goals_mainline(bn.rows) if bn.m else [])


def header(bn, arch, mode, a_desc, b_desc, same, command):
    md = ['# perf core A/B benchmarks: %s, %s' % (arch, bn.date), '',
          '- command: `%s`%s' % (command, ' (quick: the smoke run)' if mode == 'quick' else ''),
          '- A (base): %s; kernel %s' % (a_desc, bn.kernels['A']),
          '- B (patched): %s; kernel %s' % (b_desc, bn.kernels['B'])]
    if bn.m:
        md.append('- M (mainline): %s; kernel %s' % (bn.m_desc or '?', bn.kernels['M']))
    if same in (True, '1'):       # '1' as the old command line gave it
        md.append('- A and B are the same commit (no rewrite patch after the A side yet): '
                  'the ratios show the harness\'s own noise.')
    md.append('- QEMU TCG, `-icount shift=0,sleep=off`, `-smp 1`: guest ns = guest instructions. '
              'Medians of the repeats; spread = (max - min) / median, '
              'flagged `!` over %d%%.' % (SPREAD_FLAG * 100))
    return md + ['']


def ab_table(rows):
    """(lines, spreads flagged)"""
    md = ['| scenario | base ns/op | patched ns/op | patched/base | spread A | spread B | notes |',
          '|---|---:|---:|---:|---:|---:|---|']
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
        md.append('| `%s` | %s | %s | %s | %s | %s | %s |' % (
            r['key'], fmt(r['a']), fmt(r['b']), fmt(r['ratio'], 3), pct(r['spread_a']),
            pct(r['spread_b']), ', '.join(notes)))
    return md + [''], flagged


def mainline_table(rows):
    """(lines, spreads flagged): the rows M ran, against B and A."""
    md = ['## Against mainline (M)', '',
          'Over no events: what the events add on B over what they add on M (the same '
          'run with no event: pipe none, or the tick\'s none=); 6.12 runs the loops '
          'themselves faster.', '',
          '| scenario | M ns/op | patched ns/op | patched/M | base/M | patched/M over no events '
          '| spread M | notes |',
          '|---|---:|---:|---:|---:|---:|---:|---|']
    flagged = 0
    for r in rows:
        if 'm' not in r:
            continue
        notes = []
        if r['spread_m'] is not None and r['spread_m'] > SPREAD_FLAG:
            notes.append('! spread M')
            flagged += 1
        am = r['a'] / r['m'] if r['a'] is not None and r['m'] else None
        md.append('| `%s` | %s | %s | %s | %s | %s | %s | %s |' % (
            r['key'], fmt(r['m']), fmt(r['b']), fmt(r['ratio_bm'], 3), fmt(am, 3),
            fmt(r['over_bm'], 3), pct(r['spread_m']), ', '.join(notes)))
    return md + [''], flagged


def goal_table(goals):
    md = ['## Goals', '', '| goal | measured | value | met |', '|---|---|---:|---|']
    md += ['| %s | `%s` | %s | %s |' % (g, what, fmt(x, 3), v) for g, what, x, v in goals]
    return md + ['']


def exist_table(bn):
    """(lines, spreads flagged) of B against B-few."""
    md = ['## PMUs that exist (B only)', '',
          'B booted again with fewer PMUs registered (B-few: kernel %s, `%s`); '
          'the same runs, whose events are on PMUs that both boots have.  '
          'PMUs of B that B-few lacks: %s.' % (
              bn.few.state('kernel'), bn.few.state('cmdline'),
              ', '.join(sorted(bn.extra_pmus)) or 'none'), '',
          '| scenario | B-few ns/op | B ns/op | B/B-few | spread B-few | spread B | notes |',
          '|---|---:|---:|---:|---:|---:|---|']
    flagged = 0
    for r in bn.erows:
        notes = []
        for x in ('spread_few', 'spread_all'):
            if r[x] is not None and r[x] > SPREAD_FLAG:
                notes.append('! %s' % x.replace('_all', ' B').replace('_few', ' B-few'))
                flagged += 1
        md.append('| `%s` | %s | %s | %s | %s | %s | %s |' % (
            r['key'], fmt(r['few']), fmt(r['all']), fmt(r['ratio'], 3),
            pct(r['spread_few']), pct(r['spread_all']), ', '.join(notes)))
    lines = per_pmu(bn)
    if lines:
        md += [''] + lines
    return md + [''], flagged


def per_pmu(bn):
    """Against the cost of one more PMU with events on B."""
    bk = {r['key']: r for r in bn.rows}
    n_extra = len(bn.extra_pmus)
    lines = []
    for mode in ('self', 'inherit'):
        one = [r for r in bn.erows if r['key'] == 'pipe pmus=test_hw0 mode=%s' % mode]
        a1 = bk.get('pipe pmus=sw mode=%s' % mode)
        a2 = bk.get('pipe pmus=sw,test_hw0 mode=%s' % mode)
        if one and one[0]['all'] is not None and one[0]['few'] is not None and \
           n_extra and a1 and a2 and a1['b'] is not None and a2['b'] is not None:
            lines.append('- %s: %+.1f ns per op for each PMU that exists without events '
                         '(pipe test_hw0, (B - B-few) / %d); one more PMU with events '
                         '(pipe sw,test_hw0 - pipe sw, B) adds %.1f ns.' % (
                             mode, (one[0]['all'] - one[0]['few']) / n_extra, n_extra,
                             a2['b'] - a1['b']))
    return lines


def markdown(bn, arch, mode, a_desc, b_desc, same, command):
    """(lines, spreads flagged): the report without its plots line."""
    table, flagged = ab_table(bn.rows)
    md = header(bn, arch, mode, a_desc, b_desc, same, command) + table
    if bn.m:
        lines, n = mainline_table(bn.rows)
        md += lines
        flagged += n
    md += goal_table(bn.goals)
    if bn.erows:
        lines, n = exist_table(bn)
        md += lines
        flagged += n
    for side, lg in bn.sides():
        md += ['- skipped on %s: %s' % (side, x) for x in lg.skips]
        md += ['- ERROR on %s: %s' % (side, x) for x in lg.errors]
    if not bn.ok:
        md.append('- ' + bn.failure())
    return md, flagged
