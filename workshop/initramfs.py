"""The guest's initramfs: Debian's static busybox and bash of the guest's
arch, GNU tools and python3 over busybox's applets, perf and the
kselftests, the guest/ scripts, what the payload adds (more Debian
packages, static programs, the test PMU module), and every shared library
those need (workshop/copy_libs.py).  Debian packages are unpacked from
their .debs, never installed on the host."""
import glob
import hashlib
import os
import shutil
import subprocess
import tempfile

from workshop import conf, copy_libs
from workshop.proc import die, run, say


def unpack_debs(d, darch, pkgs):
    """PKGS of Debian arch DARCH unpacked in D/root, downloaded again only
    when the list changes."""
    key = hashlib.sha256('\n'.join(pkgs).encode()).hexdigest()[:16]
    stamp = os.path.join(d, '.stamp')
    if os.path.exists(stamp) and open(stamp).read().strip() == key:
        return os.path.join(d, 'root')
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(os.path.join(d, 'root'))
    names = ['%s:%s' % (p, darch) for p in pkgs]
    if run(['apt-get', 'download', '-q'] + names, cwd=d, check=False, log=os.devnull):
        run(['apt-get', 'update', '-qq'])
        run(['apt-get', 'download', '-q'] + names, cwd=d, log=os.devnull)
    for deb in sorted(glob.glob(os.path.join(d, '*.deb'))):
        run(['dpkg-deb', '-x', deb, os.path.join(d, 'root')])
    with open(stamp, 'w') as f:
        f.write(key + '\n')
    return os.path.join(d, 'root')


def copy_tree(src, dst):
    """cp -a --remove-destination SRC/. DST/: what SRC has replaces what DST
    has (never written through a link, such as a busybox applet's)."""
    for dp, dns, fs in os.walk(src):
        rel = os.path.relpath(dp, src)
        os.makedirs(os.path.join(dst, rel), exist_ok=True)
        for n in fs + [d for d in dns if os.path.islink(os.path.join(dp, d))]:
            s, d = os.path.join(dp, n), os.path.join(dst, rel, n)
            if os.path.lexists(d) and not os.path.isdir(d) or os.path.islink(d):
                os.unlink(d)
            if os.path.islink(s):
                os.symlink(os.readlink(s), d)
            else:
                shutil.copy2(s, d)


def base_root(r, debs, tools_root):
    """busybox, bash, the GNU tools, python3, perf and the kselftests."""
    for d in ('bin', 'sbin', 'usr/bin', 'usr/sbin', 'usr/lib', 'lib', 'proc', 'sys',
              'dev', 'tmp', 'run', 'etc', 'root', 'guest'):
        os.makedirs(os.path.join(r, d), exist_ok=True)
    shutil.copy2(os.path.join(debs, 'bin/busybox'), os.path.join(r, 'bin/busybox'))
    # Applet links: the guest's busybox cannot run here; the host's has the
    # same version and Debian config.
    for a in subprocess.run(['/bin/busybox', '--list'], capture_output=True,
                            text=True, check=True).stdout.split():
        p = os.path.join(r, 'bin', a)
        if not os.path.lexists(p):
            os.symlink('busybox', p)
    for d in ('bin', 'usr/bin'):        # GNU tools over busybox's applets
        copy_tree(os.path.join(debs, d), os.path.join(r, d))
    py = os.path.join(r, 'usr/lib/python3.11')
    shutil.copytree(os.path.join(debs, 'usr/lib/python3.11'), py, symlinks=True)
    for junk in ('test', 'idlelib', 'tkinter', 'ensurepip', 'lib2to3', 'pydoc_data', 'turtledemo'):
        shutil.rmtree(os.path.join(py, junk), ignore_errors=True)
    for d in glob.glob(os.path.join(py, 'config-*')):
        shutil.rmtree(d)
    for dp, dns, _ in os.walk(py):
        if '__pycache__' in dns:
            shutil.rmtree(os.path.join(dp, '__pycache__'))
    for n in ('python3', 'python'):
        os.symlink('python3.11', os.path.join(r, 'usr/bin', n))
    os.unlink(os.path.join(r, 'bin/bash-static'))
    shutil.copy2(os.path.join(debs, 'bin/bash-static'), os.path.join(r, 'bin/bash'))
    os.unlink(os.path.join(r, 'bin/sh'))
    os.symlink('bash', os.path.join(r, 'bin/sh'))
    copy_tree(tools_root, r)


def guest_files(r):
    """/init, /guest (lib.sh, modes/, stress/), the core lists of make check."""
    g = os.path.join(conf.TOP, 'guest')
    shutil.copy2(os.path.join(g, 'init'), os.path.join(r, 'init'))
    shutil.copy2(os.path.join(g, 'lib.sh'), os.path.join(r, 'guest/lib.sh'))
    for d in ('modes', 'stress'):
        shutil.copytree(os.path.join(g, d), os.path.join(r, 'guest', d))
    for f in ('perf-tests-core.txt', 'kselftests-full-only.txt'):
        shutil.copy2(os.path.join(conf.CONFIG, f), os.path.join(r, 'guest'))
    for dp, _, fs in os.walk(os.path.join(r, 'guest')):
        for f in fs:
            if f.endswith('.sh'):
                os.chmod(os.path.join(dp, f), 0o755)
    os.chmod(os.path.join(r, 'init'), 0o755)
    with open(os.path.join(r, 'etc/passwd'), 'w') as f:
        f.write('root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/false\n')
    with open(os.path.join(r, 'etc/group'), 'w') as f:
        f.write('root:x:0:\nnogroup:x:65534:\n')
    with open(os.path.join(r, 'etc/hosts'), 'w') as f:
        f.write('127.0.0.1 localhost\n')


def make(a, out, tools_root, extra_debs=(), programs=None, module=None):
    """OUT (.cpio.gz) for conf.Arch A.  extra_debs: more Debian packages;
    programs: {name: path} for /usr/bin; module: (name, .ko path) for
    /lib/modules/NAME.ko."""
    if not os.path.exists(os.path.join(tools_root, 'usr/bin/perf')):
        die('no perf for %s in %s' % (a.name, tools_root))
    deps = conf.load_toml('deps.toml')['guest']
    src = os.path.join(conf.BUILD, 'src', 'debs')
    debs = unpack_debs(os.path.join(src, a.debian_arch), a.debian_arch,
                       deps['base'] + list(a.guest_debs))
    key = inputs_key(a, tools_root, extra_debs, programs, module)
    if os.path.exists(out) and os.path.exists(out + '.key') and \
            open(out + '.key').read().strip() == key:
        return out              # nothing it is made of changed
    libdirs = [os.path.join(debs, 'lib', a.triplet), os.path.join(debs, 'usr/lib', a.triplet)]
    r = out + '.root'
    shutil.rmtree(r, ignore_errors=True)
    base_root(r, debs, tools_root)
    if extra_debs:
        x = unpack_debs(os.path.join(src, a.debian_arch + '-extra'), a.debian_arch, list(extra_debs))
        libdirs += [os.path.join(x, 'lib', a.triplet), os.path.join(x, 'usr/lib', a.triplet)]
        for d in ('bin', 'sbin', 'usr/bin', 'usr/sbin'):
            copy_tree(os.path.join(x, d), os.path.join(r, d))
    for name, path in (programs or {}).items():
        shutil.copy2(path, os.path.join(r, 'usr/bin', name))
    if module:
        os.makedirs(os.path.join(r, 'lib/modules'), exist_ok=True)
        shutil.copy2(module[1], os.path.join(r, 'lib/modules', module[0] + '.ko'))
    guest_files(r)
    copy_libs.copy(r, libdirs + list(a.host_libdirs),
                   [os.path.join(r, d) for d in ('usr', 'bin', 'kselftest')])
    files = sorted(os.path.relpath(os.path.join(dp, n), r)
                   for dp, dns, fs in os.walk(r) for n in dns + fs)
    cpio = subprocess.run(['cpio', '-o', '-H', 'newc', '--quiet', '-R', '0:0'], cwd=r,
                          input=('.\n' + ''.join('./%s\n' % f for f in files)).encode(),
                          capture_output=True, check=True, text=False)
    os.makedirs(os.path.dirname(out), exist_ok=True)
    subprocess.run(['gzip', '-1'], input=cpio.stdout, stdout=open(out, 'wb'), check=True)
    shutil.rmtree(r)
    with open(out + '.key', 'w') as f:
        f.write(key + '\n')
    say('%s: %.0f MB' % (out, os.path.getsize(out) / 1e6))
    return out


def inputs_key(a, tools_root, extra_debs, programs, module):
    """A hash of everything an image is made of: the tools, the guest/
    scripts, the core lists, the packages, the programs and the module."""
    h = hashlib.sha256(repr((a, sorted(extra_debs), sorted((programs or {}).items()),
                             module and module[0])).encode())
    paths = [tools_root, os.path.join(conf.TOP, 'guest'),
             os.path.join(conf.CONFIG, 'perf-tests-core.txt'),
             os.path.join(conf.CONFIG, 'kselftests-full-only.txt'),
             os.path.join(conf.CONFIG, 'deps.toml')]
    paths += list((programs or {}).values()) + ([module[1]] if module else [])
    for p in paths:
        files = [p] if os.path.isfile(p) else sorted(
            os.path.join(dp, f) for dp, _, fs in os.walk(p) for f in fs)
        for f in files:
            h.update(f.encode())
            if os.path.islink(f):
                h.update(os.readlink(f).encode())
            else:
                with open(f, 'rb') as fh:
                    h.update(hashlib.sha256(fh.read()).digest())
    return h.hexdigest()


def overlay(image, files, out):
    """OUT: IMAGE with FILES ({path in the guest: host file}) on top, as a
    second cpio archive after it (the kernel unpacks both)."""
    with tempfile.TemporaryDirectory() as d:
        for dst, srcf in files.items():
            os.makedirs(os.path.dirname(os.path.join(d, dst)), exist_ok=True)
            shutil.copy2(srcf, os.path.join(d, dst))
            os.chmod(os.path.join(d, dst), 0o755)
        names = sorted(os.path.relpath(os.path.join(dp, n), d)
                       for dp, dns, fs in os.walk(d) for n in dns + fs)
        cpio = subprocess.run(['cpio', '-o', '-H', 'newc', '--quiet', '-R', '0:0'], cwd=d,
                              input=''.join('%s\n' % n for n in names).encode(),
                              capture_output=True, check=True).stdout
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, 'wb') as f, open(image, 'rb') as base:
        shutil.copyfileobj(base, f)
        f.write(subprocess.run(['gzip', '-1'], input=cpio, capture_output=True,
                               check=True).stdout)
    return out
