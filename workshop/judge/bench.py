"""The bench A/B report (make bench): the two guests' logs ("bench SCENARIO
PARAMS rep=I [EXTRA=V...] ns_per_op=X ops=N" lines between "=== BEGIN
bench" and "=== END bench rc=N"), per scenario the median of each side,
the ratio patched/base and each side's spread ((max - min) / median over
the repeats; over SPREAD_FLAG is flagged), then the issue's goals
(bench_goals.py).  With a B-few log (B booted again with fewer PMUs
registered) it also sets B's pipe runs with fewer PMUs against the same
runs with all of them.  ok: every guest ran end to end (every scenario
measured); timings never change it."""
import datetime
import json
import os
import re
import statistics

from workshop.judge import bench_goals, bench_md, bench_plot
from workshop.judge.bench_md import SPREAD_FLAG
from workshop.judge.result import Result
END = re.compile(r'=== END bench rc=(\d+)')


class Log:
    """One side's bench blocks: {key: {'ns': [..], 'extra': {k: [..]}}},
    skips, errors, rc (None: some block did not end).  PATH: a guest.log,
    or a list of them (the side's boots: the first is the main one, whose
    STATE and pmus lines count; the others add their own keys)."""

    def __init__(self, path):
        paths = list(path) if isinstance(path, (list, tuple)) else [path]
        self.path = paths[0] if paths else None
        self.res, self.skips, self.errors, self.rc = {}, [], [], None
        self.text, rcs = None, []
        for p in paths:
            rcs.append(self.read(p))
        if self.text is None:
            self.text = ''
        if rcs and None not in rcs:
            self.rc = max(rcs)

    def read(self, path):
        """Parse one guest.log; its block's rc (None: none, or no end)."""
        try:
            with open(path, errors='replace') as f:
                text = f.read()
        except (OSError, TypeError):
            self.errors.append('no log %s' % path)
            return None
        if self.text is None:
            self.text = text
        inside, rc = False, None
        for line in text.splitlines():
            if line.startswith('=== BEGIN bench'):
                inside = True
                continue
            m = END.match(line)
            if m:
                rc = int(m.group(1))
                inside = False
            elif inside:
                self.line(line.split())
        return rc

    def line(self, tok):
        if not tok:
            return
        if tok[0] in ('skip', 'error'):
            (self.skips if tok[0] == 'skip' else self.errors).append(' '.join(tok[1:]))
            return
        if tok[0] != 'bench' or len(tok) < 3:
            return
        params, extra, i = [], {}, 2
        while i < len(tok) and not tok[i].startswith('rep='):
            params.append(tok[i])
            i += 1
        for t in tok[i + 1:]:
            k, _, v = t.partition('=')
            extra[k] = v
        if 'ns_per_op' not in extra:
            return
        r = self.res.setdefault(' '.join([tok[1]] + params), {'ns': [], 'extra': {}})
        r['ns'].append(float(extra.pop('ns_per_op')))
        for k, v in extra.items():
            r['extra'].setdefault(k, []).append(v)

    def ns(self, key):
        return self.res.get(key, {}).get('ns', [])

    def state(self, name):
        """the value of the log's "=== STATE NAME=" line, or '?'"""
        m = re.search(r'^=== STATE %s=(.*)$' % re.escape(name), self.text, re.M)
        return m.group(1) if m else '?'

    def pmus(self):
        """the PMUs the guest had: its "pmus: ..." line (guest/modes/bench.sh)"""
        for line in self.text.splitlines(True):
            if line.startswith('pmus: '):
                return set(line.split()[1:])
        return set()

    def ok(self):
        return self.rc == 0 and not self.errors and not self.skips


def summary(vals):
    """(median, spread) of the repeats; (None, None) for none."""
    if not vals:
        return None, None
    med = statistics.median(vals)
    spread = (max(vals) - min(vals)) / abs(med) if med else 0.0
    return med, spread


def ab_rows(la, lb):
    rows = []
    for k in list(la.res) + [k for k in lb.res if k not in la.res]:
        a, spa = summary(la.ns(k))
        b, spb = summary(lb.ns(k))
        extra = {}
        for side, lg in (('a', la), ('b', lb)):
            for ek, ev in lg.res.get(k, {}).get('extra', {}).items():
                if ek != 'ops':
                    extra['%s_%s' % (side, ek)] = sorted(set(ev))
        rows.append({'key': k, 'a': a, 'b': b, 'ratio': b / a if a and b is not None else None,
                     'spread_a': spa, 'spread_b': spb,
                     'reps_a': la.ns(k), 'reps_b': lb.ns(k), 'extra': extra})
    return rows


def no_events(rows, lm, r):
    """(B's, M's) time of REPS's scenario with no perf event, or None: the
    pipe run with none, in the same mode (the cgroup ping-pong: the pipe's
    own contexts), or the tick's own none= figure.  6.12 runs the same
    loop faster with no events at all (the scheduler, the pipe): only what
    the events add is the perf core's."""
    scen, mode = r['key'].split()[0], bench_goals.param(r['key'], 'mode')
    if scen == 'tick':
        b0 = [float(v) for v in r['extra'].get('b_none', [])]
        m0 = [float(v) for v in lm.res.get(r['key'], {}).get('extra', {}).get('none', [])]
        return (statistics.median(b0), statistics.median(m0)) if b0 and m0 else None
    if scen == 'pipe' and bench_goals.param(r['key'], 'pmus') != 'none':
        key = 'pipe pmus=none mode=%s' % mode
    elif scen == 'cgroup':
        key = 'pipe pmus=none mode=self'
    else:
        return None
    base = next((x for x in rows if x['key'] == key), None)
    m0 = summary(lm.ns(key))[0]
    return (base['b'], m0) if base and base['b'] is not None and m0 is not None else None


def add_mainline(rows, lm):
    """Mainline 6.12's figures (M) beside the A/B rows it ran, the ratio
    patched/M, and over_bm: what the events add on B over what they add
    on M (no_events())."""
    for r in rows:
        m, spm = summary(lm.ns(r['key']))
        if m is None:
            continue
        r.update({'m': m, 'spread_m': spm, 'reps_m': lm.ns(r['key']),
                  'ratio_bm': r['b'] / m if m and r['b'] is not None else None,
                  'over_bm': None})
        z = no_events(rows, lm, r)
        if z and r['b'] is not None and m - z[1] > 0:
            r['over_bm'] = (r['b'] - z[0]) / (m - z[1])


def exist_rows(lf, lb):
    """B with fewer PMUs registered against B with all of them."""
    rows = []
    for k in lf.res:
        few, sp_few = summary(lf.ns(k))
        allv, sp_all = summary(lb.ns(k))
        rows.append({'key': k, 'few': few, 'all': allv,
                     'ratio': allv / few if few and allv is not None else None,
                     'spread_few': sp_few, 'spread_all': sp_all,
                     'reps_few': lf.ns(k), 'reps_all': lb.ns(k)})
    return rows


class Bench:
    """Everything the report says, computed once."""
    m_desc = None       # what M is (a mainline kernel), for the header

    def __init__(self, a_log, b_log, b_few_log=None, now=None, m_log=None):
        self.a, self.b = Log(a_log), Log(b_log)
        self.few = Log(b_few_log) if b_few_log else None
        self.m = Log(m_log) if m_log else None
        self.rows = ab_rows(self.a, self.b)
        if self.m:
            add_mainline(self.rows, self.m)
        self.erows, self.extra_pmus = [], set()
        if self.few:
            self.extra_pmus = self.b.pmus() - self.few.pmus()
            self.erows = exist_rows(self.few, self.b)
        now = now or datetime.datetime.now(datetime.timezone.utc)
        self.date = now.strftime('%Y-%m-%d %H:%M UTC')
        self.kernels = {'A': self.a.state('kernel'), 'B': self.b.state('kernel')}
        if self.m:
            self.kernels['M'] = self.m.state('kernel')
        self.goals = bench_md.all_goals(self)
        # Every scenario of the guest's bench must run: a skip is the
        # guest's setup gone wrong (no test PMU, no cgroup2...), so it
        # fails the harness too.
        self.ok = self.a.ok() and self.b.ok() and bool(self.rows) and \
            all(lg.ok() for lg in (self.few, self.m) if lg) and \
            (self.m is None or any('m' in r for r in self.rows))

    def sides(self):
        return [('A', self.a), ('B', self.b)] + ([('B-few', self.few)] if self.few else []) + \
            ([('M', self.m)] if self.m else [])

    def failure(self):
        return 'the harness did not run end to end (guest rc %s; errors and skips above)' % (
            ' '.join('%s=%s' % (n, lg.rc) for n, lg in self.sides()))

    def to_json(self, arch, command, a_desc, b_desc, flagged):
        few = self.few
        return {'arch': arch, 'date': self.date, 'command': command,
                'a': a_desc, 'b': b_desc, **({'m': self.m_desc} if self.m else {}),
                'kernels': self.kernels,
                'rows': self.rows, 'exist_rows': self.erows,
                'b_few': {'kernel': few.state('kernel') if few else None,
                          'cmdline': few.state('cmdline') if few else None,
                          'pmus_b_lacks': sorted(self.extra_pmus)},
                'goals': [list(g) for g in self.goals],
                'flagged_spreads': flagged}


def report(a_log, b_log, b_few_log=None, *, arch, mode, a_desc, b_desc, same, command,
           out_prefix=None, logdir=None, now=None, plot_run=bench_plot.gnuplot,
           m_log=None, m_desc=None):
    """(markdown text, ok); writes LOGDIR/report.md, and PREFIX.md,
    PREFIX.json and PREFIX-*.png when OUT_PREFIX is given."""
    bn = Bench(a_log, b_log, b_few_log, now, m_log)
    bn.m_desc = m_desc
    return _report(bn, arch, mode, a_desc, b_desc, same, command, out_prefix, logdir,
                   plot_run)[:2]


def _report(bn, arch, mode, a_desc, b_desc, same, command, out_prefix, logdir, plot_run):
    md, flagged = bench_md.markdown(bn, arch, mode, a_desc, b_desc, same, command)
    if out_prefix:
        if os.path.dirname(out_prefix):
            os.makedirs(os.path.dirname(out_prefix), exist_ok=True)
        pngs = bench_plot.plots(out_prefix, bn.rows, plot_run)
        if pngs:
            if md[-1]:
                md.append('')
            md.append('Plots: ' + ', '.join('`%s`' % os.path.basename(p) for p in pngs))
    text = '\n'.join(md) + '\n'
    if logdir:
        with open(os.path.join(logdir, 'report.md'), 'w') as f:
            f.write(text)
    if out_prefix:
        with open(out_prefix + '.md', 'w') as f:
            f.write(text)
        with open(out_prefix + '.json', 'w') as f:
            json.dump(bn.to_json(arch, command, a_desc, b_desc, flagged), f, indent=1)
    return text, bn.ok, flagged


def judge(a_log, b_log, b_few_log=None, **kw):
    """(markdown text, Result 'bench:end-to-end'): PASS when every guest ran
    end to end, FAIL with the reason otherwise."""
    now, plot_run = kw.pop('now', None), kw.pop('plot_run', bench_plot.gnuplot)
    bn = Bench(a_log, b_log, b_few_log, now, kw.get('m_log'))
    bn.m_desc = kw.get('m_desc')
    text, ok, flagged = _report(bn, kw['arch'], kw['mode'], kw['a_desc'], kw['b_desc'],
                                kw['same'], kw['command'], kw.get('out_prefix'),
                                kw.get('logdir'), plot_run)
    figures = '%d scenarios, %d spreads over %d%%' % (len(bn.rows), flagged, SPREAD_FLAG * 100)
    if ok:
        return text, Result('bench:end-to-end', 'PASS', 'PASS', 'ran end to end, ' + figures)
    why = [bn.failure()] + ['%s on %s: %s' % (w, side, x) for side, lg in bn.sides()
                            for w, xs in (('skipped', lg.skips), ('ERROR', lg.errors))
                            for x in xs]
    return text, Result('bench:end-to-end', 'FAIL', 'FAIL', '; '.join(why)[:600], '\n'.join(why))
