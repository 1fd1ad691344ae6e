# Loads a repository task's grader and calls its `grade(ctx)`, which returns
# `{"Process": bool, "Result": bool, "comments": str, "quality": 0|0.25|0.5|0.75|1}`. The context:
# `repo`, `outputs` (declared path -> absolute path), `truth` (name -> absolute path), `params`,
# `grader`, and `work`, a private scratch directory.
#
# Missing or empty outputs are decided here, before the grader runs (GitTaskBench's first two
# execution-completion conditions); a grader that raises is reported as a crash, Process and Result
# false. A verdict whose Result is true while Process is false is not consistent and is refused.
#
# The scorer runs it in the sandbox after the agent stopped, inside its probe's command
# (`python3 -I -c <text>`: no user site, no PYTHON* variables, no current directory on the path), so it
# comes from the harness and never from a place the agent could have changed. Standard library only.
#
# Only what follows the line below is sent (scripts/lib/python-modules.ts); after editing, run
# `npm run python:generate`.
# ---- sent from the next line on ----

import importlib.util, json, os, shutil, sys, tempfile, traceback

# argv: the task's part of the context (outputs, truth names, params), the verdict mark, and the
# directory the grader and its ground truth were staged in. The repository is the current directory.
task = json.loads(sys.argv[1])
MARK = sys.argv[2]
stage = sys.argv[3]
repo = os.getcwd()
work = tempfile.mkdtemp(prefix='gitbench-grader-')
ctx = {
    'repo': repo,
    'outputs': {o: os.path.join(repo, o) for o in task['outputs']},
    'truth': {name: os.path.join(stage, 'truth.' + name) for name in task['truth']},
    'params': task['params'],
    'grader': os.path.join(stage, 'grader.py'),
    'work': work,
}

def emit(verdict):
    sys.stdout.flush()
    sys.stdout.write('\n' + MARK + json.dumps(verdict, sort_keys=True) + '\n')
    sys.stdout.flush()

def fail(kind, comments):
    shutil.rmtree(work, ignore_errors=True)
    emit({'Process': False, 'Result': False, 'comments': comments, 'quality': 0, 'kind': kind})
    sys.exit(0)

missing, empty = [], []
for declared, path in sorted(ctx['outputs'].items()):
    if declared.endswith('/'):
        if not os.path.isdir(path):
            missing.append(declared)
        elif not any(files for _, _, files in os.walk(path)):
            empty.append(declared)
    elif not os.path.isfile(path):
        missing.append(declared)
    elif os.path.getsize(path) == 0:
        empty.append(declared)
if missing:
    fail('no_output', 'no output found: ' + ', '.join(missing))
if empty:
    fail('empty_output', 'output is empty: ' + ', '.join(empty))

try:
    spec = importlib.util.spec_from_file_location('gitbench_grader', ctx['grader'])
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    verdict = module.grade(ctx)
except SystemExit as e:
    fail('grader_crash', 'the grader exited (%s) without a verdict' % (e.code,))
except BaseException:
    fail('grader_crash', 'the grader crashed: ' + ''.join(traceback.format_exc().splitlines(True)[-6:]))

if not isinstance(verdict, dict):
    fail('grader_crash', 'the grader returned %s, not a verdict' % type(verdict).__name__)
process, result = verdict.get('Process'), verdict.get('Result')
comments = verdict.get('comments', '')
quality = verdict.get('quality', 1 if result else 0)
if not isinstance(process, bool) or not isinstance(result, bool) or not isinstance(comments, str):
    fail('grader_crash', 'the grader returned a malformed verdict: %r' % (verdict,))
if quality not in (0, 0.25, 0.5, 0.75, 1):
    fail('grader_crash', 'the grader returned quality %r; quality is one of 0, 0.25, 0.5, 0.75, 1' % (quality,))
if result and not process:
    fail('grader_crash', 'the grader said Result true with Process false: ' + comments)
shutil.rmtree(work, ignore_errors=True)
emit({'Process': process, 'Result': result, 'comments': comments, 'quality': quality, 'kind': 'graded'})
