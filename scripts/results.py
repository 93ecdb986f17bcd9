#!/usr/bin/env python3
"""results.py ARCH LOGDIR EXPECT [--vmlinux V --src S --cross C] [--json OUT]

Judge one guest run.  Reads LOGDIR/console.log (the whole kernel log) and
LOGDIR/guest.log (the guest's report), and prints one line per result:

  PASS / FAIL / SKIP / XFAIL  <key>  [reason]

Keys: kunit:<suite>.<case>, kselftest:perf_events/<prog>:<case>,
perftest:<description>[/<subtest>], kernel:<splat>, guest:<what>.

EXPECT (tests/expect/ARCH.txt) lists, one a line, '<key glob> |
skip|fail|timeout|any | <reason>': results that may not pass in this guest
and why.  A result that does not pass and is not listed fails; a listed
skip/fail that passes fails too ("listed but passes: take it off the
list"), so the list only shrinks.  'timeout' is for a kselftest that may
run out of its harness's time on a slow host: it may pass or time out, and
any other failure fails; 'any' allows every result.
Any kernel splat (WARNING, BUG, Oops, KASAN, lockdep, RCU stall, hung task,
kmemleak) fails, printed with its trace decoded by
scripts/decode_stacktrace.sh.  The last line is 'N passed, N failed, N
skipped' (XFAIL counts as skipped).  Exit status 1 on any failure."""
import argparse, fnmatch, json, os, re, subprocess, sys, tempfile

TS = re.compile(r'^\[\s*\d+\.\d+\]\s?(\[\s*[CT]\d+\]\s?)?')
SPLAT = [re.compile(p) for p in (
    r'^WARNING:', r'^-+\[ cut here \]-+', r'\bBUG: ', r'^kernel BUG at',
    r'Oops', r'^general protection fault', r'^Unable to handle kernel',
    r'^Kernel panic', r'^INFO: task .* blocked for more than',
    r'rcu: INFO: .*detected stall', r'detected (expedited )?stalls',
    r'^INFO: trying to register non-static key',
    r'^UBSAN:', r'^ODEBUG:', r'^list_(add|del) corruption',
    r'unreferenced object 0x', r'hard LOCKUP', r'^INFO: possible',
    r'^DEBUG_LOCKS_WARN_ON',
)]
# Lines that look alarming but are not: none so far.  Add with a reason.
BENIGN = [re.compile(p) for p in (
    r'KernelAddressSanitizer initialized',
    r'RCU lockdep checking is enabled',
)]


def strip(line):
    return TS.sub('', line.rstrip('\r\n'))


def splats(console):
    """Yield (title, trace lines) for each kernel report in the log."""
    lines = console.splitlines()
    i = 0
    while i < len(lines):
        msg = strip(lines[i])
        if any(b.search(msg) for b in BENIGN) or \
                not any(s.search(msg) for s in SPLAT):
            i += 1
            continue
        j = i + 1
        title = msg
        if re.match(r'^-+\[ cut here \]-+', msg) and j < len(lines):
            title = strip(lines[j])
        while j < len(lines) and j - i < 120:
            m = strip(lines[j])
            j += 1
            if m.startswith('---[ end') or m.startswith('=== '):
                break
        yield title, lines[i:j]
        i = j


def decode(trace, a):
    if not a.vmlinux or not os.path.exists(a.vmlinux):
        return '\n'.join(trace)
    env = dict(os.environ, CROSS_COMPILE=a.cross or '')
    try:
        p = subprocess.run([os.path.join(a.src, 'scripts/decode_stacktrace.sh'),
                            a.vmlinux, a.src],
                           input='\n'.join(trace) + '\n', capture_output=True,
                           text=True, env=env, timeout=300)
        return p.stdout or '\n'.join(trace)
    except (OSError, subprocess.SubprocessError):
        return '\n'.join(trace)


def kunit(console, a):
    """Results of the KUnit suites that ran at boot, via kunit.py parse."""
    if 'KTAP version' not in console and 'TAP version' not in console:
        return [('kunit:(boot)', 'FAIL', 'no KTAP output in the kernel log')]
    tool = os.path.join(a.src, 'tools/testing/kunit/kunit.py')
    with tempfile.TemporaryDirectory() as d:
        log = os.path.join(d, 'log')
        js = os.path.join(d, 'out.json')
        with open(log, 'w') as f:
            f.write(console)
        p = subprocess.run([sys.executable, tool, 'parse', '--json=' + js, log],
                           capture_output=True, text=True)
        if not os.path.exists(js):
            return [('kunit:(parse)', 'FAIL', p.stdout[-2000:] + p.stderr[-2000:])]
        tree = json.load(open(js))
    out = []

    def walk(g, prefix):
        for c in g.get('test_cases', []):
            st = {'PASS': 'PASS', 'SKIP': 'SKIP'}.get(c['status'], 'FAIL')
            out.append(('kunit:' + prefix + c['name'], st, ''))
        for s in g.get('sub_groups', []):
            walk(s, prefix + s['name'] + '.')
    walk(tree, '')
    if not out:
        out.append(('kunit:(boot)', 'FAIL', 'KTAP output had no test cases'))
    return out


ANSI = re.compile(r'\x1b\[[0-9;]*[A-Za-z]')


def sections(guest):
    """(kind, name, body lines, rc) for each === BEGIN/END block; rc is None
    for a block that never ended.  Markers are found anywhere in a line, so
    output without a final newline cannot hide one."""
    cur = None
    for line in ANSI.sub('', guest).splitlines():
        m = re.search(r'=== (BEGIN|END) (\S+) (.*)$', line)
        if not m:
            if cur:
                cur[2].append(line)
            continue
        if line[:m.start()] and cur:
            cur[2].append(line[:m.start()])
        if m.group(1) == 'BEGIN':
            if cur:
                yield cur[0], cur[1], cur[2], None
            cur = (m.group(2), m.group(3), [])
            continue
        rc = re.search(r'rc=(\d+)$', m.group(3))
        if cur:
            yield cur[0], cur[1], cur[2], int(rc.group(1)) if rc else None
        cur = None
    if cur:
        yield cur[0], cur[1], cur[2], None


def kselftest(name, body, rc):
    out = []
    plan = None
    run = None
    timed_out = False
    for line in body:
        m = re.match(r'^1\.\.(\d+)$', line)
        if m and plan is None:
            plan = int(m.group(1))
        # 6.1's harness names a skipped test only on its "#  RUN" line:
        # "ok 9 # SKIP reason".
        m = re.match(r'^#\s+RUN\s+(\S+) \.\.\.', line)
        if m:
            run = m.group(1)
            timed_out = False
            continue
        # The harness's own limit (30 s a test in 6.1) ran out: a result of
        # its own, so that an expect line can allow a timeout and nothing
        # else ("timeout").
        if re.match(r'^#\s+\S+: Test terminated by timeout$', line):
            timed_out = True
            continue
        m = re.match(r'^(not ok|ok) \d+ ?(.*?)(?:\s*#\s*(SKIP|XFAIL|TODO)\b\s*(.*))?$', line)
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
        out.append(('kselftest:%s:%s' % (name, test), st,
                    (m.group(4) or '').strip()))
    if rc is None:
        out.append(('kselftest:' + name, 'FAIL', 'did not finish'))
    elif not out:
        st = {0: 'PASS', 4: 'SKIP'}.get(rc, 'FAIL')
        out.append(('kselftest:' + name, st, 'exit status %d' % rc))
    elif rc == 124:
        out.append(('kselftest:' + name, 'FAIL', 'timed out'))
    else:
        if plan is not None and len(out) < plan:
            out.append(('kselftest:' + name, 'FAIL',
                        'planned %d tests, %d reported' % (plan, len(out))))
        if rc not in (0, 4) and not any(r[1] in ('FAIL', 'TIMEOUT') for r in out):
            out.append(('kselftest:' + name, 'FAIL', 'exit status %d' % rc))
    return out


def perftest(name, body, rc):
    """Results of one `perf test -v N`: each (sub)test ends in a line
    '<desc>: Ok|FAILED!|Skip (...)' or '<desc> subtest <k>: ...', and a
    subtest's header '  N.k: <subdesc> :' names subtest k."""
    num, _, desc = name.partition(' ')
    out, subs = [], {}
    for line in body:
        m = re.match(r'^\s*%s\.(\d+): (.*?)\s*:\s*$' % re.escape(num), line)
        if m:
            subs[m.group(1)] = m.group(2)
            continue
        if not line.startswith(desc):
            continue
        m = re.match(r'^(?: subtest (\d+))?:\s*(Ok|FAILED!|Skip.*?)\s*$',
                     line[len(desc):])
        if not m:
            continue
        key = 'perftest:' + desc
        if m.group(1):
            key += '/' + subs.get(m.group(1), 'subtest ' + m.group(1))
        r = m.group(2)
        st = 'PASS' if r == 'Ok' else 'FAIL' if r.startswith('FAILED') else 'SKIP'
        reason = r[4:].strip(' ()') if st == 'SKIP' else ''
        if st == 'FAIL':
            reason = ' | '.join(l.strip() for l in body[-12:] if l.strip())[-600:]
        out.append((key, st, reason))
    if rc == 124:
        out.append(('perftest:' + desc, 'FAIL', 'timed out'))
    elif rc is None:
        out.append(('perftest:' + desc, 'FAIL', 'did not finish'))
    elif rc != 0:
        # 6.1's perf test exits 0 whatever the tests did: anything else is
        # perf itself failing.
        out.append(('perftest:' + desc, 'FAIL', 'perf test exit status %d' % rc))
    elif not out:
        out.append(('perftest:' + desc, 'FAIL',
                    'no result line (exit status %s)' % rc))
    return out


def load_expect(path):
    exp = []
    if not os.path.exists(path):
        return exp
    for n, line in enumerate(open(path), 1):
        line = line.strip()
        if not line or line.startswith('#'):
            continue
        parts = [p.strip() for p in line.split('|')]
        if len(parts) != 3 or parts[1] not in ('skip', 'fail', 'timeout', 'any') or not parts[2]:
            sys.exit('%s:%d: want "<key glob> | skip|fail|timeout|any | <reason>"' % (path, n))
        exp.append(parts)
    return exp


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('arch')
    ap.add_argument('logdir')
    ap.add_argument('expect')
    ap.add_argument('--vmlinux')
    ap.add_argument('--src', default='.')
    ap.add_argument('--cross')
    ap.add_argument('--json')
    ap.add_argument('--no-kunit', action='store_true')
    a = ap.parse_args()
    console = open(os.path.join(a.logdir, 'console.log'), errors='replace').read()
    guest = open(os.path.join(a.logdir, 'guest.log'), errors='replace').read()

    res = []
    for title, trace in splats(console):
        print('---- kernel report: %s' % title)
        print(decode(trace, a))
        res.append(('kernel:' + title[:120], 'FAIL', 'see the trace above'))
    if not a.no_kunit:
        res += kunit(console, a)
    for kind, name, body, rc in sections(guest):
        if kind == 'kselftest':
            res += kselftest(name, body, rc)
        elif kind == 'perftest':
            res += perftest(name, body, rc)
    kinds = [k for k, _, _, _ in sections(guest)]
    if 'kselftest' not in kinds:
        res.append(('guest:kselftests', 'FAIL', 'no kselftest ran'))
    if 'perftest' not in kinds:
        res.append(('guest:perftests', 'FAIL', 'no perf test ran'))
    for pat in re.findall(r'^=== MISSING perftest (.*)$', guest, re.M):
        res.append(('perftest:' + pat.strip(), 'SKIP',
                    'no such test in this perf (tests/perf-tests-core.txt names it)'))
    st = dict(re.findall(r'^=== STATE (\w+)=(.*)$', guest, re.M))
    # Taint: B (bad page), D (oops), W (warning), L (soft lockup).
    bad = 32 | 128 | 512 | 16384
    if 'tainted' not in st:
        res.append(('kernel:state', 'FAIL', 'the guest did not report the taint flags'))
    elif int(st['tainted'] or 0) & bad:
        res.append(('kernel:tainted', 'FAIL', 'taint flags %s at the end of the run' % st['tainted']))
    if st.get('debug_locks', '').strip() == '0':
        res.append(('kernel:lockdep', 'FAIL', 'lockdep turned itself off (debug_locks=0) during the run'))
    m = re.findall(r'^GUEST-EXIT: (\d+)', guest, re.M)
    if not m:
        tail = '\n'.join(guest.splitlines()[-3:])
        res.append(('guest:exit', 'FAIL', 'the guest did not finish: ' + tail))
    elif m[-1] != '0':
        res.append(('guest:exit', 'FAIL', 'guest script exit status ' + m[-1]))

    exp = load_expect(a.expect)
    counts = {'passed': 0, 'failed': 0, 'skipped': 0}
    judged = []
    for key, st, reason in res:
        e = next((x for x in exp if fnmatch.fnmatchcase(key, x[0])), None)
        if key.startswith('kernel:') or key.startswith('guest:'):
            e = None
        if st == 'PASS':
            if e and e[1] not in ('any', 'timeout'):
                verdict, reason = 'FAIL', 'listed as "%s" in %s but passes: take it off the list' % (
                    e[1], os.path.basename(a.expect))
            else:
                verdict = 'PASS'
        elif e and (e[1] == 'any' or
                    (e[1] == 'timeout' and st == 'TIMEOUT') or
                    (e[1] == 'skip' and st == 'SKIP') or
                    (e[1] == 'fail' and st in ('FAIL', 'TIMEOUT'))):
            verdict = 'SKIP' if st == 'SKIP' else 'XFAIL'
            reason = e[2]
        else:
            verdict = 'FAIL'
            reason = ('%s, not listed in %s' % (st.lower(), os.path.basename(a.expect))
                      if st != 'FAIL' or not e else 'failed, listed as "%s"' % e[1]) + \
                (': ' + reason if reason else '')
        counts[{'PASS': 'passed', 'FAIL': 'failed'}.get(verdict, 'skipped')] += 1
        judged.append({'key': key, 'result': st, 'verdict': verdict, 'reason': reason})
        print('%-5s %s: %s%s' % (verdict, a.arch, key, '  # ' + reason if reason else ''))
    if a.json:
        json.dump({'arch': a.arch, 'counts': counts, 'results': judged},
                  open(a.json, 'w'), indent=1)
    print('%s: %d passed, %d failed, %d skipped' % (
        a.arch, counts['passed'], counts['failed'], counts['skipped']))
    return 1 if counts['failed'] else 0


sys.exit(main())
