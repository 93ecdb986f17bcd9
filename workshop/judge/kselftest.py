"""The results of one kselftest program: its "=== BEGIN kselftest NAME"
block in guest.log (TAP from 6.1's kselftest_harness)."""
import re

PLAN = re.compile(r'^1\.\.(\d+)$')
# 6.1's harness names a skipped test only on its "#  RUN" line:
# "ok 9 # SKIP reason".
RUN = re.compile(r'^#\s+RUN\s+(\S+) \.\.\.')
# The harness's own limit (30 s a test in 6.1) ran out: a result of its
# own, so that an expect line can allow a timeout and nothing else.
TIMEOUT = re.compile(r'^#\s+\S+: Test terminated by timeout$')
RESULT = re.compile(r'^(not ok|ok) \d+ ?(.*?)(?:\s*#\s*(SKIP|XFAIL|TODO)\b\s*(.*))?$')
# What the harness prints of a failed EXPECT/ASSERT and its TH_LOG:
# "# test_pmu.c:1961:dev_ctx:Expected ...".  A failed test's reason is its
# first such lines (at most WHY_MAX characters), so that a CI report tells
# what failed without the guest log.
ASSERT = re.compile(r'^#\s+(\S+\.c:\d+:.*)$')
WHY_MAX = 300
# The exit status of a run the guest's timeout killed.
KILLED = 124


def results(name, body, rc):
    """[(key, PASS|FAIL|SKIP|TIMEOUT, reason)] of kselftest NAME, whose
    block has the lines BODY and ended with exit status RC (None: it did
    not finish)."""
    out = []
    plan = run = None
    timed_out = False
    said = []
    for line in body:
        m = PLAN.match(line)
        if m and plan is None:
            plan = int(m.group(1))
        m = RUN.match(line)
        if m:
            run = m.group(1)
            timed_out = False
            said = []
            continue
        m = ASSERT.match(line)
        if m:
            said.append(m.group(1))
            continue
        if TIMEOUT.match(line):
            timed_out = True
            continue
        m = RESULT.match(line)
        if not m:
            continue
        st = 'PASS' if m.group(1) == 'ok' else 'FAIL'
        if m.group(3) == 'SKIP':
            st = 'SKIP'
        elif st == 'FAIL' and timed_out:
            st = 'TIMEOUT'
        test = m.group(2).strip() or run or '(unnamed)'
        run = None
        timed_out = False
        why = (m.group(4) or '').strip()
        if st == 'FAIL' and not why:
            why = ' / '.join(said)[:WHY_MAX]
        said = []
        out.append(('kselftest:%s:%s' % (name, test), st, why))
    return out + _whole(name, out, plan, rc)


def _whole(name, out, plan, rc):
    """The program's own result, beside its tests'."""
    key = 'kselftest:' + name
    if rc is None:
        return [(key, 'FAIL', 'did not finish')]
    if not out:
        return [(key, {0: 'PASS', 4: 'SKIP'}.get(rc, 'FAIL'), 'exit status %d' % rc)]
    if rc == KILLED:
        return [(key, 'FAIL', 'timed out')]
    more = []
    if plan is not None and len(out) < plan:
        more.append((key, 'FAIL', 'planned %d tests, %d reported' % (plan, len(out))))
    if rc not in (0, 4) and not any(r[1] in ('FAIL', 'TIMEOUT') for r in out + more):
        more.append((key, 'FAIL', 'exit status %d' % rc))
    return more
