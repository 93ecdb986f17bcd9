"""The bench A/B report on made-up logs, one rule at a time: medians,
spreads, goals, the B-few rows, end to end, plots (the real runs:
test_judge_real.py)."""
import contextlib
import io
import json
import os
import subprocess
import tempfile
import unittest

from workshop.judge import bench, bench_goals, bench_plot

FEW_PMUS = 'cpu software tracepoint test_hw0 breakpoint'
ALL_PMUS = FEW_PMUS + ' test_dev test_hw1 test_hw2'


def write_log(path, rows, pmus=ALL_PMUS, kernel='6.1.192+', cmdline='console=ttyS0', rc=0,
              more=()):
    """A guest's bench log: ROWS {key: [ns per rep] or ([ns], {extra: [v]})}."""
    lines = ['bench: %s, 1 CPU(s), mode full, set all' % kernel, '=== STATE kernel=' + kernel,
             '=== STATE cmdline=' + cmdline, 'pmus: %s ' % pmus, '=== BEGIN bench']
    for key, reps in rows.items():
        reps, extra = reps if isinstance(reps, tuple) else (reps, {})
        scen, _, params = key.partition(' ')
        for i, ns in enumerate(reps):
            ex = ''.join(' %s=%s' % (k, v[i % len(v)]) for k, v in extra.items())
            lines.append('bench %s %s rep=%d%s ns_per_op=%s ops=1000' % (scen, params, i + 1, ex, ns))
    lines += list(more)
    if rc is not None:
        lines.append('=== END bench rc=%d' % rc)
    with open(path, 'w') as f:
        f.write('\n'.join(lines) + '\nGUEST-EXIT: 0\n')
    return path


def no_plot(script):
    pass


def make(rows_a, rows_b, few=None, few_pmus=FEW_PMUS, b_pmus=ALL_PMUS, rc_a=0, rc_b=0, rc_f=0,
         more_a=(), more_b=(), more_f=(), m=None, rc_m=0, more_m=(), **kw):
    """(text, Result, json) of a report on made-up rows."""
    with tempfile.TemporaryDirectory() as d:
        a = write_log(os.path.join(d, 'A'), rows_a, rc=rc_a, more=more_a)
        b = write_log(os.path.join(d, 'B'), rows_b, pmus=b_pmus, rc=rc_b, more=more_b)
        f = write_log(os.path.join(d, 'F'), few, pmus=few_pmus, rc=rc_f, more=more_f) \
            if few is not None else kw.pop('few_path', None)
        if m is not None:
            kw['m_log'] = write_log(os.path.join(d, 'M'), m, pmus=FEW_PMUS, kernel='6.12.118',
                                    rc=rc_m, more=more_m)
            kw.setdefault('m_desc', 'mainline side')
        args = dict(arch='x86_64', mode='full', a_desc='A side', b_desc='B side', same='0',
                    command='./ws run bench', out_prefix=os.path.join(d, 'r'),
                    plot_run=no_plot)
        args.update(kw)
        text, res = bench.judge(a, b, f, **args)
        with open(os.path.join(d, 'r.json')) as fh:
            return text, res, json.load(fh)


def row(text, key):
    return next(x for x in text.splitlines() if x.startswith('| `%s`' % key))


def goal(j, what):
    return [g for g in j['goals'] if g[1] == what]


PIPE = {'pipe pmus=none mode=self': [100, 100, 100], 'pipe pmus=sw mode=self': [200, 200, 200]}


class Table(unittest.TestCase):
    def test_median_ratio_spread(self):
        text, res, j = make({'x a=1': [100, 103, 101]}, {'x a=1': [110, 110, 112]})
        r = j['rows'][0]
        self.assertEqual((r['a'], r['b']), (101, 110))
        self.assertAlmostEqual(r['ratio'], 110 / 101)
        self.assertAlmostEqual(r['spread_a'], 3 / 101)
        self.assertEqual(row(text, 'x a=1'),
                         '| `x a=1` | 101.0 | 110.0 | 1.089 | 2.97% | 1.82% | ! spread A |')
        self.assertEqual(j['flagged_spreads'], 1)
        self.assertIn('1 spreads over 2%', res.reason)

    def test_spread_flag_boundary(self):
        text, _, j = make({'x': [98, 100, 100]}, {'x': [97.9, 100, 100]})
        self.assertEqual(j['rows'][0]['spread_a'], 0.02)
        self.assertEqual(row(text, 'x'), '| `x` | 100.0 | 100.0 | 1.000 | 2.00% | 2.10% | ! spread B |')
        self.assertEqual(j['flagged_spreads'], 1)

    def test_one_side_missing(self):
        text, res, j = make({'x': [100]}, {'y': [50, 60]})
        self.assertEqual(row(text, 'x'), '| `x` | 100.0 | - | - | 0.00% | - |  |')
        self.assertEqual(row(text, 'y'), '| `y` | - | 55.0 | - | - | 18.18% | ! spread B |')
        self.assertEqual([r['key'] for r in j['rows']], ['x', 'y'])
        self.assertEqual(res.verdict, 'PASS')

    def test_extras(self):
        text, _, j = make({'cgroup dev=10': ([100, 100], {'active': ['10'], 'ops': ['5']})},
                          {'cgroup dev=10': ([100, 100], {'active': ['9', '10']})})
        self.assertEqual(j['rows'][0]['extra'], {'a_active': ['10'], 'b_active': ['10', '9']})
        self.assertEqual(row(text, 'cgroup dev=10').split(' | ')[-1],
                         'a_active=10, b_active=10/9, ! 10/9 of 10 device events active |')
        self.assertEqual(j['flagged_spreads'], 1)

    def test_header(self):
        text, _, _ = make(PIPE, PIPE, mode='quick', same='1')
        lines = text.splitlines()
        self.assertTrue(lines[0].startswith('# perf core A/B benchmarks: x86_64, '))
        self.assertIn('- command: `./ws run bench` (quick: the smoke run)', lines)
        self.assertIn('- A (base): A side; kernel 6.1.192+', lines)
        self.assertTrue(any(x.startswith('- A and B are the same commit') for x in lines))
        for same in ('0', False):
            text, _, _ = make(PIPE, PIPE, same=same)
            self.assertFalse(any(x.startswith('- A and B are the same') for x in text.splitlines()))
        text, _, _ = make(PIPE, PIPE, same=True)
        self.assertTrue(any(x.startswith('- A and B are the same') for x in text.splitlines()))


class Goals(unittest.TestCase):
    def test_verdict(self):
        v = bench_goals.verdict
        self.assertEqual(v(None, 1.0, 0.1), 'not measured')
        self.assertEqual(v(0.9, 1.0, None), 'yes')
        self.assertEqual(v(1.0004, 1.0, None), 'yes')
        self.assertEqual(v(1.0006, 1.0, None), 'NO')
        self.assertEqual(v(1.02, 1.0, 0.03), 'within noise (+-0.030)')
        self.assertEqual(v(1.04, 1.0, 0.03), 'NO')
        self.assertEqual(v(1.06, 1.05, 0.02), 'within noise (+-0.020)')

    def test_pipe_goals(self):
        a = {'pipe pmus=sw mode=self': [100, 100], 'pipe pmus=test_hw0 mode=self': [100, 104],
             'pipe pmus=none mode=self': [50, 50]}
        b = {'pipe pmus=sw mode=self': [99, 99], 'pipe pmus=test_hw0 mode=self': [104, 104],
             'pipe pmus=none mode=self': [50, 50]}
        _, res, j = make(a, b)
        self.assertEqual(goal(j, 'pipe pmus=sw mode=self')[0], ['(1) <= 1.00', 'pipe pmus=sw mode=self',
                                                                0.99, 'yes'])
        g = goal(j, 'pipe pmus=test_hw0 mode=self')[0]
        self.assertEqual(g[3], 'within noise (+-0.020)')
        self.assertEqual(goal(j, 'pipe mode=inherit pmus=sw')[0][2:], [None, 'not measured'])
        x = goal(j, 'pipe mode=self pmus=sw minus pmus=none')[0]
        self.assertAlmostEqual(x[2], 49 / 50)
        self.assertEqual(x[3], 'yes')
        self.assertEqual(res.verdict, 'PASS')   # timings never fail

    def test_extra_goal_noise_and_no(self):
        a = {'pipe pmus=none mode=inherit': [45, 55], 'pipe pmus=sw mode=inherit': [100, 100]}
        b = {'pipe pmus=none mode=inherit': [50, 50], 'pipe pmus=sw mode=inherit': [120, 120]}
        _, _, j = make(a, b)
        self.assertEqual(goal(j, 'pipe mode=inherit pmus=sw minus pmus=none')[0][3], 'NO')
        b['pipe pmus=sw mode=inherit'] = [101, 101]
        _, _, j = make(a, b)
        g = goal(j, 'pipe mode=inherit pmus=sw minus pmus=none')[0]
        self.assertAlmostEqual(g[2], 1.02)
        self.assertEqual(g[3], 'within noise (+-0.100)')
        b['pipe pmus=sw mode=inherit'] = [40, 40]
        _, _, j = make(a, b)
        self.assertEqual(goal(j, 'pipe mode=inherit pmus=sw minus pmus=none')[0][3], 'not measured')

    def test_cgroup_open_rotate(self):
        a = {'cgroup dev=0': [100, 100], 'open dev=0 pmu=sw': [100, 100],
             'rotate pmu=test_hw0 events=16 others=none': [90, 90],
             'rotate pmu=test_hw0 events=16 others=test_hw1': [100, 100]}
        b = {'cgroup dev=0': [105, 105], 'open dev=0 pmu=sw': [106, 106],
             'rotate pmu=test_hw0 events=16 others=none': [100, 100],
             'rotate pmu=test_hw0 events=16 others=test_hw1': [107, 107]}
        _, _, j = make(a, b)
        self.assertEqual(goal(j, 'cgroup dev=0')[0][::3], ['(3) <= 1.05', 'yes'])
        self.assertEqual(goal(j, 'open dev=0 pmu=sw')[0][::3], ['(4) <= 1.05', 'NO'])
        g = goal(j, 'B: rotate pmu=test_hw0 events=16 others=test_hw1 / others=none')[0]
        self.assertEqual(g[0], '(5) same cost (<= 1.05)')
        self.assertAlmostEqual(g[2], 1.07)
        self.assertEqual(g[3], 'NO')
        self.assertEqual(len([x for x in j['goals'] if x[0].startswith('(5)')]), 1)


FEW_ROWS = {'pipe pmus=none mode=self': [100, 100], 'pipe pmus=sw mode=self': [200, 200],
            'pipe pmus=test_hw0 mode=self': [200, 204]}
ALL_ROWS = dict(FEW_ROWS, **{'pipe pmus=test_hw0 mode=self': [203, 203],
                             'pipe pmus=sw,test_hw0 mode=self': [300, 300],
                             'cgroup dev=0': [1, 1]})


class BFew(unittest.TestCase):
    def test_rows_and_goals(self):
        text, res, j = make(ALL_ROWS, ALL_ROWS, FEW_ROWS)
        self.assertEqual([r['key'] for r in j['exist_rows']], list(FEW_ROWS))
        self.assertIn('## PMUs that exist (B only)', text)
        self.assertIn('PMUs of B that B-few lacks: test_dev, test_hw1, test_hw2.', text)
        gl = [g for g in j['goals'] if 'PMUs that exist' in g[0]]
        self.assertEqual([g[1] for g in gl], ['B: pipe pmus=sw mode=self, all PMUs / test_hw0 alone',
                                              'B: pipe pmus=test_hw0 mode=self, all PMUs / '
                                              'test_hw0 alone'])
        self.assertEqual(gl[0][3], 'yes')
        self.assertEqual(gl[1][3], 'within noise (+-0.010)')
        self.assertIn('- self: +1.0 ns per op for each PMU that exists without events (pipe '
                      'test_hw0, (B - B-few) / 3); one more PMU with events (pipe sw,test_hw0 - '
                      'pipe sw, B) adds 100.0 ns.'.replace('+1.0', '+0.3'), text)
        self.assertEqual(row(text.split('## PMUs that exist')[1], 'pipe pmus=test_hw0 mode=self'),
                         '| `pipe pmus=test_hw0 mode=self` | 202.0 | 203.0 | 1.005 | 1.98% | '
                         '0.00% |  |')
        self.assertEqual(res.verdict, 'PASS')

    def test_not_measured_when_b_few_has_the_pmus(self):
        _, _, j = make(ALL_ROWS, ALL_ROWS, FEW_ROWS, few_pmus=FEW_PMUS + ' test_dev')
        gl = [g for g in j['goals'] if 'PMUs that exist' in g[0]]
        self.assertEqual([g[2:] for g in gl], [[None, 'not measured (B-few has test_dev too)']] * 2)
        _, _, j = make(ALL_ROWS, ALL_ROWS, FEW_ROWS, few_pmus=ALL_PMUS)
        gl = [g for g in j['goals'] if 'PMUs that exist' in g[0]]
        self.assertEqual(gl[0][3], 'not measured (B-few has test_dev, test_hw1, test_hw2 too)')
        self.assertEqual(j['b_few']['pmus_b_lacks'], [])

    def test_spread_flags(self):
        text, _, j = make(ALL_ROWS, ALL_ROWS, {'pipe pmus=sw mode=self': [100, 103]})
        self.assertTrue(row(text.split('## PMUs that exist')[1], 'pipe pmus=sw mode=self')
                        .endswith('| ! spread B-few |'))
        self.assertEqual(j['flagged_spreads'], 1)

    def test_b_few_failures(self):
        _, res, _ = make(ALL_ROWS, ALL_ROWS, FEW_ROWS, rc_f=1)
        self.assertEqual(res.verdict, 'FAIL')
        self.assertIn('B-few=1', res.reason)
        _, res, _ = make(ALL_ROWS, ALL_ROWS, FEW_ROWS, more_f=['skip pipe no test_hw0'])
        self.assertIn('skipped on B-few: pipe no test_hw0', res.reason)
        _, res, _ = make(ALL_ROWS, ALL_ROWS, few_path='/nonexistent/B-few')
        self.assertEqual(res.verdict, 'FAIL')
        self.assertIn('ERROR on B-few: no log /nonexistent/B-few', res.reason)


class SideOfSeveralBoots(unittest.TestCase):
    """A side whose boots are several logs (A, A-x50...): their rows add
    up, and every one must end with rc 0."""

    def logs(self, d, rc2=0, end2=True):
        a = write_log(os.path.join(d, 'A'), {'lookup pmu=hw extra=0': [100, 100]})
        a2 = write_log(os.path.join(d, 'A2'), {'lookup pmu=hw extra=200': [300, 300]},
                       rc=rc2 if end2 else None, kernel='other')
        return [a, a2]

    def test_rows_add_up(self):
        with tempfile.TemporaryDirectory() as d:
            lg = bench.Log(self.logs(d))
        self.assertEqual(sorted(lg.res), ['lookup pmu=hw extra=0', 'lookup pmu=hw extra=200'])
        self.assertEqual(lg.state('kernel'), '6.1.192+')   # the first boot's
        self.assertTrue(lg.ok())

    def test_every_boot_must_end(self):
        with tempfile.TemporaryDirectory() as d:
            self.assertFalse(bench.Log(self.logs(d, rc2=1)).ok())
            self.assertIsNone(bench.Log(self.logs(d, end2=False)).rc)
            self.assertFalse(bench.Log(self.logs(d) + [os.path.join(d, 'none')]).ok())


class LookupGoal(unittest.TestCase):
    """(6): B at 200 extra PMUs within 2% of B at none, per event."""

    def rows(self, b200, a200=500.0):
        def r(key, a, b):
            return {'key': key, 'a': a, 'b': b, 'ratio': b / a, 'spread_a': 0.0,
                    'spread_b': 0.0}
        out = []
        for pmu in ('raw', 'hw', 'nopmu'):
            out += [r('lookup pmu=%s extra=0' % pmu, 100.0, 100.0),
                    r('lookup pmu=%s extra=200' % pmu, a200, b200)]
        return out

    def test_flat(self):
        g = bench_goals.lookup_goals(self.rows(101.9))
        self.assertEqual([x[3] for x in g], ['yes'] * 3)
        self.assertIn('A: 5.000', g[0][1])

    def test_slope(self):
        g = bench_goals.lookup_goals(self.rows(102.5))
        self.assertEqual([x[3] for x in g], ['NO'] * 3)

    def test_not_measured(self):
        self.assertEqual(bench_goals.lookup_goals([]), [])
        g = bench_goals.lookup_goals(self.rows(101.0)[:1])
        self.assertEqual([x[3] for x in g], ['not measured'] * 3)
