"""The benchmark profiles: make bench (A/B under -icount), its smoke in
make check, and bench-profile (instructions by function, on A and B)."""
import datetime
import os
import re
import subprocess
import sys

from workshop import conf
from workshop.judge.result import Result
from workshop.kinds import Kind


class Bench(Kind):
    """A: the series before the rewrite (config/bench-a-side), B: the whole
    series; B-few: B again with test_hw0 the only test PMU, whose pipe runs
    show what the PMUs that exist without events cost; M: mainline 6.12
    (config/mainline.pin) on the runs that need no test PMU."""

    def boots(self, job):
        f = job.options.get('benchfilter', '')
        if ' ' in f or '+' in f:
            raise SystemExit("benchfilter %r: no spaces or '+' (the guest reads '+' as a space)" % f)
        out = []
        for over in job.p['boots']:
            if over.get('when') and f and not re.search(f, over['when']):
                continue
            if job.arch_name not in over.get('archs', [job.arch_name]):
                continue
            b = job.boot_settings({k: v for k, v in over.items() if k not in ('when', 'archs')})
            b['args'] = dict(b.get('args', {}), bench=job.options['bench'],
                             benchfilter=f)
            out.append(b)
        return out

    def before_boot(self, job, b, kdir, logs):
        from workshop.pipeline import config_value
        return {'hz': config_value(kdir, 'CONFIG_HZ') or 250}, []

    def judge(self, job, statuses):
        from workshop.judge import bench
        from workshop.pipeline import describe, tree_of
        logs = {b['name']: os.path.join(job.logs, b['name'], 'guest.log') for b in job.boots}
        # A profile without a B boot (the smoke) boots one kernel once, as both.
        logs.setdefault('B', logs['A'])
        # A side's more boots (A-x50: A with 50 more PMUs, A-hybrid) add
        # their rows to it; B-few is set against B on its own.
        side = {s: [logs[s]] + [p for n, p in logs.items()
                                if n.startswith(s + '-') and n != 'B-few']
                for s in ('A', 'B')}
        ka, kb = job.prepared['A'][0], job.prepared.get('B', job.prepared['A'])[0]
        if job.name == 'bench':
            a_desc = describe(tree_of('a-side')[0])
            b_desc = describe(tree_of('series')[0])
        else:
            a_desc = b_desc = os.path.relpath(kb, conf.TOP)
        out = None
        if job.options['bench'] == 'full' and not any(statuses.values()):
            # A filtered run is a report of its own: DATE-ARCH-FILTER.
            f = re.sub(r'[^A-Za-z0-9]+', '_', job.options.get('benchfilter', '')).strip('_')
            out = os.path.join(conf.TOP, 'results', 'bench', '%s-%s%s' % (
                datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d'), job.arch_name,
                '-' + f if f else ''))
        m_desc = None
        if 'M' in logs:
            pin = conf.pin('mainline')
            m_desc = 'Linux %s, Debian %s %s, unmodified' % (pin['upstream'], pin['package'],
                                                            pin['version'])
        text, res = bench.judge(side['A'], side['B'], logs.get('B-few'), arch=job.arch_name,
                                mode=job.options['bench'], a_desc=a_desc, b_desc=b_desc,
                                same=ka == kb, command=job.command(), out_prefix=out,
                                logdir=job.logs, m_log=logs.get('M'), m_desc=m_desc)
        if job.verbose:
            print(text)
        bad = {n: s for n, s in statuses.items() if s}
        if bad and res.verdict == 'PASS':
            res = Result(res.key, 'FAIL', 'FAIL', 'guest status %s' % bad)
        return [res], {}


class Profile(Kind):
    """One perfbench run on A and B under the insnprof plugin; the report
    maps the counts to each side's symbols (workshop/profile_report.py)."""

    def boots(self, job):
        out = []
        for over in job.p['boots']:
            b = job.boot_settings(over)
            b['args'] = {'prof': job.options['prof']}
            out.append(b)
        return out

    def prepare(self, job):
        from workshop.pipeline import host_tool
        job.plugin = host_tool(job.p['boot']['plugin'])

    def before_boot(self, job, b, kdir, logs):
        return {}, ['-plugin', '%s,out=%s/insn.txt,min=%s'
                    % (job.plugin, logs, job.arch.kernel_text_start)]

    def judge(self, job, statuses):
        cmd = [sys.executable, '-m', 'workshop.profile_report', '--cross',
               job.arch.cross_compile]
        for side in ('A', 'B'):
            cmd += [os.path.join(job.prepared[side][0], 'vmlinux'), os.path.join(job.logs, side)]
        p = subprocess.run(cmd, cwd=conf.TOP, capture_output=True, text=True)
        with open(os.path.join(job.logs, 'report.txt'), 'w') as f:
            f.write(p.stdout + p.stderr)
        if job.verbose:
            print(p.stdout + p.stderr)
        ok = p.returncode == 0 and not any(statuses.values())
        return [Result('profile:report', 'PASS' if ok else 'FAIL', 'PASS' if ok else 'FAIL',
                       '' if ok else 'guest status %s, report status %d'
                       % (statuses, p.returncode))], {}
