"""Running commands, messages, stage times: the little every step needs."""
import contextlib
import os
import subprocess
import sys
import threading
import time

from workshop import conf

_lock = threading.Lock()


def say(msg):
    """A line on stderr for the one who runs the workshop (not in the
    harness's own tests: WS_QUIET)."""
    if os.environ.get('WS_QUIET'):
        return
    with _lock:
        print('==> ' + msg, file=sys.stderr, flush=True)


def die(msg):
    raise SystemExit('ERROR: ' + msg)


def run(cmd, *, cwd=None, env=None, log=None, idle=False, check=True,
        capture=False, stdin=None, timeout=None):
    """Run CMD (a list).  idle: at SCHED_IDLE, so that it only takes CPU
    time nothing else wants (builds next to a timing-sensitive guest).
    log: a file that gets stdout and stderr.  capture: return stdout.
    check: die on a non-zero status (with the log's tail)."""
    if idle:
        cmd = ['chrt', '--idle', '0'] + list(cmd)
    out = None
    with contextlib.ExitStack() as st:
        if log:
            out = st.enter_context(open(log, 'a'))
        p = subprocess.run(cmd, cwd=cwd, env=env if env is not None else conf.env(),
                           stdout=subprocess.PIPE if capture else out,
                           stderr=out if out else None, text=True,
                           stdin=stdin if stdin is not None else subprocess.DEVNULL,
                           timeout=timeout)
    if check and p.returncode != 0:
        if log:
            with open(log, errors='replace') as f:
                tail = f.readlines()[-40:]
            sys.stderr.write(''.join(tail))
        die('%s: exit status %d%s' % (' '.join(cmd[:6]), p.returncode,
                                      ' (log: %s)' % log if log else ''))
    return p.stdout if capture else p.returncode


def out(cmd, **kw):
    """stdout of CMD, stripped."""
    return run(cmd, capture=True, **kw).strip()


class Stages:
    """The time each stage of a run took, for the result file and the
    closing table."""

    def __init__(self):
        self.items = []

    @contextlib.contextmanager
    def __call__(self, name):
        t0 = time.time()
        try:
            yield
        finally:
            self.items.append([name, round(time.time() - t0, 1), round(t0, 1)])
