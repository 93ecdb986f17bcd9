"""The dynamic loader and every shared library some ELF files need, copied
into a guest's root: found in library directories, recursively by
DT_NEEDED.  Works for any arch: it reads ELF headers with readelf, it never
runs the binaries."""
import os
import re
import shutil
import subprocess


def readelf(path, opt):
    return subprocess.run(['readelf', opt, '-W', path], capture_output=True,
                          text=True).stdout


def elves(paths):
    """The ELF files among PATHS and below the directories of PATHS."""
    out = []
    for e in paths:
        if not os.path.isdir(e):
            out.append(e)
            continue
        for dp, _, fs in os.walk(e):
            for fn in fs:
                p = os.path.join(dp, fn)
                if not os.path.islink(p) and os.path.isfile(p):
                    with open(p, 'rb') as fh:
                        if fh.read(4) == b'\x7fELF':
                            out.append(p)
    return out


def find(name, libdirs):
    return next((os.path.join(d, name) for d in libdirs
                 if os.path.exists(os.path.join(d, name))), None)


def install(src, dst):
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    if not os.path.exists(dst):
        shutil.copy2(os.path.realpath(src), dst)


def copy(root, libdirs, paths):
    """Into ROOT, the interpreter and libraries that the ELF files of PATHS
    need; the libraries go to ROOT/lib."""
    todo, seen = elves(paths), set()
    while todo:
        f = todo.pop()
        if f in seen:
            continue
        seen.add(f)
        interp = re.search(r'Requesting program interpreter: (\S+)\]', readelf(f, '-l'))
        if interp:
            ip = interp.group(1)
            src = find(os.path.basename(ip), libdirs)
            if not src:
                raise SystemExit('%s: interpreter %s not found in %s' % (f, ip, libdirs))
            install(src, root + ip)
        for n in re.findall(r'\(NEEDED\)\s+Shared library: \[(\S+)\]', readelf(f, '-d')):
            src = find(n, libdirs)
            if not src:
                # Python's optional extension modules (ssl, curses, ...) may
                # need what the guest lacks: they fail to import, as on any
                # system without the library.  Anything else must resolve.
                if '/lib-dynload/' in f:
                    continue
                raise SystemExit('%s: %s not found in %s' % (f, n, libdirs))
            dst = os.path.join(root, 'lib', n)
            if not os.path.exists(dst):
                install(src, dst)
                todo.append(src)
