#!/usr/bin/env python3
"""tests/judge_mutants.py: break the judge on purpose, one rule at a time,
and show that the judge's tests (tests/test_judge_*.py) notice.

Each breakage is (file under workshop/judge/, old text, new text, the rule
it breaks); the old text must occur exactly once.  For each, workshop/ and
the judge's tests and fixtures are copied to a temporary directory, the
breakage applied there, and the tests run against the copy.  Prints one
line per breakage, 'caught' or 'NOT CAUGHT', then 'N caught, N not
caught'; exit status 1 if a breakage was not caught or the unbroken copy
fails its tests."""
import concurrent.futures
import os
import shutil
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# No breakage of splats.BENIGN: its two lines match no SPLAT pattern, so
# taking them out changes no verdict (they document, they do not excuse).
BREAKAGES = [
    # the kernel-log scanner
    ('splats.py', "r'^WARNING:', CUT.pattern", 'CUT.pattern', 'WARNING lines are reports'),
    ('splats.py', 'title = strip(lines[j])', 'title = msg', 'cut-here title is the next line'),
    ('splats.py', r"TS = re.compile(r'^\[\s*\d+\.\d+\]\s?(\[\s*[CT]\d+\]\s?)?')",
     r"TS = re.compile(r'^\[\s*\d+\.\d+\]\s?')", 'caller ids stripped'),
    ('splats.py', 'MAX_LINES = 120', 'MAX_LINES = 200', 'a report is at most 120 lines'),
    ('splats.py', "if m.startswith('---[ end') or", 'if', 'a report ends at its end marker'),
    # KUnit
    ('ktap.py', 't.missing = t.expected - n + 1', 't.missing = 0', 'missing cases fail'),
    ('ktap.py', "t.status = 'SKIP' if s else", "t.status = 'PASS' if s else", '# SKIP skips'),
    ('ktap.py', "'PASS' if m.group(1) == 'ok' else 'FAIL'", "'PASS'", 'not ok fails'),
    ('ktap.py', "if 'TAP version' not in console:", 'if False:', 'no KTAP at all fails'),
    ('ktap.py', "(s.status == 'PASS' and not s.parent)", "s.status == 'PASS'",
     'a suite with no cases fails'),
    # kselftest, perf test
    ('kselftest.py', "elif st == 'FAIL' and timed_out:", 'elif False:', 'a timeout is TIMEOUT'),
    ('kselftest.py', 'or run or', 'or', "6.1's skip named by its RUN line"),
    ('kselftest.py', 'len(out) < plan', 'len(out) < plan - 1', 'fewer tests than planned fail'),
    ('kselftest.py', "[(key, 'FAIL', 'did not finish')]", "[(key, 'PASS', 'did not finish')]",
     'an unfinished program fails'),
    ('kselftest.py', 'if rc not in (0, 4) and', 'if rc not in (0, 1, 4) and',
     'a bad exit status with passing tests fails'),
    ('kselftest.py', "{0: 'PASS', 4: 'SKIP'}", "{0: 'PASS', 4: 'PASS'}", 'exit 4 alone skips'),
    ('perftest.py', 'if rc != 0:', 'if rc not in (0, 255):', 'perf test exit status fails'),
    ('perftest.py', "    if not out:\n        return [(key, 'FAIL', 'no result line",
     "    if False:\n        return [(key, 'FAIL', 'no result line", 'no result line fails'),
    ('perftest.py', "else 'SKIP'", "else 'PASS'", 'Skip is a skip'),
    # expect lists
    ('expect.py', "e[1] not in ('any', 'timeout'):", "e[1] not in ('any', 'timeout', 'skip'):",
     'listed but passes fails'),
    ('expect.py', "(kind == 'timeout' and st == 'TIMEOUT')",
     "(kind == 'timeout' and st in ('TIMEOUT', 'FAIL'))", 'timeout excuses only a timeout'),
    ('expect.py', "NEVER_EXCUSED = ('kernel:', 'guest:')", "NEVER_EXCUSED = ('guest:',)",
     'kernel: keys never excused'),
    ('expect.py', "return (kind == 'any' or", "return (kind == 'nothing' or", 'any excuses all'),
    ('expect.py', "(kind == 'skip' and st == 'SKIP')", "(kind == 'skip')",
     'skip does not excuse a failure'),
    # the check run's end
    ('check.py', 'MISSING.findall(guest)', "MISSING.findall('')", 'MISSING perftest is a result'),
    ('check.py', "if 'perftest' not in kinds:", 'if False:', 'no perf test ran fails'),
    ('guestlog.py', 'return not t & BAD_TAINT', 'return not t & 512', 'the bad-taint mask'),
    ('guestlog.py', "strip() == '0'", "strip() == 'off'", 'debug_locks=0 fails'),
    ('guestlog.py', "return m[-1] == '0'", "return m[0] == '0'", 'the last GUEST-EXIT counts'),
    ('guestlog.py', "for line in ANSI.sub('', guest).splitlines():",
     'for line in guest.splitlines():', 'colour codes stripped'),
    ('guestlog.py', 'm = MARK.search(line)', 'm = MARK.match(line)', 'markers anywhere in a line'),
    ('guestlog.py', "return None, None", "return True, None", 'no taint flags reported fails'),
    # stress
    ('stress.py', "r'.*_perf_|.*pmu_)'", "r'.*_perf_)'", 'PERF_FN: *pmu_ functions are perf'),
    ('stress.py', "if tag == 'end' and k in seen:", 'if False:', 'boot objects not counted again'),
    ('stress.py', 'if rc != 0:', 'if rc not in (0, 2):', 'a failed kmemleak scan fails'),
    ('stress.py', "False, 'no kmemleak scan", "True, 'no kmemleak scan", 'a missing scan fails'),
    ('stress.py', '            if hit:', '            if hit or fns:', 'non-perf records do not fail'),
    ('stress.py', "res.append(_r('host:stop', False,", "res.append(_r('host:stop', True,",
     'host-stop fails'),
    ('stress.py', "_r('kernel:' + t[:120], False,", "_r('kernel:' + t[:120], True,",
     'a splat fails the stress run'),
    ('stress.py', 'no_test_pmus = base and', 'no_test_pmus =', 'no test PMUs skip only on the base'),
    ('stress_rules.py', "out.append(('stressor:' + what, n > 0,",
     "out.append(('stressor:' + what, n >= 0,", 'a stressor that did nothing fails'),
    ('stress_rules.py', 'n == 0 and sh == 0 and r > 0', 'n == 0 and sh == 0',
     'an rmmod refused is required'),
    ('stress_rules.py', 'n == 0 and sh == 0 and r > 0', 'sh == 0 and r > 0',
     'rmmod with events open fails'),
    ('stress_rules.py', 'n == 0 and sh == 0 and r > 0', 'n == 0 and r > 0', 'refcnt_short fails'),
    ('stress_rules.py', "('module:released', n == 0,", "('module:released', True,", 'busy fails'),
    ('stress_rules.py', "('module:insmod', n == 0,", "('module:insmod', True,", 'insmod failed fails'),
    ('stress_rules.py', "== 'builtin-or-absent'", "== 'builtin'", 'builtin-or-absent fails'),
    ('stress_rules.py', 'reloads > 0', 'reloads >= 0', 'no module reload fails'),
    ('stress_rules.py', 'torn * TORN_PER > opened', 'torn * TORN_PER >= opened', 'torn bound: 1%'),
    ('stress_rules.py', 'TORN_MAX = 3', 'TORN_MAX = 4', 'torn bound: more than 3'),
    ('stress_rules.py', '        if n:\n', '        if n > 1:\n', 'a bad read fails'),
    ('stress_rules.py', "STRESSNG_OK = ('0', '3', '4')", "STRESSNG_OK = ('0', '1', '3', '4')",
     'stress-ng exit status'),
    ('stress_rules.py', "[('guest:early-stop', early == 'none',", "[('guest:early-stop', True,",
     'an early stop fails'),
    ('stress_rules.py', 'v = str(int(counts[k]) + int(v))', 'v = v', 'repeated counts add up'),
    # bench
    ('bench_md.py', 'SPREAD_FLAG = 0.02', 'SPREAD_FLAG = 0.03', 'spread flag over 2%'),
    ('bench_md.py', "if r[s] is not None and r[s] > SPREAD_FLAG:",
     "if r[s] is not None and r[s] >= SPREAD_FLAG:", 'exactly 2% is not flagged'),
    ('bench_md.py', "if r[x] is not None and r[x] > SPREAD_FLAG:",
     "if r[x] is not None and r[x] > 2 * SPREAD_FLAG:", 'B-few spreads flagged'),
    ('bench_md.py', 'and ev != [dev]', 'and False', 'device events not all active flagged'),
    ('bench_md.py', "if same in (True, '1'):", "if same == '1':", 'same commit given as a bool'),
    ('bench_goals.py', 'if noise is not None and x <= thr + noise:', 'if noise is not None:',
     'over the noise is NO'),
    ('bench_goals.py', 'ROUNDING = 0.0005', 'ROUNDING = 0.001', 'the rounding of yes'),
    ('bench_goals.py', 'if not EXIST_EXTRA <= extra_pmus:', 'if not extra_pmus:',
     'B-few rows not measured unless B-few lacked the PMUs'),
    ('bench_goals.py', "x = (r['b'] - none['b']) / (r['a'] - none['a'])", "x = r['b'] / r['a']",
     'the extra cost over no events'),
    ('bench_goals.py', "x = r['b'] / base['b']", "x = r['b'] / base['a']", 'goal (5) on B'),
    ('bench.py', 'return self.rc == 0 and not self.errors and not self.skips',
     'return self.rc == 0 and not self.errors', 'a skip line fails end to end'),
    ('bench.py', 'return self.rc == 0 and not self.errors and not self.skips',
     'return self.rc == 0 and not self.skips', 'an error line fails end to end'),
    ('bench.py', 'return self.rc == 0 and not self.errors and not self.skips',
     'return not self.errors and not self.skips', 'the guest rc fails end to end'),
    ('bench.py', '(self.few is None or self.few.ok())', 'True', 'B-few must run end to end'),
    ('bench.py', "'ratio': b / a if", "'ratio': a / b if", 'the ratio is patched/base'),
    ('bench.py', 'statistics.median(vals)', 'statistics.mean(vals)', 'medians'),
    # mutants
    ('mutants.py', 'ok = bool(fails) == (n != 0)', 'ok = bool(fails) or n == 0',
     'the unbroken kernel must fail nothing'),
    ('mutants.py', "r'^.*    not ok", "r'^.*not ok", 'KUnit cases only, indented'),
    ('mutants.py', "if 'GUEST-EXIT' not in guest:", 'if not guest:', 'a guest that died'),
    ('mutants.py', "r'WARNING:|BUG:|KASAN:|Oops'", "r'WARNING:|BUG:|Oops'", 'KASAN lines'),
    # result files
    ('result.py', "kernel['failed'] += 1\n            ok = False",
     "kernel['failed'] += 1", 'a missing result file fails'),
    ('result.py', "if rep.kind == 'harness':", 'if False:', 'harness counted apart'),
    ('result.py', 'ok = bool(paths)', 'ok = True', 'no file fails'),
    ('result.py', "'XFAIL': 'skipped'", "'XFAIL': 'passed'", 'XFAIL counts as skipped'),
    ('result.py', "if c['failed']:\n            ok = False", 'if False:\n            ok = False',
     'a failure fails the merge'),
    # checkpatch, builds
    ('checkpatch.py', 'if all(covered(p) for p in changed):',
     'if any(covered(p) for p in changed):', 'MAINTAINERS covers every file'),
    ('checkpatch.py', 'if et == t and f and fnmatch.fnmatch(f, glob):', 'if et == t:',
     'an exception needs its file glob'),
    ('builds.py', 'if left.get(m):', 'if m in left:', 'new messages as a multiset'),
    ('builds.py', 'return [m for m in new if m not in skip]', 'return new', 'known messages'),
    ('builds.py', "LINE = re.compile(r':[0-9]+:')", "LINE = re.compile(r':[0-9]+:[0-9]+:')",
     'line numbers dropped'),
    ('builds.py', '[:20] + lines[-5:]', '[:25] + lines[-5:]', 'build-each shows 20 error lines'),
]


def copy_tree(dst):
    shutil.copytree(os.path.join(TOP, 'workshop'), os.path.join(dst, 'workshop'),
                    ignore=shutil.ignore_patterns('__pycache__'))
    tests = os.path.join(dst, 'tests')
    os.makedirs(tests)
    open(os.path.join(tests, '__init__.py'), 'w').close()
    for name in os.listdir(os.path.join(TOP, 'tests')):
        if name.startswith('test_judge_') and name.endswith('.py'):
            shutil.copy(os.path.join(TOP, 'tests', name), tests)
    shutil.copytree(os.path.join(TOP, 'tests', 'fixtures', 'judge'),
                    os.path.join(tests, 'fixtures', 'judge'))


def run_tests(d):
    """True when the judge's tests pass in the copy D."""
    p = subprocess.run([sys.executable, '-m', 'unittest', 'discover', '-f', '-s', 'tests',
                        '-p', 'test_judge_*.py', '-t', '.'], cwd=d, capture_output=True,
                       env=dict(os.environ, PYTHONDONTWRITEBYTECODE='1'))
    return p.returncode == 0


def apply(d, name, old, new):
    path = os.path.join(d, 'workshop', 'judge', name)
    with open(path) as f:
        text = f.read()
    n = text.count(old)
    if n != 1:
        return 'the old text occurs %d times in workshop/judge/%s' % (n, name)
    with open(path, 'w') as f:
        f.write(text.replace(old, new))
    return None


def one(b):
    """(breakage, 'caught' | 'NOT CAUGHT' | 'BAD: why')"""
    name, old, new, what = b
    with tempfile.TemporaryDirectory(prefix='judge-mutant-') as d:
        copy_tree(d)
        err = apply(d, name, old, new)
        if err:
            return b, 'BAD: ' + err
        return b, 'NOT CAUGHT' if run_tests(d) else 'caught'


def main():
    with tempfile.TemporaryDirectory(prefix='judge-mutant-') as d:
        copy_tree(d)
        if not run_tests(d):
            print('FAIL  the unbroken judge fails its own tests')
            return 1
    caught = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
        for (name, _, _, what), verdict in ex.map(one, BREAKAGES):
            print('%-10s %s: %s' % (verdict, name, what))
            caught += verdict == 'caught'
    print('%d caught, %d not caught' % (caught, len(BREAKAGES) - caught))
    return 0 if caught == len(BREAKAGES) else 1


if __name__ == '__main__':
    sys.exit(main())
