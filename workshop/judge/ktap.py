"""KUnit at boot: the KTAP the kernel prints in its log, parsed here (the
harness's tests need no kernel tree).  It gives what the tree's
`kunit.py parse` gives for the logs our kernels print:

  - the KTAP starts at the first 'KTAP version N' or 'TAP version N' line
    and ends at the end of the log, at one of kunit.py's end markers, or
    once the top-level plan is complete;
  - a test with a '# Subtest:' header or a 'KTAP version' line has
    subtests; its leaves (cases, parameters) are the results, keyed
    kunit:<suite>.<case>[.<param>];
  - 'ok' PASS, 'not ok' FAIL, '# SKIP' SKIP;
  - a test whose plan promised more subtests than came (a crash
    mid-suite) gets a FAIL for the missing part: kunit:<suite> (for the
    top level, kunit:(boot)); kunit.py counts each missing one as crashed;
  - a failed case's reason is its first failed expectation, from the
    diagnostic lines before its result line (what CI's summary shows).
"""
import re

from workshop.judge.splats import TS

START = re.compile(r'\s*K?TAP version ([0-9]+)$')
END = re.compile(r'\s*(List of all partitions:|'
                 r'Kernel panic - not syncing: VFS:|reboot: System halted)')
HEADER = re.compile(r'^\s*# Subtest: (.*)$')
PLAN = re.compile(r'^\s*1\.\.([0-9]+)')
RESULT = re.compile(r'^\s*(ok|not ok) ([0-9]+) (- )?([^#]*)( # .*)?$')
SKIP = re.compile(r'^\s*(ok|not ok) ([0-9]+) (- )?(.*) # SKIP(.*)$')
FAILED = re.compile(r'(EXPECTATION|ASSERTION) FAILED at (.*)$')
BOOT = 'kunit:(boot)'
WHY_LINES, WHY_CHARS = 3, 240


def extract(console):
    """The KTAP lines of a kernel log, without timestamps and caller ids."""
    out = []
    started = False
    for line in console.splitlines():
        line = TS.sub('', line.rstrip())
        if not started:
            m = START.search(line)
            if m:
                started = True
                out.append(line[m.start():].strip())
            continue
        if END.search(line):
            break
        out.append(line)
    return out


class _Test:
    def __init__(self):
        self.name = ''
        self.status = None           # PASS, FAIL, SKIP; None: no result line
        self.subs = []
        self.expected = None
        self.missing = 0
        self.parent = False          # a header or a KTAP line: it has subtests
        self.diag = []               # the diagnostic lines before its result


class _Parser:
    def __init__(self, lines):
        self.lines, self.i = lines, 0

    def peek(self):
        return self.lines[self.i] if self.i < len(self.lines) else None

    def skip_diagnostics(self):
        """Step over the lines that are not KTAP structure; return them."""
        start = self.i
        while self.i < len(self.lines) and not (
                RESULT.match(self.lines[self.i]) or HEADER.match(self.lines[self.i])
                or START.match(self.lines[self.i])):
            self.i += 1
        return self.lines[start:self.i]

    def take(self, rx):
        line = self.peek()
        m = rx.match(line) if line is not None else None
        if m:
            self.i += 1
        return m

    def closes(self, test):
        """The next line is the result line of TEST."""
        line = self.peek()
        m = RESULT.match(line) if line is not None else None
        return bool(m) and m.group(4) == test.name

    def test(self, top, diag=()):
        t = _Test()
        t.diag = list(diag) + self.skip_diagnostics()
        ktap = self.take(START)
        header = None if top else self.take(HEADER)
        if header:
            t.name = header.group(1)
        parent = t.parent = bool(top or ktap or header)
        if parent:
            m = self.take(PLAN)
            t.expected = int(m.group(1)) if m else None
        n = 1
        while parent and (t.expected is None or n <= t.expected):
            diag = self.skip_diagnostics()
            if self.peek() is None or (not top and self.closes(t)):
                if t.expected and n <= t.expected:
                    t.missing = t.expected - n + 1
                break
            t.subs.append(self.test(False, diag))
            n += 1
        if not top:
            t.diag += self.skip_diagnostics()
            if not t.name or self.closes(t):
                self.result(t)
        return t

    def result(self, t):
        line = self.peek()
        m = RESULT.match(line) if line is not None else None
        if not m:
            return
        self.i += 1
        s = SKIP.match(line)
        t.name = s.group(4) if s else m.group(4)
        t.status = 'SKIP' if s else 'PASS' if m.group(1) == 'ok' else 'FAIL'


def _why(diag):
    """The first failed expectation of DIAG, on one line: 'file:line:
    Expected ..., but ...', or ''."""
    for i, line in enumerate(diag):
        m = FAILED.search(line)
        if m:
            rest = [ln.strip().lstrip('# ').strip() for ln in diag[i + 1:i + WHY_LINES]]
            why = ' '.join([m.group(2) + ':'] + [r for r in rest if r])
            return why[:WHY_CHARS]
    return ''


def _leaf(s, key):
    """A test without subtests; one that promised some ran none."""
    if s.status == 'SKIP' or (s.status == 'PASS' and not s.parent):
        return (key, s.status, '')
    if s.status is None and not s.parent:
        return (key, 'FAIL', 'no result line (crashed?)')
    if s.parent and s.status != 'FAIL':
        return (key, 'FAIL', 'no tests run')
    return (key, 'FAIL', _why(s.diag))


def _walk(t, prefix, out):
    for s in t.subs:
        if s.subs or s.missing:
            _walk(s, prefix + s.name + '.', out)
        else:
            out.append(_leaf(s, 'kunit:' + prefix + s.name))
    if t.missing:
        key = 'kunit:' + prefix[:-1] if prefix else BOOT
        out.append((key, 'FAIL', 'planned %d, %d reported (crashed?)'
                    % (t.expected, t.expected - t.missing)))


def results(console):
    """[(key, PASS|FAIL|SKIP, reason)] of the KUnit suites that ran at boot."""
    if 'TAP version' not in console:
        return [(BOOT, 'FAIL', 'no KTAP output in the kernel log')]
    top = _Parser(extract(console)).test(True)
    out = []
    _walk(top, '', out)
    if not out:
        out.append((BOOT, 'FAIL', 'KTAP output had no test cases'))
    return out
