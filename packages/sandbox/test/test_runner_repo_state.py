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
