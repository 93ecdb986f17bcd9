"""One boot under QEMU TCG: the kernel log to LOGS/console.log, what the
guest reports (its /dev/hvc0) to LOGS/guest.log, ending in "GUEST-EXIT: N".
Returns the guest's status, 124 when it ran past its timeout, 125 when it
died without reporting (panic, triple fault, QEMU error)."""
import os
import re
import signal
import subprocess
import sys
import threading
import time

from workshop import conf
from workshop.proc import say

ACCEL = {
    'off': ['-accel', 'tcg,thread=multi'],
    # guest ns = guest instructions, one host thread: for benchmarks
    'on': ['-accel', 'tcg', '-icount', 'shift=0,sleep=off'],
    # instructions counted, the guest clock following the host's
    'auto': ['-accel', 'tcg', '-icount', 'shift=auto'],
}


def test_pmu_params(b, a):
    """The test PMU driver's parameters of boot settings B: its set in
    config/boots.toml, each @FIELD there the fact of conf.Arch A."""
    params = conf.profiles()['test_pmu'][b.get('test_pmu', 'std')]
    return re.sub(r'@(\w+)', lambda m: str(getattr(a, m.group(1))), params)


def cmdline(b, a, extra_args=None):
    """The kernel command line of boot settings B (on conf.Arch A): the
    common part, the mode and its perfctx.* arguments, the test PMU's
    parameters."""
    prof = conf.profiles()
    args = {'mode': b['mode'], 'badtaint': conf.BAD_TAINT}
    args.update(b.get('args', {}))
    args.update(extra_args or {})
    parts = [prof['boot']['cmdline']]
    parts += ['perfctx.%s=%s' % (k, str(v).replace(' ', '+'))
              for k, v in args.items() if v != '' and v is not None]
    parts.append(test_pmu_params(b, a))
    parts.append(b.get('cmdline', ''))
    return ' '.join(p for p in parts if p)


def smp(b):
    """-smp of boot settings B: `smp` CPUs in `sockets` packages (when
    they divide evenly; else one)."""
    n, sockets = int(b.get('smp', 4)), int(b.get('sockets', 1))
    if sockets <= 1 or n % sockets:
        return str(n)
    return '%d,sockets=%d,cores=%d,threads=1' % (n, sockets, n // sockets)


def machine(a, b):
    """The -M of arch A under boot settings B (`machine_opts` appended)."""
    return ','.join(x for x in (a.machine, b.get('machine_opts', '')) if x)


def command(a, kernel, initrd, logs, b, append, qemu_extra=()):
    """QEMU's command line; a boot with a `dtb` has had its blob made by
    the pipeline (b['dtb_path'])."""
    dtb = ['-dtb', b['dtb_path']] if b.get('dtb_path') else []
    return ([a.qemu, '-M', machine(a, b), '-cpu', a.cpu] + ACCEL[b.get('icount', 'off')] +
            ['-smp', smp(b), '-m', b.get('mem', '2G'), '-nodefaults',
             '-display', 'none', '-no-reboot', '-kernel', kernel, '-initrd', initrd,
             '-append', 'console=%s %s' % (a.console, append),
             '-chardev', 'file,id=con,path=%s/console.log' % logs, '-serial', 'chardev:con',
             '-chardev', 'file,id=res,path=%s/guest.log' % logs,
             '-device', a.virtio_serial, '-device', 'virtconsole,chardev=res',
             '-monitor', 'none'] + dtb + list(qemu_extra))


def boot(a, kernel, initrd, logs, b, extra_args=None, qemu_extra=(), idle=False,
         console=False, poll=None):
    """Boot KERNEL (an image) with INITRD for conf.Arch A under boot
    settings B; logs in LOGS.  poll: called every 15 s with the console
    log's path while QEMU runs; returning True stops QEMU."""
    os.makedirs(logs, exist_ok=True)
    for f in ('console.log', 'guest.log'):
        open(os.path.join(logs, f), 'w').close()
    append = cmdline(b, a, extra_args)
    cmd = command(a, kernel, initrd, logs, b, append, qemu_extra)
    with open(os.path.join(logs, 'qemu.cmd'), 'w') as f:
        f.write(' '.join("'%s'" % c if ' ' in c else c for c in cmd) + '\n')
    if idle:
        cmd = ['chrt', '--idle', '0'] + cmd
    timeout = int(b.get('timeout', 3600))
    say('booting %s (%s), logs in %s' % (a.name, b['mode'], os.path.relpath(logs, conf.TOP)))
    p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, start_new_session=True)
    stop = threading.Event()
    tail = threading.Thread(target=_tail, args=(os.path.join(logs, 'console.log'), stop),
                            daemon=True) if console else None
    if tail:
        tail.start()
    t0, timed_out, next_poll = time.time(), False, time.time() + 15
    while p.poll() is None:
        time.sleep(1)
        if time.time() - t0 > timeout:
            timed_out = True
            _kill(p)
        elif poll and time.time() >= next_poll:
            next_poll = time.time() + 15
            if poll(os.path.join(logs, 'console.log')):
                _kill(p)
    stop.set()
    with open(os.path.join(logs, 'guest.log'), 'a+') as g:
        g.seek(0)
        exits = re.findall(r'^GUEST-EXIT: (\d+)', g.read(), re.M)
        if timed_out:
            g.write('TIMEOUT: %s %s ran past %d s\n' % (a.name, b['mode'], timeout))
            return 124
        if not exits:
            g.write('GUEST DIED: %s %s ended (qemu status %s) without reporting\n'
                    % (a.name, b['mode'], p.returncode))
            return 125
    return int(exits[-1])


def _kill(p):
    try:
        os.killpg(p.pid, signal.SIGTERM)
        p.wait(10)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
    except ProcessLookupError:
        pass


def _tail(path, stop):
    with open(path, errors='replace') as f:
        while not stop.is_set():
            line = f.readline()
            if line:
                sys.stdout.write(line)
            else:
                time.sleep(0.2)
