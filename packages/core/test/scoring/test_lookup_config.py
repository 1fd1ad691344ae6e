"""The look-ups' configuration guard (packages/core/src/scoring/lookup-config.py): its parser and quoting
called directly (the file run in a directory with no repository, where it changes nothing), and the file
run as lookupConfigPy sends it on a repository git made. The end-to-end cases, with git reading the
result, are in lookup-environment.test.ts."""
import os
import subprocess

import pytest

GUARD = os.path.join(os.path.dirname(__file__), '..', '..', 'src', 'scoring', 'lookup-config.py')
MARK = '# ---- sent from the next line on ----'


def sent():
    with open(GUARD, encoding='utf-8') as f:
        return f.read().split(MARK + '\n', 1)[1]


@pytest.fixture
def guard(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    names = {'EXTRA': [], 'BUILT': None}
    exec(compile(sent(), GUARD, 'exec'), names)
    return names


def test_parse_reads_sections_subsections_and_values_as_git_does(guard):
    text = (
        '# comment\n'
        '[core]\n\tbare = false ; trailing\n\tFileMode\n'
        '[remote "origin"]\n\turl = "https://example.org/a b.git"\n'
        '[branch.Main]\n\tremote = origin\n'
        '[user]\n\tname = Ada \\"the\\" Lovelace\\t!\n\temail =   a@b  \n'
    )
    assert guard['parse'](text) == [
        ('core', None, 'bare', 'false'),
        ('core', None, 'filemode', None),
        ('remote', 'origin', 'url', 'https://example.org/a b.git'),
        ('branch', 'main', 'remote', 'origin'),
        ('user', None, 'name', 'Ada "the" Lovelace\t!'),
        ('user', None, 'email', 'a@b'),
    ]


@pytest.mark.parametrize('text', [
    'key = outside any section\n',
    '[core\n',
    '[remote "a\nb"]\n',
    '[core]\n\tbare = "unclosed\n',
    '[core]\n\tbare = bad\\escape\n',
    '[core]\n\t1key = x\n',
    '[core]\n\tbare : x\n',
])
def test_parse_refuses_what_it_cannot_read_exactly(guard, text):
    assert guard['parse'](text) is None


def test_kept_keeps_the_whitelist_and_the_extra_keys_only(guard):
    kept = guard['kept']
    assert kept('core', None, 'bare') and kept('remote', 'origin', 'url') and kept('submodule', 'x', 'path')
    assert not kept('core', None, 'fsmonitor') and not kept('alias', None, 'st') and not kept('remote', None, 'url')
    guard['EXTRA'] = ['status.showuntrackedfiles']
    assert kept('status', None, 'showuntrackedfiles') and not kept('status', None, 'short')


def test_quote_round_trips_through_parse(guard):
    value = 'a "b" \\ c\td\ne'
    assert guard['parse']('[user]\n\tname = ' + guard['quote'](value) + '\n') == [('user', None, 'name', value)]


def test_the_file_rewrites_a_repositorys_configuration(tmp_path):
    subprocess.run(['git', 'init', '-q', str(tmp_path)], check=True)
    config = tmp_path / '.git' / 'config'
    with open(config, 'a') as f:
        f.write('[core]\n\tfsmonitor = ./evil\n[alias]\n\tst = !evil\n[user]\n\tname = Ada\n')
    subprocess.run(['/usr/bin/python3', '-I', '-S', '-c', 'EXTRA = []\nBUILT = None\n' + sent()], cwd=tmp_path, check=True)
    text = config.read_text()
    assert 'fsmonitor' not in text and 'alias' not in text and '\tname = "Ada"\n' in text
    config.write_text('[core\n')
    subprocess.run(['/usr/bin/python3', '-I', '-S', '-c', 'EXTRA = []\nBUILT = None\n' + sent()], cwd=tmp_path, check=True)
    assert config.read_text() == '[ unreadable configuration\n'
