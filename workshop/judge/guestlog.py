"""The guest protocol in guest.log (docs/harness.md, "The guest protocol"):
=== BEGIN/END blocks, === STATE facts, GUEST-EXIT; and the end-of-run
checks on them (taint, lockdep, the guest's exit status)."""
import os
import re

from workshop.conf import BAD_TAINT

ANSI = re.compile(r'\x1b\[[0-9;]*[A-Za-z]')
MARK = re.compile(r'=== (BEGIN|END) (\S+) (.*)$')
STATE = re.compile(r'^=== STATE ([\w.]+)=(.*)$', re.M)
EXIT = re.compile(r'^GUEST-EXIT: (\d+)', re.M)


def read(logdir, name):
    """A log of the run, '' when there is none."""
    try:
        with open(os.path.join(logdir, name), errors='replace') as f:
            return f.read()
    except OSError:
        return ''


def sections(guest):
    """[(kind, name, body lines, rc)] for each === BEGIN/END block; rc is
    None for a block that never ended.  Markers are found anywhere in a
    line, so output without a final newline cannot hide one."""
    out = []
    cur = None
    for line in ANSI.sub('', guest).splitlines():
        m = MARK.search(line)
        if not m:
            if cur:
                cur[2].append(line)
            continue
        if line[:m.start()] and cur:
            cur[2].append(line[:m.start()])
        if m.group(1) == 'BEGIN':
            if cur:
                out.append((cur[0], cur[1], cur[2], None))
            cur = (m.group(2), m.group(3), [])
            continue
        rc = re.search(r'rc=(\d+)$', m.group(3))
        if cur:
            out.append((cur[0], cur[1], cur[2], int(rc.group(1)) if rc else None))
        cur = None
    if cur:
        out.append((cur[0], cur[1], cur[2], None))
    return out


def state(guest):
    """{KEY: VALUE} of the === STATE lines (the last one of a key wins)."""
    return dict(STATE.findall(guest))


def taint(st):
    """(ok, flags) for the taint flags the guest reported at the end: ok
    None when it reported none, False when a bad one is set (or the value
    is no number)."""
    if 'tainted' not in st:
        return None, None
    try:
        t = int(st['tainted'] or 0)
    except ValueError:
        return False, st['tainted']
    return not t & BAD_TAINT, t


def lockdep_off(st):
    """lockdep turned itself off during the run (debug_locks=0)."""
    return st.get('debug_locks', '').strip() == '0'


def exit_status(guest):
    """(ok, reason): the mode script's exit status, from /init's last
    GUEST-EXIT line; none: the guest did not finish."""
    m = EXIT.findall(guest)
    if not m:
        return False, 'the guest did not finish: ' + ' | '.join(guest.splitlines()[-3:])
    return m[-1] == '0', 'guest script exit status ' + m[-1]
