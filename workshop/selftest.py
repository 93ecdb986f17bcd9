"""The harness's own tests (`make selftest`, first in `make check`): the
unittest suites of tests/; tests/judge_mutants.py, which breaks each rule
of the judge on purpose and wants a test to notice; shellcheck on every
shell file of the repository.  They need no kernel tree and no guest."""
import io
import os
import subprocess
import sys
import unittest

from workshop import conf
from workshop.judge.result import Result


class Collect(unittest.TextTestResult):
    """Every test's outcome as a Result."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.results = []

    def add(self, test, verdict, reason=''):
        self.results.append(Result('selftest:' + test.id(), verdict, verdict, reason))

    def addSuccess(self, test):
        super().addSuccess(test)
        self.add(test, 'PASS')

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self.add(test, 'FAIL', self._exc_info_to_string(err, test).strip().splitlines()[-1])

    def addError(self, test, err):
        super().addError(test, err)
        self.add(test, 'FAIL', self._exc_info_to_string(err, test).strip().splitlines()[-1])

    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is not None:     # a failed subtest: the test itself gets no verdict
            self.add(subtest, 'FAIL', self._exc_info_to_string(err, test).strip().splitlines()[-1])

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self.add(test, 'SKIP', reason)


def unit():
    env = dict(os.environ)      # the tests quieten the driver (WS_QUIET): not for long
    try:
        suite = unittest.defaultTestLoader.discover(os.path.join(conf.TOP, 'tests'),
                                                    top_level_dir=conf.TOP)
        r = unittest.TextTestRunner(stream=io.StringIO(), resultclass=Collect).run(suite)
    finally:
        os.environ.clear()
        os.environ.update(env)
    if not r.results and r.testsRun == 0:
        return [Result('selftest:discover', 'FAIL', 'FAIL', 'no test found in tests/')]
    return r.results


def shell_files():
    files = subprocess.run(['git', '-C', conf.TOP, 'ls-files', '--cached', '--others',
                            '--exclude-standard'], capture_output=True, text=True).stdout.split()
    out = []
    for f in files:
        p = os.path.join(conf.TOP, f)
        if not os.path.isfile(p):
            continue
        if f.endswith('.sh'):
            out.append(f)
            continue
        with open(p, 'rb') as fh:
            if is_shell(fh.readline()):
                out.append(f)
    return sorted(out)


def is_shell(first):
    """Does a file whose first line is FIRST run under sh or bash?"""
    words = first[2:].split() if first.startswith(b'#!') else []
    if words and words[0].endswith(b'/env'):
        words = words[1:]
    return bool(words) and words[0].rsplit(b'/', 1)[-1] in (b'sh', b'bash')


def shellcheck():
    res = []
    for f in shell_files():
        p = subprocess.run(['shellcheck', '-x', f], cwd=conf.TOP, capture_output=True, text=True)
        v = 'PASS' if p.returncode == 0 else 'FAIL'
        lines = [ln for ln in p.stdout.splitlines() if ln.startswith('In ')]
        res.append(Result('shellcheck:' + f, v, v, '; '.join(lines[:3]), p.stdout))
    return res


def judge_mutants():
    """One result per breakage of tests/judge_mutants.py: caught or not."""
    p = subprocess.run([sys.executable, os.path.join(conf.TOP, 'tests', 'judge_mutants.py')],
                       cwd=conf.TOP, capture_output=True, text=True)
    res = []
    for line in p.stdout.splitlines():
        verdict, _, what = line.partition(' ')
        if verdict in ('caught', 'NOT') and what.strip():
            ok = verdict == 'caught'
            res.append(Result('judge-mutant:' + what.replace('CAUGHT', '', 1).strip(),
                              'PASS' if ok else 'FAIL', 'PASS' if ok else 'FAIL',
                              '' if ok else 'no test of the judge noticed this breakage'))
    if p.returncode and all(r.verdict == 'PASS' for r in res):
        res.append(Result('judge-mutant:run', 'FAIL', 'FAIL',
                          (p.stdout + p.stderr).strip().splitlines()[-1:][0]
                          if (p.stdout + p.stderr).strip() else 'exit status %d' % p.returncode))
    return res


def run():
    return unit() + judge_mutants() + shellcheck()


if __name__ == '__main__':
    rs = run()
    for r in rs:
        if r.verdict != 'PASS':
            print('%s %s  # %s' % (r.verdict, r.key, r.reason))
    print('%d tests, %d failed' % (len(rs), sum(r.verdict == 'FAIL' for r in rs)))
    sys.exit(1 if any(r.verdict == 'FAIL' for r in rs) else 0)
