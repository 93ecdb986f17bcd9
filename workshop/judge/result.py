"""The result file of a profile x arch (docs/harness.md, "The result file"),
its counts, and the merge of any set of them.

A Result is one judged thing: `result` is what happened (PASS, FAIL, SKIP,
TIMEOUT), `verdict` what counts (PASS, FAIL, SKIP, XFAIL).  `detail` is
multi-line text (a decoded trace, a kmemleak record) printed in result.txt
only, never in result.json."""
import json
import os
from dataclasses import dataclass, field

COUNTED = {'PASS': 'passed', 'FAIL': 'failed', 'SKIP': 'skipped', 'XFAIL': 'skipped'}


@dataclass
class Result:
    key: str
    result: str
    verdict: str
    reason: str = ''
    detail: str = ''

    def line(self, arch, profile):
        """VERDICT ARCH PROFILE: key  # reason"""
        return '%-5s %s %s: %s%s' % (self.verdict, arch, profile, self.key,
                                     '  # ' + self.reason if self.reason else '')


def counts_of(results):
    """{'passed': N, 'failed': N, 'skipped': N} of the verdicts; a verdict
    that is none of PASS, FAIL, SKIP, XFAIL counts as a failure."""
    c = {'passed': 0, 'failed': 0, 'skipped': 0}
    for r in results:
        c[COUNTED.get(r.verdict, 'failed')] += 1
    return c


def summary_line(name, c):
    return '%s: %d passed, %d failed, %d skipped' % (
        name, c['passed'], c['failed'], c['skipped'])


@dataclass
class Report:
    profile: str
    arch: str
    kind: str
    results: list
    stages: list = field(default_factory=list)
    figures: dict = field(default_factory=dict)
    command: str = ''
    started: str = ''

    def counts(self):
        return counts_of(self.results)

    def to_json(self):
        return {'profile': self.profile, 'arch': self.arch, 'kind': self.kind,
                'command': self.command, 'started': self.started,
                'results': [{'key': r.key, 'result': r.result,
                             'verdict': r.verdict, 'reason': r.reason}
                            for r in self.results],
                'counts': self.counts(),
                'stages': [[n, s] for n, s in self.stages],
                'figures': self.figures}

    def text(self):
        """result.txt: the details, one line per result, the figures, and
        last 'PROFILE ARCH: N passed, N failed, N skipped'."""
        out = []
        for r in self.results:
            if r.detail:
                out.append('---- %s' % r.key)
                out.extend(r.detail.rstrip('\n').splitlines())
        out.extend(r.line(self.arch, self.profile) for r in self.results)
        if self.figures:
            out.append('---- figures (%s %s)' % (self.profile, self.arch))
            for k, v in self.figures.items():
                out.append('  %-34s %s' % (k, v))
        out.append(summary_line('%s %s' % (self.profile, self.arch), self.counts()))
        return '\n'.join(out) + '\n'

    def write(self, dirpath):
        os.makedirs(dirpath, exist_ok=True)
        with open(os.path.join(dirpath, 'result.json'), 'w') as f:
            json.dump(self.to_json(), f, indent=1)
            f.write('\n')
        with open(os.path.join(dirpath, 'result.txt'), 'w') as f:
            f.write(self.text())

    @classmethod
    def load(cls, path):
        """A result.json, or the directory that holds one.  Raises OSError
        or ValueError on a file that is missing or not a result file."""
        if os.path.isdir(path):
            path = os.path.join(path, 'result.json')
        with open(path) as f:
            j = json.load(f)
        if not isinstance(j, dict) or not isinstance(j.get('results'), list):
            raise ValueError('not a result file')
        res = [Result(r['key'], r.get('result', r['verdict']), r['verdict'],
                      r.get('reason', '')) for r in j['results']]
        return cls(j.get('profile', '?'), j.get('arch', '?'), j.get('kind', 'kernel'),
                   res, [tuple(s) for s in j.get('stages', [])],
                   j.get('figures', {}), j.get('command', ''), j.get('started', ''))


def _add(total, c):
    for k in total:
        total[k] += c[k]


def _stages(rep):
    return '  stages: ' + ', '.join('%s %s s' % (n, _secs(s)) for n, s in rep.stages)


def _secs(s):
    return ('%d' % s) if isinstance(s, (int, float)) and s == int(s) else str(s)


def merge(paths):
    """(text, ok) for a set of result files: every verdict that is not PASS,
    one summary line per file and its stages, 'harness: ...' over the
    harness files, and last 'N passed, N failed, N skipped' over the kernel
    files.  ok is False on any failure, on a file missing or unreadable
    (a failure of its own), or when no file is given."""
    out = []
    kernel = {'passed': 0, 'failed': 0, 'skipped': 0}
    harness = dict(kernel)
    nharness = 0
    ok = bool(paths)
    if not paths:
        out.append('FAIL  merge: no result file given')
    for path in paths:
        try:
            rep = Report.load(path)
        except (OSError, ValueError, KeyError, TypeError) as e:
            out.append('FAIL  %s: no readable result file (%s)' % (path, e))
            kernel['failed'] += 1
            ok = False
            continue
        out.extend(r.line(rep.arch, rep.profile) for r in rep.results
                   if r.verdict != 'PASS')
        c = rep.counts()
        out.append(summary_line('%s %s' % (rep.profile, rep.arch), c))
        if rep.stages:
            out.append(_stages(rep))
        if rep.kind == 'harness':
            nharness += 1
            _add(harness, c)
        else:
            _add(kernel, c)
        if c['failed']:
            ok = False
    if nharness:
        out.append(summary_line('harness', harness))
    out.append('%d passed, %d failed, %d skipped' % (
        kernel['passed'], kernel['failed'], kernel['skipped']))
    return '\n'.join(out) + '\n', ok
