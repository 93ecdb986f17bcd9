"""Paths and constants of the workshop, and the loading of config/.

Every constant that the host and the guest share is here, once; the guest
gets it on the kernel command line (docs/harness.md, "The guest protocol").
"""
import copy
import dataclasses
import os
import tomllib

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONFIG = os.path.join(TOP, 'config')
BUILD = os.environ.get('WS_BUILD') or os.path.join(TOP, 'build')
PATCHES = os.path.join(TOP, 'patches')

# Taint flags that fail a run: B (bad page, 5), D (oops, 7), W (warning, 9),
# L (soft lockup, 14).  N (TAINT_TEST, 18), which the KUnit suites set at
# boot, and the module flags do not.
BAD_TAINT = (1 << 5) | (1 << 7) | (1 << 9) | (1 << 14)

# The environment of every build: ccache keys on content, not on mtimes or
# paths (a tree made anew, or a clone elsewhere, still hits), reproducible
# build stamps keep init/version.c and friends cacheable, and one identity
# makes the series' commits the same on every machine.
BUILD_ENV = {
    'CCACHE_DIR': os.path.expanduser('~/.cache/ccache'),
    'CCACHE_MAXSIZE': '20G',
    'CCACHE_BASEDIR': TOP,
    'CCACHE_NOHASHDIR': '1',
    'CCACHE_SLOPPINESS': 'time_macros,include_file_mtime,include_file_ctime',
    'KBUILD_BUILD_TIMESTAMP': 'Thu Jan  1 00:00:00 UTC 2026',
    'KBUILD_BUILD_USER': 'perfctx',
    'KBUILD_BUILD_HOST': 'workshop',
    'GIT_AUTHOR_NAME': 'perf-ctx workshop',
    'GIT_AUTHOR_EMAIL': 'workshop@localhost',
    'GIT_COMMITTER_NAME': 'perf-ctx workshop',
    'GIT_COMMITTER_EMAIL': 'workshop@localhost',
}


def env(**more):
    """os.environ with BUILD_ENV (the caller's own CCACHE_DIR wins)."""
    e = dict(os.environ)
    for k, v in BUILD_ENV.items():
        if k != 'CCACHE_DIR' or k not in e:
            e[k] = v
    e.update(more)
    return e


def jobs():
    return os.cpu_count() or 2


def load_toml(name):
    with open(os.path.join(CONFIG, name), 'rb') as f:
        return tomllib.load(f)


@dataclasses.dataclass(frozen=True)
class Arch:
    """Every fact about an arch (config/arches/NAME.toml)."""
    name: str
    kernel_arch: str
    cross_compile: str
    image: str = ''
    debian_arch: str = ''
    triplet: str = ''
    uname_m: str = ''
    qemu: str = ''
    machine: str = ''
    cpu: str = ''
    console: str = ''
    virtio_serial: str = ''
    kernel_text_start: str = ''
    host_libdirs: tuple = ()
    guest_debs: tuple = ()
    stress_debs: tuple = ()
    # tools/testing/selftests/kvm targets built into /kselftest/kvm/
    kvm_selftests: tuple = ()
    # The test PMUs with context callbacks on 6.1 (the A side): the driver
    # gives them to the owner of the shared hardware context only
    # (test_perf_pmu.ctx_cbs; make bench's boots, @a_side_ctx_cbs)
    a_side_ctx_cbs: str = '0'


def arch(name):
    path = os.path.join(CONFIG, 'arches', name + '.toml')
    if not os.path.exists(path):
        known = sorted(f[:-5] for f in os.listdir(os.path.join(CONFIG, 'arches')))
        raise SystemExit('unknown arch %r (config/arches/: %s)' % (name, ', '.join(known)))
    d = load_toml(os.path.join('arches', name + '.toml'))
    d = {k: tuple(v) if isinstance(v, list) else v for k, v in d.items()}
    return Arch(name=name, **d)


def merged(base, over):
    """`over` on top of `base`: tables merged key by key, the rest replaced."""
    out = copy.deepcopy(base)
    for k, v in over.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = merged(out[k], v)
        else:
            out[k] = copy.deepcopy(v)
    return out


def profiles():
    """config/profiles.toml and config/boots.toml (what a boot is made of)
    as one table, with every profile's `from` resolved."""
    data = load_toml('profiles.toml')
    for k, v in load_toml('boots.toml').items():
        if k in data:
            raise SystemExit('config/boots.toml and config/profiles.toml both have [%s]' % k)
        data[k] = v
    raw = data.get('profile', {})
    done = {}

    def resolve(name, seen=()):
        if name in done:
            return done[name]
        if name not in raw:
            raise SystemExit('unknown profile %r (config/profiles.toml: %s)'
                             % (name, ', '.join(sorted(raw))))
        if name in seen:
            raise SystemExit('profile %r: "from" loops' % name)
        p = dict(raw[name])
        parent = p.pop('from', None)
        if parent:
            p = merged(resolve(parent, seen + (name,)), p)
        p['name'] = name
        done[name] = p
        return p
    for n in raw:
        resolve(n)
    data['profile'] = done
    return data


def base_pin():
    """config/base.pin as a dict (package, version, tarball, sha256, upstream)."""
    return pin('base')


def pin(name):
    """config/NAME.pin as a dict: base (the series' base), mainline (make
    bench's third kernel)."""
    out = {}
    with open(os.path.join(CONFIG, name + '.pin')) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith('#') and '=' in line:
                k, v = line.split('=', 1)
                out[k] = v
    return out


# ---- where things go under build/ (docs/harness.md, "Layout")

def src(name='linux'):
    """build/src/linux (the series), build/src/mainline (config/mainline.pin,
    unpacked) or build/src/wt-NAME (a worktree)."""
    return os.path.join(BUILD, 'src', name if name in ('linux', 'mainline') else 'wt-' + name)


def kernel_out(arch_name, flavour, commit='series'):
    tag = flavour if commit == 'series' else '%s.%s' % (flavour, commit)
    return os.path.join(BUILD, arch_name, tag)


def tools_out(arch_name):
    return os.path.join(BUILD, arch_name, 'tools')


def initramfs(arch_name, payload, commit='series'):
    tag = payload if commit == 'series' else '%s.%s' % (payload, commit)
    return os.path.join(BUILD, arch_name, 'initramfs', tag + '.cpio.gz')


def logs(profile, arch_name, boot=None):
    p = os.path.join(BUILD, 'logs', profile, arch_name)
    return os.path.join(p, boot) if boot else p
