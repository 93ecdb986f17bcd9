"""The Debian packages the workshop needs (config/deps.toml), installed as
root with apt-get; silent when everything is there already."""
import os
import subprocess

from workshop import conf
from workshop.proc import die, run, say


def installed(pkg, native):
    name, _, arch = pkg.partition(':')
    arches = [arch] if arch else [native, 'all']
    st = subprocess.run(['dpkg-query', '-W', '-f=${db:Status-Abbrev}${Architecture}\\n', name],
                        capture_output=True, text=True).stdout.split('\n')
    return any('ii ' + a in st for a in arches)


def missing(groups):
    d = conf.load_toml('deps.toml')
    native = subprocess.run(['dpkg', '--print-architecture'], capture_output=True,
                            text=True).stdout.strip()
    want = []
    for g in groups:
        if g not in d or g == 'guest':
            die('unknown package group %r (config/deps.toml)' % g)
        want += [p for p in d[g] if p not in want]
    return [p for p in want if not installed(p, native)]


def install(groups):
    need = missing(groups)
    if not need:
        return
    if os.geteuid() != 0:
        die('need root to install: ' + ' '.join(need))
    say('installing ' + ' '.join(need))
    e = conf.env(DEBIAN_FRONTEND='noninteractive')
    foreign = subprocess.run(['dpkg', '--print-foreign-architectures'], capture_output=True,
                             text=True).stdout.split()
    if any(p.endswith(':arm64') for p in need) and 'arm64' not in foreign:
        run(['dpkg', '--add-architecture', 'arm64'], env=e)
    run(['apt-get', 'update', '-qq'], env=e, log=os.devnull)
    run(['apt-get', 'install', '-y', '-qq', '--no-install-recommends'] + need, env=e,
        log=os.devnull)
