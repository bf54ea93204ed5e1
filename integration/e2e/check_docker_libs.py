#!/usr/bin/env python3
"""Check that the Dockerfile's runtime stage provides every shared library a release
binary needs.

    python3 integration/e2e/check_docker_libs.py .build/release/layoutd [--dockerfile Dockerfile]

Runs `ldd BINARY`, maps each library to its Debian package with `dpkg -S` (on this Debian
bookworm machine, the same release as the image), and parses the packages that the last
stage of the Dockerfile installs with `apt-get install`. A library passes when its package
is installed by that stage, directly or as one of their dependencies (Depends and
Pre-Depends, recursively, the first of alternatives, as this machine's installed versions
declare them: what apt installs with them), or is one of the base packages of
debian:bookworm-slim (libc6, libgcc-s1, libstdc++6; more with --base). When the
Dockerfile builds with `--static-swift-stdlib`, no Swift runtime library (libswift*, Foundation, Dispatch,
BlocksRuntime, ICU) may appear at all.

Crash reports: the runtime stage must COPY the toolchain's statically linked backtracer
(`swift-backtrace-static`, from usr/libexec/swift/linux of the build image) and set
`SWIFT_BACKTRACE` with `enable=yes` and `swift-backtrace=` naming the copied file's path
(a binary with a static Swift runtime cannot find a backtracer on its own; swift
docs/Backtracing.rst). The backtracer of this machine's toolchain (--backtracer; found next
to `swift` by default) must exist and its own libraries pass the same package check.

Prints one PASS/FAIL line per check and a final "N passed, M failed"; exits 1 on any
failure, 2 on bad usage. Standard library only.
"""
import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))

# Packages every debian:bookworm-slim image has (apt itself depends on them).
BASE_PACKAGES = {'libc6', 'libgcc-s1', 'libstdc++6'}

# Libraries of the Swift toolchain's runtime (usr/lib/swift/linux).
SWIFT_RUNTIME = re.compile(
    r'^lib(swift[A-Za-z_]*|Foundation[A-Za-z]*|_Foundation[A-Za-z]*|CoreFoundation|'
    r'dispatch|BlocksRuntime|icu[a-z]*swift|_CF[A-Za-z]*)\.so')


def dockerfile_stages(text):
    """[(base image, [instruction lines])] with continuation lines joined, comments dropped."""
    logical = []
    current = ''
    for raw in text.splitlines():
        line = raw.strip()
        if not current and (not line or line.startswith('#')):
            continue
        if line.startswith('#'):      # a comment inside a continued instruction
            continue
        if line.endswith('\\'):
            current += line[:-1] + ' '
            continue
        current += line
        logical.append(current.strip())
        current = ''
    if current.strip():
        logical.append(current.strip())
    stages = []
    for instr in logical:
        word = instr.split(None, 1)[0].upper()
        if word == 'FROM':
            stages.append((instr.split()[1], []))
        elif stages:
            stages[-1][1].append(instr)
    return stages


def apt_packages(instructions):
    """Package names that the RUN instructions install with apt-get/apt install."""
    packages = set()
    for instr in instructions:
        if not instr.upper().startswith('RUN '):
            continue
        for command in re.split(r'&&|;|\|\|', instr[4:]):
            try:
                words = shlex.split(command)
            except ValueError:
                words = command.split()
            if len(words) < 2 or words[0] not in ('apt-get', 'apt'):
                continue
            if 'install' not in words:
                continue
            after = words[words.index('install') + 1:]
            for w in after:
                if w.startswith('-'):
                    continue
                packages.add(re.split(r'[=:]', w, 1)[0])   # name=version, name:arch
    return packages


def runtime_copies(instructions):
    """[(source, destination)] of the stage's COPY instructions (flags such as --from
    dropped); a destination ending in / gets the source's file name appended."""
    copies = []
    for instr in instructions:
        if not instr.upper().startswith('COPY '):
            continue
        words = [w for w in shlex.split(instr[5:]) if not w.startswith('--')]
        if len(words) < 2:
            continue
        destination = words[-1]
        for source in words[:-1]:
            target = destination
            if target.endswith('/'):
                target += os.path.basename(source.rstrip('/'))
            copies.append((source, target))
    return copies


def environment(instructions):
    """{name: value} set by the stage's ENV instructions (`ENV a=b c=d`, or `ENV a b`)."""
    values = {}
    for instr in instructions:
        if not instr.upper().startswith('ENV '):
            continue
        words = shlex.split(instr[4:])
        if words and '=' not in words[0]:
            values[words[0]] = ' '.join(words[1:])
            continue
        for word in words:
            name, _, value = word.partition('=')
            values[name] = value
    return values


def toolchain_backtracer():
    """This machine's swift-backtrace-static: next to the `swift` on PATH, or under /opt/swift."""
    candidates = []
    swift = shutil.which('swift')
    if swift:
        usr = os.path.dirname(os.path.dirname(os.path.realpath(swift)))
        candidates.append(os.path.join(usr, 'libexec', 'swift', 'linux', 'swift-backtrace-static'))
    candidates.append('/opt/swift/usr/libexec/swift/linux/swift-backtrace-static')
    for c in candidates:
        if os.path.isfile(c):
            return c
    return candidates[0]


def with_dependencies(packages):
    """`packages` and every package they depend on, recursively (Depends and Pre-Depends of
    the installed versions, per `dpkg-query`; of `a | b` only `a`, the one apt prefers).
    A name dpkg does not know (a virtual package) adds nothing."""
    closure = set()
    pending = sorted(packages)
    while pending:
        pkg = pending.pop()
        if pkg in closure:
            continue
        closure.add(pkg)
        p = subprocess.run(['dpkg-query', '-W', '-f=${Depends}, ${Pre-Depends}', pkg],
                           capture_output=True, text=True)
        if p.returncode != 0:
            continue
        for clause in p.stdout.split(','):
            first = clause.split('|', 1)[0].strip()
            name = first.split(' ', 1)[0].split(':', 1)[0]
            if name and name not in closure:
                pending.append(name)
    return closure


def ldd(binary):
    """[(soname, path or None)] of the binary's shared libraries (vdso left out)."""
    p = subprocess.run(['ldd', binary], capture_output=True, text=True)
    out = p.stdout + p.stderr
    if p.returncode != 0:
        if 'not a dynamic executable' in out:
            return []
        raise SystemExit('ldd %s failed: %s' % (binary, out.strip()))
    libs = []
    for line in out.splitlines():
        line = line.strip()
        if not line or 'vdso' in line:
            continue
        if '=>' in line:
            name, _, rest = line.partition('=>')
            rest = rest.strip()
            if rest.startswith('not found'):
                libs.append((name.strip(), None))
            else:
                libs.append((name.strip(), rest.split(' (')[0].strip()))
        else:   # the dynamic loader: /lib64/ld-linux-x86-64.so.2 (0x...)
            path = line.split(' (')[0].strip()
            libs.append((os.path.basename(path), path))
    return libs


def debian_package(path):
    """The package that owns `path`, trying the usrmerge spellings and the resolved path."""
    candidates = [path]
    for p in (path, os.path.realpath(path)):
        candidates.append(p)
        if p.startswith('/usr/'):
            candidates.append(p[4:])
        else:
            candidates.append('/usr' + p)
    seen = set()
    for c in candidates:
        if c in seen:
            continue
        seen.add(c)
        p = subprocess.run(['dpkg', '-S', c], capture_output=True, text=True)
        if p.returncode == 0 and p.stdout.strip():
            first = p.stdout.strip().splitlines()[0]
            owner = first.split(': ', 1)[0]
            return owner.split(',')[0].strip().split(':')[0]
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('binary', nargs='?', help='a release binary (default .build/release/layoutd)')
    ap.add_argument('--binary', dest='binary_opt', help='same as the positional argument')
    ap.add_argument('--dockerfile', default=os.path.join(REPO, 'Dockerfile'))
    ap.add_argument('--base', action='append', default=[], metavar='PACKAGE',
                    help='another package to count as present in the base image')
    ap.add_argument('--backtracer', default=None, metavar='PATH',
                    help="this machine's swift-backtrace-static (default: next to swift)")
    a = ap.parse_args()
    binary = a.binary_opt or a.binary or os.path.join(REPO, '.build', 'release', 'layoutd')
    if not os.path.isfile(binary):
        print('no binary at %s (build it: swift build -c release --product layoutd '
              '--static-swift-stdlib)' % binary, file=sys.stderr)
        return 2
    try:
        with open(a.dockerfile, encoding='utf-8') as fh:
            text = fh.read()
    except OSError as e:
        print('cannot read %s: %s' % (a.dockerfile, e), file=sys.stderr)
        return 2
    stages = dockerfile_stages(text)
    if not stages:
        print('no FROM in %s' % a.dockerfile, file=sys.stderr)
        return 2
    runtime_base, runtime = stages[-1]
    named = apt_packages(runtime)
    installed = with_dependencies(named)
    base = BASE_PACKAGES | set(a.base)
    static = '--static-swift-stdlib' in text
    print('# runtime stage FROM %s installs: %s; static Swift stdlib: %s'
          % (runtime_base, ', '.join(sorted(named)) or '(nothing)', 'yes' if static else 'no'))

    passed = failed = 0

    def report(ok, message):
        nonlocal passed, failed
        if ok:
            passed += 1
            print('PASS ' + message)
        else:
            failed += 1
            print('FAIL ' + message)

    report(runtime_base.startswith('debian:bookworm'),
           'runtime stage is Debian bookworm (%s), the release these packages were looked up in'
           % runtime_base)
    def check_libraries(executable, label, swift_static):
        for soname, path in ldd(executable):
            if path is None:
                report(False, '%s%s: not found on this machine either' % (label, soname))
                continue
            if SWIFT_RUNTIME.match(soname):
                if swift_static:
                    report(False, '%s%s (%s): a Swift runtime library, but the image is built with '
                                  '--static-swift-stdlib; was this binary?' % (label, soname, path))
                else:
                    copied = any(i.upper().startswith('COPY') and ('swift/linux' in i or soname in i)
                                 for i in runtime)
                    report(copied, '%s%s: Swift runtime library %s by the runtime stage'
                           % (label, soname, 'copied' if copied else 'NOT copied'))
                continue
            pkg = debian_package(path)
            if pkg is None:
                report(False, '%s%s (%s): no Debian package owns it' % (label, soname, path))
            elif pkg in installed:
                report(True, '%s%s <- %s (installed by the runtime stage)' % (label, soname, pkg))
            elif pkg in base:
                report(True, '%s%s <- %s (in debian:bookworm-slim)' % (label, soname, pkg))
            else:
                report(False, '%s%s <- %s: not installed by the runtime stage' % (label, soname, pkg))

    check_libraries(binary, '', static)

    # Crash reports: the runtime stage copies the static backtracer and arms it in SWIFT_BACKTRACE.
    copies = [(src, dst) for src, dst in runtime_copies(runtime)
              if os.path.basename(src.rstrip('/')) == 'swift-backtrace-static']
    report(len(copies) == 1 and copies[0][0].startswith('/usr/libexec/swift/linux/'),
           'the runtime stage copies the toolchain\'s swift-backtrace-static (%s)'
           % (', '.join('%s -> %s' % c for c in copies) or 'no COPY of it'))
    settings = dict(item.partition('=')[::2] for item in
                    environment(runtime).get('SWIFT_BACKTRACE', '').split(',') if item)
    report(settings.get('enable') == 'yes',
           'SWIFT_BACKTRACE has enable=yes (%r)' % environment(runtime).get('SWIFT_BACKTRACE'))
    report(settings.get('interactive') == 'no',
           'SWIFT_BACKTRACE has interactive=no (a container has no terminal to wait on)')
    destination = copies[0][1] if copies else None
    report(destination is not None and settings.get('swift-backtrace') == destination,
           'SWIFT_BACKTRACE names the copied backtracer: swift-backtrace=%r, copied to %r'
           % (settings.get('swift-backtrace'), destination))
    backtracer = a.backtracer or toolchain_backtracer()
    if os.path.isfile(backtracer):
        report(True, 'the toolchain has %s' % backtracer)
        check_libraries(backtracer, 'swift-backtrace: ', True)
    else:
        report(False, 'no swift-backtrace-static at %s (give --backtracer)' % backtracer)
    print('%d passed, %d failed' % (passed, failed))
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == '__main__':
    sys.exit(main())
