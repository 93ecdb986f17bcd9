"""The kernel-log scanner: every kernel report (WARNING, BUG, Oops, KASAN,
lockdep, RCU stall, hung task, kmemleak...) in a console log, and the
decoding of its trace by the tree's scripts/decode_stacktrace.sh."""
import os
import re
import subprocess

# A kernel log line's timestamp and optional caller id: "[    1.000000] "
# and "[    T1] " (CONFIG_PRINTK_CALLER).
TS = re.compile(r'^\[\s*\d+\.\d+\]\s?(\[\s*[CT]\d+\]\s?)?')
CUT = re.compile(r'^-+\[ cut here \]-+')
SPLAT = [re.compile(p) for p in (
    r'^WARNING:', CUT.pattern, r'\bBUG: ', r'^kernel BUG at',
    r'Oops', r'^general protection fault', r'^Unable to handle kernel',
    r'^Kernel panic', r'^INFO: task .* blocked for more than',
    r'rcu: INFO: .*detected stall', r'detected (expedited )?stalls',
    r'^INFO: trying to register non-static key',
    r'^UBSAN:', r'^ODEBUG:', r'^list_(add|del) corruption',
    r'unreferenced object 0x', r'hard LOCKUP', r'^INFO: possible',
    r'^DEBUG_LOCKS_WARN_ON',
)]
# Lines that look alarming but are not.  Add with a reason.
BENIGN = [re.compile(p) for p in (
    r'KernelAddressSanitizer initialized',   # KASAN's boot banner
    r'RCU lockdep checking is enabled',      # lockdep's boot banner
)]
# A report ends at its end marker or a guest marker, or after this many lines.
MAX_LINES = 120


def strip(line):
    """A console line without its newline, timestamp and caller id."""
    return TS.sub('', line.rstrip('\r\n'))


def is_splat(msg):
    return not any(b.search(msg) for b in BENIGN) and \
        any(s.search(msg) for s in SPLAT)


def splats(console):
    """[(title, trace lines)] for each kernel report in the log; the title
    of a "cut here" report is the line after the marker."""
    lines = console.splitlines()
    out = []
    i = 0
    while i < len(lines):
        msg = strip(lines[i])
        if not is_splat(msg):
            i += 1
            continue
        j = i + 1
        title = msg
        if CUT.match(msg) and j < len(lines):
            title = strip(lines[j])
        while j < len(lines) and j - i < MAX_LINES:
            m = strip(lines[j])
            j += 1
            if m.startswith('---[ end') or m.startswith('=== '):
                break
        out.append((title, lines[i:j]))
        i = j
    return out


def titles(console):
    """The title of each report in the log (the host polls a running
    guest's log with it)."""
    return [t for t, _ in splats(console)]


class Decoder:
    """decode(trace lines) -> text: the trace through the tree's
    scripts/decode_stacktrace.sh, or the raw lines when the vmlinux or the
    tree is missing or the script fails."""

    def __init__(self, vmlinux, src, cross=''):
        self.vmlinux, self.src, self.cross = vmlinux, src, cross or ''

    def __call__(self, trace):
        raw = '\n'.join(trace)
        script = os.path.join(self.src or '.', 'scripts/decode_stacktrace.sh')
        if not self.vmlinux or not os.path.exists(self.vmlinux) or \
                not os.path.exists(script):
            return raw
        env = dict(os.environ, CROSS_COMPILE=self.cross)
        try:
            p = subprocess.run([script, self.vmlinux, self.src], input=raw + '\n',
                               capture_output=True, text=True, env=env, timeout=300)
            return p.stdout or raw
        except (OSError, subprocess.SubprocessError):
            return raw


def raw(trace):
    """The decoder of no tree: the trace as it is."""
    return '\n'.join(trace)
