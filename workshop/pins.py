"""The pinned Debian source packages (config/NAME.pin): the base of the
series, and mainline's 6.12 that make bench boots as its third kernel (a
black box: built and booted, its perf code never read)."""
import hashlib
import os
import shutil
import subprocess

from workshop import conf
from workshop.proc import die, run, say


def _read(path):
    with open(path) as f:
        return f.read().strip()


def ensure(name):
    """The tarball of config/NAME.pin, installed and checked.  If the
    archive no longer serves the pinned version the newest is used, a
    banner says so and build/NAME-UNPINNED records it (for the base, make
    check then fails unless told to allow it)."""
    pin = conf.pin(name)
    os.makedirs(conf.BUILD, exist_ok=True)
    unpinned = os.path.join(conf.BUILD, name.upper() + '-UNPINNED')
    if os.path.exists(unpinned):
        os.unlink(unpinned)

    def have():
        return subprocess.run(['dpkg-query', '-W', '-f=${Version}', pin['package']],
                              capture_output=True, text=True).stdout.strip()
    want = '%s=%s' % (pin['package'], pin['version'])
    apt = ['apt-get', 'install', '-y', '-qq', '--no-install-recommends']
    if have() != pin['version']:
        say('installing ' + want)
        if run(apt + ['--allow-downgrades', want], check=False):
            run(['apt-get', 'update', '-qq'], check=False)
            run(apt + ['--allow-downgrades', want], check=False)
    if have() != pin['version']:
        run(apt + [pin['package']])
        say('#' * 64 + '\n#  UNPINNED: config/%s.pin wants %s %s, the archive '
            'serves %s.\n#  Using it; update %s.pin once it is known good.\n'
            % (name, pin['package'], pin['version'], have(), name) + '#' * 64)
        with open(unpinned, 'w') as f:
            f.write(have() + '\n')
        return pin['tarball'], have()
    h = hashlib.sha256()
    with open(pin['tarball'], 'rb') as f:
        for chunk in iter(lambda: f.read(1 << 20), b''):
            h.update(chunk)
    if h.hexdigest() != pin['sha256']:
        die('%s: sha256 %s, %s.pin wants %s' % (pin['tarball'], h.hexdigest(), name,
                                                pin['sha256']))
    return pin['tarball'], pin['version']


def mainline():
    """build/src/mainline: config/mainline.pin's tarball unpacked as it is
    (no git: nothing is committed on it), re-made when the pin changes."""
    tarball, version = ensure('mainline')
    dest = conf.src('mainline')
    mark = os.path.join(dest, '.perfctx-unpacked')
    if os.path.exists(mark) and _read(mark) == version:
        return dest
    say('unpacking %s into %s' % (tarball, dest))
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest)
    run(['tar', '-C', dest, '--strip-components=1', '-xf', tarball])
    with open(mark, 'w') as f:
        f.write(version + '\n')
    return dest
