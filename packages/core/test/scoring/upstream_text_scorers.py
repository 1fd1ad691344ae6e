"""Upstream GitBench's own text functions, asked in bulk, for the property tests that compare ours.

Usage: upstream_text_scorers.py <harness dir>   (request JSON on stdin, answers on stdout)

Request: {"shlex": [<line>...], "answers": [<answer>...], "scores": [{"scoring", "expected", "output"}...]}
  shlex:     shlex.split(line): {"words": [...]} or {"error": <message>}
  answers:   the scorer module's normalize_command_answer, as the command benchmarks and
             command_equivalence read an answer: {"words": [<line>...]} or {"error": <message>}
  scores:    Scorer().score on a fixture with that scoring and expected text: {"passed", "similarity"}
"""

import json
import shlex
import sys

sys.path.insert(0, sys.argv[1])

from gitbench.harness.scorer import Scorer, normalize_command_answer  # noqa: E402
from gitbench.harness.types import Fixture  # noqa: E402


def attempt(fn):
    try:
        return {"words": fn()}
    except ValueError as e:
        return {"error": str(e)}


request = json.load(sys.stdin)
scorer = Scorer()
answer = {
    "shlex": [attempt(lambda line=line: shlex.split(line)) for line in request.get("shlex", [])],
    "answers": [attempt(lambda value=value: normalize_command_answer(value)) for value in request.get("answers", [])],
    "scores": [],
}
for case in request.get("scores", []):
    fixture = Fixture(id="f001", description="", setup=[], prompt="",
                      expected=case["expected"], scoring=case["scoring"])
    score = scorer.score(fixture, case["output"])
    answer["scores"].append({"passed": score.passed, "similarity": score.similarity})
json.dump(answer, sys.stdout)
