# The program a gist task's scorer runs in the sandbox after the agent stopped (Python 3 standard
# library plus pytest from the image). It reaches the sandbox inside the probe's command
# (`python3 -I -c <text>`), so it comes from the harness, never from the repository the agent worked in.
# It records facts, and core decides from them (families/gist/lines.ts):
# - runs the command on a pristine copy of the original (unpacked from the fixture's definition) and
#   on the gist, each under pytest with a recorder plugin: per test and phase its outcome, error
#   message and captured output, modules loaded from the original code, and (for the gist) every
#   line executed, traced with sys.settrace;
# - puts the original versions of the command's tests into the gist before running it, so the gist is
#   judged on the original tests (Gistify's protocol); a gist without them is not run;
# - splits the gist into units of code (one statement, a compound statement's header, a decorator),
#   each with its block (the enclosing class/function path), its kind for the execution rate
#   (code, potentially executable, not executable) and its normalised text (AST-unparsed, so
#   formatting, comments and multi-line layout do not matter; combined imports split);
# - for each of the gist's blocks, the original blocks with the same path and which of the gist's
#   texts each holds, and which top-level texts the original has.
# Prints one JSON object.
#
# Only what follows the line below is sent (scripts/lib/python-modules.ts); after editing, run
# `npm run python:generate`.
# ---- sent from the next line on ----

import ast, io, json, os, shutil, subprocess, sys, tarfile, tempfile, tokenize

# argv: the task (JSON: gist, options, test_file, nodes, pythonpath, timeout), the staging directory
# holding original.tar.gz. The repository the agent worked in is the current directory.
task = json.loads(sys.argv[1])
stage = sys.argv[2]
repo = os.getcwd()
scratch = tempfile.mkdtemp(prefix='gitbench-gist-')
PLUGIN = 'gitbench_gist_recorder'
LIMIT_TEXT = 200000

RECORDER = r'''
import json, os, sys, threading
import pytest

_target = os.environ.get('GITBENCH_GIST_TRACE')
_lines = set()
_reports = []
_collect = []
if _target:
    _known = {}
    def _local(frame, event, arg):
        if event == 'line':
            _lines.add(frame.f_lineno)
        return _local
    def _global(frame, event, arg):
        name = frame.f_code.co_filename
        hit = _known.get(name)
        if hit is None:
            hit = _known[name] = os.path.realpath(name) == _target
        return _local if hit else None
    sys.settrace(_global)
    threading.settrace(_global)

def _phase_text(report, stream):
    return ''.join(c for title, c in report.sections if title == 'Captured %s %s' % (stream, report.when))

@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    # The exception's type, which a failed assert's message does not name.
    made = yield
    if call.excinfo is not None:
        made.get_result().gitbench_exception = call.excinfo.typename

def _traceback_tail(report):
    text = str(report.longrepr).rstrip('\n').split('\n')
    return '\n'.join(text[-12:])[-2000:]

def pytest_runtest_logreport(report):
    name = report.nodeid.split('::', 1)[1] if '::' in report.nodeid else report.nodeid
    entry = {'test': name, 'when': report.when, 'outcome': report.outcome,
             'stdout': _phase_text(report, 'stdout'), 'stderr': _phase_text(report, 'stderr')}
    if report.failed or report.skipped:
        crash = getattr(report.longrepr, 'reprcrash', None)
        if crash is not None:
            entry['error'] = crash.message
        elif isinstance(report.longrepr, tuple):
            entry['error'] = str(report.longrepr[2])
        else:
            entry['error'] = (str(report.longrepr).strip().splitlines()[-1:]
                              and str(report.longrepr).strip().splitlines()[-1] or '')
    if report.failed:
        # Not compared (it holds line numbers and paths of each side); it explains a gist that failed.
        entry['exception'] = getattr(report, 'gitbench_exception', None) or ''
        entry['traceback'] = _traceback_tail(report)
    if hasattr(report, 'wasxfail'):
        entry['xfail'] = str(report.wasxfail)
    _reports.append(entry)

def pytest_collectreport(report):
    if report.failed:
        _collect.append(str(report.longrepr)[-3000:])

def pytest_sessionfinish(session, exitstatus):
    sys.settrace(None)
    threading.settrace(None)
    # Modules loaded from the repository itself: a gist must inline what it uses, not import it.
    forbidden = [p + os.sep for p in os.environ.get('GITBENCH_GIST_FORBIDDEN', '').split(os.pathsep) if p]
    borrowed = sorted(name for name, m in list(sys.modules.items())
                      if any(os.path.realpath(getattr(m, '__file__', None) or '/').startswith(p) for p in forbidden))
    with open(os.environ['GITBENCH_GIST_RECORD'], 'w') as f:
        json.dump({'exit': int(exitstatus), 'collected': session.testscollected, 'reports': _reports,
                   'collectErrors': _collect, 'lines': sorted(_lines), 'borrowed': borrowed}, f)
'''


def done(evidence):
    shutil.rmtree(scratch, ignore_errors=True)
    print(json.dumps(evidence, sort_keys=True))
    sys.exit(0)


# ---- the gist's lines: units of code, their block, their normalised text, their kind -------------

def unparse_first(node):
    return ast.unparse(node).split('\n', 1)[0]


def header_text(node, source_line):
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        copy = type(node)(**{f: getattr(node, f) for f in node._fields})
        copy.decorator_list = []
        copy.body = [ast.Pass()]
        return unparse_first(ast.fix_missing_locations(copy))
    if isinstance(node, ast.If):
        word = 'elif' if source_line.lstrip().startswith('elif') else 'if'
        return '%s %s:' % (word, ast.unparse(node.test))
    if isinstance(node, (ast.For, ast.AsyncFor)):
        prefix = 'async for' if isinstance(node, ast.AsyncFor) else 'for'
        return '%s %s in %s:' % (prefix, ast.unparse(node.target), ast.unparse(node.iter))
    if isinstance(node, ast.While):
        return 'while %s:' % ast.unparse(node.test)
    if isinstance(node, (ast.With, ast.AsyncWith)):
        prefix = 'async with' if isinstance(node, ast.AsyncWith) else 'with'
        return '%s %s:' % (prefix, ', '.join(ast.unparse(i) for i in node.items))
    if isinstance(node, ast.ExceptHandler):
        text = 'except'
        if node.type is not None:
            text += ' ' + ast.unparse(node.type)
        if node.name:
            text += ' as ' + node.name
        return text + ':'
    if isinstance(node, ast.Match):
        return 'match %s:' % ast.unparse(node.subject)
    if isinstance(node, ast.match_case):
        text = 'case ' + ast.unparse(node.pattern)
        if node.guard is not None:
            text += ' if ' + ast.unparse(node.guard)
        return text + ':'
    return 'try:'


def import_texts(node):
    if isinstance(node, ast.Import):
        return ['import ' + ast.unparse(a) for a in node.names]
    module = '.' * node.level + (node.module or '')
    return ['from %s import %s' % (module, ast.unparse(a)) for a in node.names]


def units_of(source):
    tree = ast.parse(source)
    lines = source.split('\n')
    toks = list(tokenize.generate_tokens(io.StringIO(source).readline))
    starts = {}
    for i, t in enumerate(toks):
        starts.setdefault(t.start[0], i)
    out = []

    # A compound statement's header ends at the first ':' at bracket depth 0 after its start (a
    # lambda in a header only occurs inside brackets).
    def colon_line(node):
        i = starts.get(node.lineno, 0)
        depth = 0
        while i < len(toks):
            t = toks[i]
            if t.type == tokenize.OP:
                if t.string in '([{':
                    depth += 1
                elif t.string in ')]}':
                    depth -= 1
                elif t.string == ':' and depth == 0 and t.start >= (node.lineno, node.col_offset):
                    return t.start[0]
            i += 1
        return node.lineno

    def add(start, end, block, kind, texts):
        out.append({'lines': [start, end], 'block': block, 'kind': kind, 'texts': texts})

    def body(stmts, block, potential):
        for s in stmts:
            stmt(s, block, potential)

    def stmt(node, block, potential):
        kind = 'potential' if potential else 'code'
        line = lines[node.lineno - 1] if node.lineno - 1 < len(lines) else ''
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            path = block + '.' + node.name if block else node.name
            for d in node.decorator_list:
                add(d.lineno, d.end_lineno, path, kind, ['@' + ast.unparse(d)])
            add(node.lineno, colon_line(node), path, kind, [header_text(node, line)])
            body(node.body, path, potential)
        elif isinstance(node, ast.If):
            add(node.lineno, colon_line(node), block, kind, [header_text(node, line)])
            body(node.body, block, potential)
            if (len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If)
                    and lines[node.orelse[0].lineno - 1].lstrip().startswith('elif')):
                stmt(node.orelse[0], block, potential)
            else:
                body(node.orelse, block, potential)
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
            add(node.lineno, colon_line(node), block, kind, [header_text(node, line)])
            body(node.body, block, potential)
            body(node.orelse, block, potential)
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            add(node.lineno, colon_line(node), block, kind, [header_text(node, line)])
            body(node.body, block, potential)
        elif isinstance(node, (ast.Try, getattr(ast, 'TryStar', ast.Try))):
            add(node.lineno, node.lineno, block, kind, ['try:'])
            body(node.body, block, potential)
            for h in node.handlers:
                add(h.lineno, colon_line(h), block, 'potential', [header_text(h, lines[h.lineno - 1])])
                body(h.body, block, True)
            body(node.orelse, block, potential)
            body(node.finalbody, block, potential)
        elif isinstance(node, ast.Match):
            add(node.lineno, colon_line(node), block, kind, [header_text(node, line)])
            for case in node.cases:
                first = case.pattern
                add(first.lineno, colon_line(first), block, kind, [header_text(case, '')])
                body(case.body, block, potential)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            add(node.lineno, node.end_lineno, block, kind, import_texts(node))
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            add(node.lineno, node.end_lineno, block, 'nonexec', [ast.unparse(node)])
        elif isinstance(node, ast.Pass) or (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
                                            and node.value.value is Ellipsis):
            add(node.lineno, node.end_lineno, block, 'potential', [ast.unparse(node)])
        elif isinstance(node, (ast.Global, ast.Nonlocal)) or (isinstance(node, ast.AnnAssign) and node.value is None
                                                              and block and not block_is_class(block)):
            add(node.lineno, node.end_lineno, block, 'nonexec', [ast.unparse(node)])
        else:
            add(node.lineno, node.end_lineno, block, kind, [ast.unparse(node)])

    classes = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.ClassDef):
            classes.add(n.name)

    def block_is_class(block):
        return block.rsplit('.', 1)[-1] in classes

    body(tree.body, '', False)
    return tree, out


# ---- running a test command under pytest with the recorder -----------------------------------------

def own_config(cwd):
    # pytest's configuration file of the directory it runs in, as pytest would pick it there, else
    # none at all: left to itself, pytest looks in every directory above, and the agent can write
    # pytest.ini or conftest.py into the temporary directory above this one (addopts, a hook that
    # turns every report into a pass).
    for name, section in (('pytest.ini', None), ('.pytest.ini', None), ('pyproject.toml', '[tool.pytest.ini_options]'),
                          ('tox.ini', '[pytest]'), ('setup.cfg', '[tool:pytest]')):
        path = os.path.join(cwd, name)
        if os.path.isfile(path):
            if section is None:
                return path
            with open(path, encoding='utf-8', errors='replace') as f:
                if section in f.read():
                    return path
    return os.devnull


def run_pytest(cwd, target_nodes, pythonpath, trace_path):
    record = os.path.join(scratch, 'record-%d.json' % len(os.listdir(scratch)))
    env = {'PATH': '/usr/local/bin:/usr/bin:/bin', 'HOME': os.environ.get('HOME', '/tmp'),
           'LANG': 'C.UTF-8', 'LC_ALL': 'C.UTF-8', 'TZ': 'UTC', 'PYTHONHASHSEED': '0', 'PYTHONDONTWRITEBYTECODE': '1',
           'PYTHONPATH': os.pathsep.join([plugins] + pythonpath), 'GITBENCH_GIST_RECORD': record}
    if trace_path:
        env['GITBENCH_GIST_TRACE'] = os.path.realpath(trace_path)
        env['GITBENCH_GIST_FORBIDDEN'] = os.pathsep.join(
            os.path.realpath(p) for p in (repo, os.path.join(scratch, 'original')))
    # Configuration and conftest.py files from this directory down only.
    argv = (['/usr/bin/python3', '-m', 'pytest', '-c', own_config(cwd), '--rootdir', cwd, '--confcutdir', cwd,
             '-p', PLUGIN, '-p', 'no:cacheprovider'] + task['options'] + target_nodes)
    try:
        proc = subprocess.run(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, capture_output=True,
                              timeout=task['timeout'])
    except subprocess.TimeoutExpired:
        return {'ran': False, 'why': 'timed out after %ds' % task['timeout']}
    tail = (proc.stdout + proc.stderr).decode('utf-8', 'replace')[-4000:]
    try:
        with open(record) as f:
            data = json.load(f)
    except (OSError, ValueError):
        return {'ran': False, 'why': 'pytest exited %d before reporting' % proc.returncode, 'output': tail}
    data['ran'] = True
    data['output'] = tail
    return data


def normalise(record, root):
    record['collectErrors'] = [c.replace(root, '{root}') for c in record.get('collectErrors', [])]
    for r in record.get('reports', []):
        for k in ('stdout', 'stderr', 'error', 'traceback'):
            if k in r:
                r[k] = r[k].replace(root, '{root}')
    return record


def last_lines(text, n=12):
    return '\n'.join(text.rstrip('\n').split('\n')[-n:])[-2000:]


def raised(text):
    # The exception pytest reports last in a traceback (its `E   Name: message` line), or ''.
    for line in reversed(text.split('\n')):
        head = line[1:].strip() if line.startswith('E ') else ''
        name = head.split(':', 1)[0]
        if name and name.replace('.', '').replace('_', '').isalnum() and name[0].isupper():
            return name
    return ''


def failure_note(report):
    # What a failed test of the gist raised, and the end of its traceback, for the fidelity detail.
    if report.get('outcome') != 'failed':
        return ''
    name = report.get('exception') or raised(report.get('traceback', '')) or 'an exception'
    return '\nOn the gist it raised %s; the end of its traceback:\n%s' % (
        name, report.get('traceback') or report.get('error', ''))


def compare(original, gist):
    if not gist.get('ran'):
        tail = gist.get('output', '')
        return False, 'the gist did not run: ' + gist.get('why', '') + (
            '; the end of its output:\n' + last_lines(tail) if tail.strip() else '')
    if gist.get('borrowed'):
        return False, 'the gist imports the original code instead of inlining it: ' + ', '.join(gist['borrowed'][:5])
    if gist.get('collectErrors'):
        text = gist['collectErrors'][0]
        return False, 'the gist could not be collected: importing it raised %s; the end of its traceback:\n%s' % (
            raised(text) or 'an exception', last_lines(text))
    if not gist.get('reports'):
        return False, 'no test ran against the gist'
    key = lambda r: (r['test'], r['when'])
    a = sorted(original['reports'], key=key)
    b = sorted(gist['reports'], key=key)
    if [key(r) for r in a] != [key(r) for r in b]:
        return False, 'different tests ran: %s on the original, %s on the gist' % (
            sorted({r['test'] for r in a}), sorted({r['test'] for r in b}))
    for x, y in zip(a, b):
        for field in ('outcome', 'error', 'stdout', 'stderr', 'xfail'):
            if x.get(field) != y.get(field):
                return False, '%s (%s): %s differs: %r on the original, %r on the gist%s' % (
                    x['test'], x['when'], field, str(x.get(field))[:200], str(y.get(field))[:200], failure_note(y))
    if gist['exit'] != original['exit']:
        return False, 'pytest exited %d on the gist, %d on the original; the end of its output:\n%s' % (
            gist['exit'], original['exit'], last_lines(gist.get('output', '')))
    return True, 'same outcome and output as the original for %d test(s)' % len({r['test'] for r in a})


# ---- finding the command's tests in a file -----------------------------------------------------------

def find_def(tree, parts):
    scope = tree.body
    node = None
    for part in parts:
        node = next((n for n in scope
                     if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n.name == part), None)
        if node is None:
            return None
        scope = node.body
    return node


def span(node):
    first = min([node.lineno] + [d.lineno for d in node.decorator_list])
    return first, node.end_lineno


def main():
    global plugins
    plugins = os.path.join(scratch, 'plugins')
    os.mkdir(plugins)
    with open(os.path.join(plugins, PLUGIN + '.py'), 'w') as f:
        f.write(RECORDER)
    original_root = os.path.join(scratch, 'original')
    os.mkdir(original_root)
    with tarfile.open(os.path.join(stage, 'original.tar.gz')) as tar:
        tar.extractall(original_root)
    evidence = {'version': 1, 'gist': {'path': task['gist'], 'exists': False}}
    nodes = task['nodes']
    original = normalise(run_pytest(original_root, ['%s::%s' % (task['test_file'], n) for n in nodes],
                                    [os.path.join(original_root, p) for p in task['pythonpath']], None), original_root)
    original.pop('lines', None)
    evidence['original'] = original
    if not original.get('ran') or original.get('collectErrors') or not original.get('reports'):
        evidence['originalProblem'] = 'the command does not run on the original repository'
        done(evidence)

    gist_path = os.path.join(repo, task['gist'])
    if not os.path.isfile(gist_path):
        done(evidence)
    with open(gist_path, 'rb') as f:
        raw = f.read()
    text = raw.decode('utf-8', 'replace')
    gist = evidence['gist']
    gist.update({'exists': True, 'bytes': len(raw), 'text': text[:LIMIT_TEXT], 'textTruncated': len(text) > LIMIT_TEXT})
    try:
        gist_tree, gist_units = units_of(text)
    except (SyntaxError, ValueError, tokenize.TokenError) as e:
        gist['syntaxError'] = '%s (line %s)' % (getattr(e, 'msg', str(e)), getattr(e, 'lineno', '?'))
        done(evidence)
    gist['units'] = gist_units

    # The original's blocks, for the existence of each gist line (Gistify's block-wise matching).
    wanted = {}
    for u in gist_units:
        wanted.setdefault(u['block'], set()).update(u['texts'])
    candidates, top_found = {}, set()
    for root, dirs, files in os.walk(original_root):
        dirs.sort()
        for name in sorted(files):
            if not name.endswith('.py'):
                continue
            path = os.path.join(root, name)
            try:
                with open(path, encoding='utf-8') as f:
                    _, units = units_of(f.read())
            except (SyntaxError, ValueError, UnicodeDecodeError, tokenize.TokenError):
                continue
            rel = os.path.relpath(path, original_root)
            per_block = {}
            for u in units:
                per_block.setdefault(u['block'], set()).update(u['texts'])
            for block, texts in per_block.items():
                if block not in wanted:
                    continue
                if block == '':
                    top_found |= wanted[''] & texts
                else:
                    candidates.setdefault(block, []).append({'file': rel, 'found': sorted(wanted[block] & texts)})
    evidence['candidates'] = candidates
    evidence['topLevelFound'] = sorted(top_found)

    # The command's tests: from the original test file, put into the gist in place of its own
    # versions, so the gist is judged on the original tests (Gistify's protocol).
    with open(os.path.join(original_root, task['test_file']), encoding='utf-8') as f:
        original_test_source = f.read()
    original_tree = ast.parse(original_test_source)
    original_lines = original_test_source.split('\n')
    run_lines = text.split('\n')
    found, missing, replaced = [], [], []
    edits = []
    for node_id in nodes:
        parts = [p.split('[', 1)[0] for p in node_id.split('::')]
        mine, theirs = find_def(gist_tree, parts), find_def(original_tree, parts)
        if mine is None or theirs is None:
            missing.append(node_id)
            continue
        found.append(node_id)
        if ast.dump(mine) == ast.dump(theirs):
            continue
        a, b = span(theirs)
        block = original_lines[a - 1:b]
        indent = ' ' * mine.col_offset
        cut = len(block[0]) - len(block[0].lstrip())
        block = [(indent + line[cut:]) if line.strip() else '' for line in block]
        s, e = span(mine)
        edits.append((s, e, block, '::'.join(parts)))
    gist['testsFound'] = found
    gist['testsMissing'] = missing
    if missing:
        done(evidence)
    line_map = list(range(1, len(run_lines) + 1))
    for s, e, block, name in sorted(edits, reverse=True):
        run_lines[s - 1:e] = block
        replaced.append({'test': name, 'lines': [s, e]})
    if edits:
        line_map = []
        spans = sorted((s, e, len(block)) for s, e, block, _ in edits)
        for n in range(1, len(text.split('\n')) + 1):
            inside = next((sp for sp in spans if sp[0] <= n <= sp[1]), None)
            if inside:
                line_map.append(None)
                continue
            shift = sum(length - (e - s + 1) for s, e, length in spans if e < n)
            line_map.append(n + shift)
    gist['replaced'] = replaced
    gist['lineMap'] = line_map
    run_text = '\n'.join(run_lines)

    run_dir = os.path.join(scratch, 'run')
    os.mkdir(run_dir)
    run_file = os.path.join(run_dir, os.path.basename(task['gist']))
    with open(run_file, 'w', encoding='utf-8') as f:
        f.write(run_text)
    run = normalise(run_pytest(run_dir, ['%s::%s' % (os.path.basename(task['gist']), n) for n in nodes], [], run_file),
                    run_dir)
    executed = run.pop('lines', [])
    evidence['run'] = run
    ok, detail = compare(original, run)
    evidence['fidelity'] = {'ok': ok, 'detail': detail}
    if run.get('ran') and not run.get('collectErrors') and run.get('reports'):
        _, run_units = units_of(run_text)
        evidence['execution'] = {'units': run_units if edits else None, 'executed': executed}
    done(evidence)


try:
    main()
except SystemExit:
    raise
except BaseException:
    import traceback
    shutil.rmtree(scratch, ignore_errors=True)
    print(json.dumps({'version': 1, 'evaluatorError': traceback.format_exc()[-3000:]}))
    sys.exit(0)
