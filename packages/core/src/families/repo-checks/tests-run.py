# Runs a project's tests at one or more commits, as the repo_checks scorer's tests_* checks need them.
#
# Each commit's tree is written out of the object database (ls-tree and cat-file: no .gitattributes,
# filter, export-ignore or checkout hook of the model's can change a byte) into a fresh private
# directory. Files that steer the test runner rather than being tested (HARNESS: conftest.py, pytest
# and tox configuration, sitecustomize, .pth files, caches, a module shadowing pytest) are removed, and
# the fixture's pinned files are laid over the tree: a path maps to one file, a path ending in "/" to a
# directory replaced whole by a .tar.gz. An empty pytest.ini above the tree stops pytest's upward
# search for configuration and conftest files there, inside the private directory. The command then
# runs under `timeout` with a clean environment (a fixed PATH, a HOME and TMPDIR of its own, no
# PYTHON* variable but the pinned ones) in a process group of its own, killed whole afterwards.
#
# The scorer runs it after every process of the model's is gone, with the look-ups' environment (no
# configuration of the model's), as `python3 -I -S -c <text> <json>`. Its verdicts are the marker
# lines it prints last, one per commit; the command's own output comes before them, with any line that
# starts like a marker defused, so output of the code under test cannot pass for one.
#
# Only what follows the line below is sent (scripts/lib/python-modules.ts); after editing, run
# `npm run python:generate`.
# ---- sent from the next line on ----

import json, os, re, shutil, signal, stat, subprocess, sys, tarfile, tempfile

MARK = '@@gitbench-tests '
HARNESS_FILES = {'conftest.py', 'sitecustomize.py', 'usercustomize.py', 'pytest.ini', 'tox.ini', 'setup.cfg',
                 'pyproject.toml', 'pytest.py', 'py.py'}
HARNESS_DIRS = {'__pycache__', '.pytest_cache', '_pytest', 'pluggy', 'iniconfig'}


def git(*args, data=None):
    return subprocess.run(('git',) + args, input=data, stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)


def say(record):
    sys.stdout.write(MARK + json.dumps(record, sort_keys=True) + '\n')
    sys.stdout.flush()


def commits_of(spec):
    if spec['range'] is not None:
        listed = git('rev-list', '--reverse', '--end-of-options', spec['range'])
        if listed.returncode != 0:
            return None, 'the range %s cannot be listed: %s' % (
                spec['range'], listed.stderr.decode('utf-8', 'replace').strip())
        ids = listed.stdout.decode().split()
    else:
        found = git('rev-parse', '-q', '--verify', '--end-of-options', spec['rev'] + '^{commit}')
        if found.returncode != 0:
            return None, '%s does not name a commit' % spec['rev']
        ids = [found.stdout.decode().strip()]
    return [{'commit': c, 'subject': git('show', '-s', '--format=%s', c).stdout.decode('utf-8', 'replace').strip()}
            for c in ids], None


def inside(root, rel):
    path = os.path.normpath(os.path.join(root, rel))
    return path if path == root or path.startswith(root + os.sep) else None


def export_tree(commit, root):
    listed = git('ls-tree', '-r', '-z', '--full-tree', commit)
    if listed.returncode != 0:
        raise RuntimeError('the tree of %s cannot be listed' % commit)
    entries = []
    for item in listed.stdout.split(b'\0'):
        if not item:
            continue
        meta, name = item.split(b'\t', 1)
        mode, kind, oid = meta.split(b' ')
        entries.append((mode, kind, oid.decode(), os.fsdecode(name)))
    blobs = [e for e in entries if e[1] == b'blob']
    batch = git('cat-file', '--batch', data=b''.join(e[2].encode() + b'\n' for e in blobs))
    if batch.returncode != 0:
        raise RuntimeError('the blobs of %s cannot be read' % commit)
    out, at = batch.stdout, 0
    for mode, _kind, oid, name in blobs:
        end = out.index(b'\n', at)
        header = out[at:end].split(b' ')
        if header[0].decode() != oid or header[1] != b'blob':
            raise RuntimeError('object %s could not be read' % oid)
        size = int(header[2])
        body = out[end + 1:end + 1 + size]
        at = end + 1 + size + 1
        path = inside(root, name)
        if path is None:
            continue
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if mode == b'120000':
            # A link is kept only when it stays inside the tree: nothing outside it is the commit's.
            target = os.fsdecode(body)
            if not os.path.isabs(target) and inside(root, os.path.join(os.path.dirname(name), target)) is not None:
                os.symlink(target, path)
            continue
        with open(path, 'wb') as f:
            f.write(body)
        os.chmod(path, 0o755 if mode == b'100755' else 0o644)


def remove_harness(root):
    for d, dirs, files in os.walk(root):
        for n in list(dirs):
            if n in HARNESS_DIRS:
                shutil.rmtree(os.path.join(d, n))
                dirs.remove(n)
        for n in files:
            if n in HARNESS_FILES or n.endswith('.pth') or n.endswith('.pyc'):
                os.unlink(os.path.join(d, n))


def lay_overlay(root, overlay, stage):
    for rel, staged in overlay:
        source = os.path.join(stage, staged)
        if rel.endswith('/'):
            target = inside(root, rel.rstrip('/'))
            if os.path.lexists(target):
                shutil.rmtree(target) if os.path.isdir(target) and not os.path.islink(target) else os.unlink(target)
            os.makedirs(target)
            with tarfile.open(source, 'r:gz') as archive:
                for member in archive.getmembers():
                    if not (member.isfile() or member.isdir()) or inside(target, member.name) is None:
                        continue
                    archive.extract(member, target, set_attrs=False)
        else:
            target = inside(root, rel)
            if os.path.lexists(target) and (os.path.isdir(target) and not os.path.islink(target)):
                shutil.rmtree(target)
            elif os.path.lexists(target):
                os.unlink(target)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copyfile(source, target)


def clip(text, keep):
    text = text.decode('utf-8', 'replace').replace(MARK, '@@ gitbench-tests ')
    return text if len(text) <= keep else text[:keep // 3] + '\n[...]\n' + text[-(2 * keep) // 3:]


def counts(text):
    # pytest's summary, the last line that has one: "3 failed, 12 passed, 1 error in 0.52s".
    for line in reversed(text.decode('utf-8', 'replace').splitlines()):
        found = re.findall(r'\b(\d+) (passed|failed|errors?|skipped|xfailed|xpassed)\b', line)
        if found and re.search(r'\bin [0-9.]+s\b', line):
            tally = {}
            for n, what in found:
                tally['errors' if what.startswith('error') else what] = int(n)
            return tally
    return None


def run_at(commit, spec, stage, work):
    root = os.path.join(work, 'tree')
    home = os.path.join(work, 'home')
    tmp = os.path.join(work, 'tmp')
    for d in (root, home, tmp):
        os.mkdir(d, 0o700)
    with open(os.path.join(work, 'pytest.ini'), 'w') as f:
        f.write('')
    export_tree(commit, root)
    remove_harness(root)
    lay_overlay(root, spec['overlay'], stage)
    env = {'PATH': '/usr/bin:/bin', 'HOME': home, 'TMPDIR': tmp, 'LANG': 'C.UTF-8', 'LC_ALL': 'C.UTF-8', 'TZ': 'UTC',
           'PYTHONDONTWRITEBYTECODE': '1', 'PYTHONNOUSERSITE': '1', 'PYTHONHASHSEED': '0', 'GIT_CONFIG_NOSYSTEM': '1',
           'GIT_CONFIG_GLOBAL': '/dev/null'}
    if spec['pythonpath']:
        env['PYTHONPATH'] = os.pathsep.join(os.path.join(root, p) for p in spec['pythonpath'])
    proc = subprocess.Popen(['/bin/bash', '-c', spec['command']], cwd=root, env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    timed_out = False
    try:
        output, _ = proc.communicate(timeout=spec['timeout'])
    except subprocess.TimeoutExpired:
        timed_out = True
        os.killpg(proc.pid, signal.SIGKILL)
        output, _ = proc.communicate()
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    return proc.returncode, timed_out, output


def main():
    spec = json.loads(sys.argv[1])
    stage = sys.argv[2]
    commits, problem = commits_of(spec)
    if commits is None:
        say({'error': problem})
        return
    if len(commits) > spec['max_commits']:
        say({'error': '%d commits to test; at most %d are' % (len(commits), spec['max_commits'])})
        return
    say({'commits': commits})
    for commit in (c['commit'] for c in commits):
        work = tempfile.mkdtemp(prefix='gitbench-tests.')
        try:
            code, timed_out, output = run_at(commit, spec, stage, work)
            sys.stdout.write(clip(output, spec['keep']) + '\n')
            say({'commit': commit, 'exit': code, 'timed_out': timed_out, 'counts': counts(output)})
        except Exception as error:  # noqa: BLE001 - a tree that cannot be laid out is that commit's verdict
            say({'commit': commit, 'error': str(error)})
        finally:
            for d, dirs, _files in os.walk(work):
                for n in dirs:
                    p = os.path.join(d, n)
                    if not os.path.islink(p):
                        os.chmod(p, stat.S_IRWXU)
            shutil.rmtree(work, ignore_errors=True)


main()
