"""The kernel-log scanner and the decoding of its traces."""
import os
import stat
import tempfile
import unittest

from workshop.judge import splats

REPORTS = [
    '[    2.0] WARNING: CPU: 0 PID: 1 at kernel/events/core.c:1 x',
    '[    2.0] BUG: KASAN: slab-use-after-free in perf_event_ctx_lock+0x1/0x2',
    '[    2.0] kernel BUG at kernel/events/core.c:12!',
    '[    2.0] Oops: 0000 [#1] PREEMPT SMP',
    '[    2.0] general protection fault, probably for non-canonical address',
    '[    2.0] Unable to handle kernel paging request at virtual address 0',
    '[    2.0] Kernel panic - not syncing: Fatal exception',
    '[    2.0] INFO: task perf:12 blocked for more than 240 seconds.',
    '[    2.0] rcu: INFO: rcu_preempt self-detected stall on CPU',
    '[    2.0] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:',
    '[    2.0] rcu: INFO: rcu_preempt detected expedited stalls on CPUs/tasks: { 1-... }',
    '[    2.0] INFO: trying to register non-static key.',
    '[    2.0] UBSAN: shift-out-of-bounds in kernel/events/core.c:1:2',
    '[    2.0] ODEBUG: free active (active state 0) object type: timer_list',
    '[    2.0] list_add corruption. prev->next should be next',
    '[    2.0] list_del corruption, ffff8880 ->next is LIST_POISON1',
    '[    2.0] unreferenced object 0xffff888100000000 (size 64):',
    '[    2.0] Watchdog detected hard LOCKUP on cpu 1',
    '[    2.0] INFO: possible recursive locking detected',
    '[    2.0] DEBUG_LOCKS_WARN_ON(1)',
    '[    2.0] [    T1] WARNING: CPU: 0 PID: 1 at x',
]
NOT_REPORTS = [
    '[    0.1] KernelAddressSanitizer initialized (generic)',
    '[    0.2] RCU lockdep checking is enabled.',
    '[    0.3] perf: interrupt took too long (2510 > 2500)',
    '[    0.4] x WARNING: not at the start',
    '[    0.5] the BUG:no space after the colon',
    '[    0.6] INFO: task perf:12 ran fine',
]


class Scan(unittest.TestCase):
    def test_reports(self):
        for line in REPORTS:
            with self.subTest(line):
                self.assertEqual(splats.titles(line + '\n'), [splats.strip(line)])

    def test_not_reports(self):
        for line in NOT_REPORTS:
            with self.subTest(line):
                self.assertEqual(splats.titles(line + '\n'), [])

    def test_cut_here_title_and_end(self):
        log = ('[    1.0] before\n[    2.0] ------------[ cut here ]------------\n'
               '[    2.1] WARNING: CPU: 1 PID: 42 at kernel/events/core.c:1234 demo+0x10/0x20\n'
               '[    2.2] Call Trace:\n[    2.3] ---[ end trace 0000000000000000 ]---\n'
               '[    3.0] after\n')
        got = splats.splats(log)
        self.assertEqual(len(got), 1)
        title, lines = got[0]
        self.assertEqual(title, 'WARNING: CPU: 1 PID: 42 at kernel/events/core.c:1234 demo+0x10/0x20')
        self.assertEqual(len(lines), 4)
        self.assertTrue(lines[-1].endswith('---[ end trace 0000000000000000 ]---'))

    def test_report_ends_at_guest_marker(self):
        log = '[ 1.0] Oops: 1\n[ 1.1] trace\n=== BEGIN kselftest x\nWARNING: later\n'
        got = splats.splats(log)
        self.assertEqual([t for t, _ in got], ['Oops: 1', 'WARNING: later'])
        self.assertEqual(len(got[0][1]), 3)

    def test_report_at_most_120_lines(self):
        log = '[ 1.0] Oops: 1\n' + '[ 1.1] frame\n' * 200 + '[ 2.0] WARNING: two\n'
        got = splats.splats(log)
        self.assertEqual(len(got[0][1]), 120)
        self.assertEqual([t for t, _ in got], ['Oops: 1', 'WARNING: two'])

    def test_lines_inside_a_report_are_not_reports(self):
        log = ('[ 1.0] BUG: KASAN: use-after-free\n[ 1.1] WARNING: inside\n'
               '[ 1.2] ---[ end trace 1 ]---\n')
        self.assertEqual(splats.titles(log), ['BUG: KASAN: use-after-free'])

    def test_strip(self):
        self.assertEqual(splats.strip('[   12.345678] [  T123] text\r\n'), 'text')
        self.assertEqual(splats.strip('[   12.345678] [    C1] text'), 'text')
        self.assertEqual(splats.strip('no stamp'), 'no stamp')


class Decode(unittest.TestCase):
    def test_fallback_without_vmlinux(self):
        self.assertEqual(splats.Decoder(None, '/nowhere')(['a', 'b']), 'a\nb')
        self.assertEqual(splats.Decoder('/no/vmlinux', '/nowhere')(['a']), 'a')
        self.assertEqual(splats.raw(['x', 'y']), 'x\ny')

    def test_fallback_without_tree(self):
        with tempfile.NamedTemporaryFile() as v:
            self.assertEqual(splats.Decoder(v.name, '/nowhere')(['a']), 'a')

    def test_script_runs(self):
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, 'scripts'))
            script = os.path.join(d, 'scripts', 'decode_stacktrace.sh')
            with open(script, 'w') as f:
                f.write('#!/usr/bin/env python3\nimport os, sys\n'
                        'print("decoded", sys.argv[1:], os.environ.get("CROSS_COMPILE"))\n'
                        'print(sys.stdin.read().strip())\n')
            os.chmod(script, os.stat(script).st_mode | stat.S_IXUSR)
            vmlinux = os.path.join(d, 'vmlinux')
            open(vmlinux, 'w').close()
            out = splats.Decoder(vmlinux, d, 'aarch64-linux-gnu-')(['t1', 't2'])
            self.assertEqual(out.splitlines(), [
                "decoded ['%s', '%s'] aarch64-linux-gnu-" % (vmlinux, d), 't1', 't2'])
            with open(script, 'w') as f:
                f.write('#!/usr/bin/env python3\n')
            self.assertEqual(splats.Decoder(vmlinux, d)(['t1']), 't1')


if __name__ == '__main__':
    unittest.main()
