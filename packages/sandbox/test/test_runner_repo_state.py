"""When the session runner's read of the repository state leaves out git's read of the filter keys
(packages/sandbox/runner/repo_state.py): only where no configuration git reads could hold one. That the
state printed is the script's, filter drivers included, is tested against the script in a sandbox
(packages/engine/test/agent/repo-state-runner.int.test.ts)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'runner'))
import common  # noqa: E402 (after the runner's directory is put on the path)
import repo_state  # noqa: E402

LOOKUP = {b'PATH': b'/usr/bin:/bin', b'GIT_CONFIG_NOSYSTEM': b'1', b'GIT_CONFIG_GLOBAL': b'/dev/null',
          b'GIT_CONFIG_COUNT': b'1', b'GIT_CONFIG_KEY_0': b'core.hooksPath', b'GIT_CONFIG_VALUE_0': b'/dev/null'}
PLAIN = b'[core]\n\trepositoryformatversion = 0\n\tbare = false\n[user]\n\tname = filt er\n'


def no_filter_keys(tmp_path, files, env=LOOKUP):
    gd = tmp_path / 'git'
    gd.mkdir()
    for name, text in files.items():
        if text is None:
            os.mkfifo(gd / name)
        else:
            (gd / name).write_bytes(text)
    return repo_state._no_filter_keys(common.Sandbox('-'), os.fsencode(gd), env)


def test_a_plain_configuration_or_none_at_all_holds_no_filter_key(tmp_path):
    assert no_filter_keys(tmp_path, {'config': PLAIN})
    (tmp_path / 'none').mkdir()
    assert no_filter_keys(tmp_path / 'none', {})


def test_a_filter_section_in_any_case_or_spelling_or_an_include_asks_git(tmp_path):
    for i, text in enumerate([b'[filter "x"]\n\tclean = d\n', b'[FiLtEr "x"]\n', b'[filter.x]\n', b'[include]\n',
                              b'[includeIf "gitdir:/"]\n\tpath = c\n']):
        d = tmp_path / str(i)
        d.mkdir()
        assert not no_filter_keys(d, {'config': PLAIN + text}), text
    d = tmp_path / 'worktree'
    d.mkdir()
    assert not no_filter_keys(d, {'config': PLAIN, 'config.worktree': b'[Filter "y"]\n'})


def test_a_linked_work_tree_a_configuration_not_a_file_or_configuration_from_elsewhere_asks_git(tmp_path):
    cases = [({'config': PLAIN, 'commondir': b'../..\n'}, LOOKUP), ({'config': None}, LOOKUP)]
    for name, value in [(b'GIT_CONFIG_PARAMETERS', b"'filter.x.clean'='d'"), (b'GIT_CONFIG', b'/tmp/c'),
                        (b'GIT_DIR', b'/r'), (b'GIT_CONFIG_KEY_1', b'include.path'),
                        (b'GIT_CONFIG_KEY_1', b'Filter.x.clean'), (b'GIT_CONFIG_GLOBAL', b'/home/x/.gitconfig'),
                        (b'GIT_CONFIG_NOSYSTEM', b'no')]:
        cases.append(({'config': PLAIN}, {**LOOKUP, name: value}))
    for i, (files, env) in enumerate(cases):
        d = tmp_path / str(i)
        d.mkdir()
        assert not no_filter_keys(d, files, env), (files, env)


def test_the_read_sets_every_submodules_filter_keys_empty_and_diffs_a_moved_one_as_its_commits(tmp_path):
    # A repository embedded in the work tree, committed as a submodule, whose own configuration names a
    # clean filter and an external diff driver, with diff.submodule=diff in the repository's: status
    # and add look into it with a git of its own, and the diff of its moved gitlink would run git diff
    # there. Read on the host (the local driver's runner), the scorer's guard is found in the checkout.
    import subprocess
    top, marker = tmp_path / 'top', tmp_path / 'ran'
    env = {'PATH': '/usr/bin:/bin', 'HOME': str(tmp_path), 'GIT_CONFIG_NOSYSTEM': '1', 'GIT_CONFIG_GLOBAL': '/dev/null',
           'GIT_AUTHOR_NAME': 'a', 'GIT_AUTHOR_EMAIL': 'a@b', 'GIT_COMMITTER_NAME': 'a', 'GIT_COMMITTER_EMAIL': 'a@b'}

    def sh(command, cwd=top):
        subprocess.run(['bash', '-c', command], cwd=cwd, env=env, check=True, capture_output=True)

    top.mkdir()
    sh('git init -q && git commit -q --allow-empty -m base && git init -q sub && cd sub '
       '&& echo "s.txt filter=x" > .gitattributes && echo s > s.txt && git add . && git commit -qm s')
    sh('git add sub 2>/dev/null && git commit -qm sub && git -C sub commit -q --allow-empty -m moved')
    sh("git -C sub config filter.x.clean 'touch %s; cat' && git -C sub config diff.external 'touch %s' "
       "&& git config diff.submodule diff && touch -d 2001-01-01 sub/s.txt" % (marker, marker))
    read_env = {**LOOKUP, b'HOME': os.fsencode(tmp_path), b'TMPDIR': os.fsencode(tmp_path)}
    home, devnull = os.open('.', os.O_RDONLY), os.open(os.devnull, os.O_RDONLY)
    try:
        base = subprocess.run(['git', 'rev-parse', 'HEAD~1^{tree}'], cwd=top, env=env, check=True,
                              capture_output=True).stdout.strip()
        text, timed_out = repo_state.read_repo_state(common.Sandbox('-'), os.fsencode(top), read_env, base, 65536,
                                                     30.0, 2.0, home, devnull, False)
    finally:
        os.close(home)
        os.close(devnull)
    assert not timed_out
    assert not marker.exists()
    assert b'\n@@gb:status\n# branch.oid ' in text
    assert b'Subproject commit' in text
