"""The results of one `perf test -v N`: its "=== BEGIN perftest N DESC"
block in guest.log.  Each (sub)test ends in a line '<desc>: Ok|FAILED!|Skip
(...)' or '<desc> subtest <k>: ...', and a subtest's header
'  N.k: <subdesc> :' names subtest k."""
import re

from workshop.judge.kselftest import KILLED

VERDICT = re.compile(r'^(?: subtest (\d+))?:\s*(Ok|FAILED!|Skip.*?)\s*$')


def results(name, body, rc):
    """[(key, PASS|FAIL|SKIP, reason)] of the block NAME ('N DESC') with
    the lines BODY and exit status RC (None: it did not finish)."""
    num, _, desc = name.partition(' ')
    sub_header = re.compile(r'^\s*%s\.(\d+): (.*?)\s*:\s*$' % re.escape(num))
    out, subs = [], {}
    for line in body:
        m = sub_header.match(line)
        if m:
            subs[m.group(1)] = m.group(2)
            continue
        if not line.startswith(desc):
            continue
        m = VERDICT.match(line[len(desc):])
        if not m:
            continue
        key = 'perftest:' + desc
        if m.group(1):
            key += '/' + subs.get(m.group(1), 'subtest ' + m.group(1))
        r = m.group(2)
        st = 'PASS' if r == 'Ok' else 'FAIL' if r.startswith('FAILED') else 'SKIP'
        reason = r[4:].strip(' ()') if st == 'SKIP' else ''
        if st == 'FAIL':
            reason = ' | '.join(x.strip() for x in body[-12:] if x.strip())[-600:]
        out.append((key, st, reason))
    return out + _whole(desc, out, rc)


def _whole(desc, out, rc):
    key = 'perftest:' + desc
    if rc == KILLED:
        return [(key, 'FAIL', 'timed out')]
    if rc is None:
        return [(key, 'FAIL', 'did not finish')]
    if rc != 0:
        # 6.1's perf test exits 0 whatever the tests did: anything else is
        # perf itself failing.
        return [(key, 'FAIL', 'perf test exit status %d' % rc)]
    if not out:
        return [(key, 'FAIL', 'no result line (exit status %s)' % rc)]
    return []
