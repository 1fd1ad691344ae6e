"""Ask upstream GitBench's own code for its verdicts, for comparison with ours.

Usage: upstream_verdicts.py <harness dir> <fixtures root>   (request JSON on stdin, answer on stdout)

Request: {"loads": [<fixture file>...], "cases": [{"benchmark", "fixture", "mode", "answer"}...]}
  loads: each file through upstream's FixtureLoader.load_file; the fixtures it returns, or its error.
  cases: each answer scored the way upstream's runner scores one: a fresh repository built by the
         benchmark's own setup, the benchmark's context read (bisect context checks commits out), in
         json_schema mode the answer parsed, checked against the fixture's contract and canonicalized,
         then the benchmark's score(). `{{full:<subject>}}` and `{{short:<subject>}}` in an answer
         name the commit with that subject in this repository (upper-case FULL/SHORT: in capitals).

Runs the answers on this host, as upstream does: only for the test corpus's own trusted answers.
"""

import importlib
import json
import pkgutil
import re
import subprocess
import sys
import traceback

harness, fixtures_root = sys.argv[1], sys.argv[2]
sys.path.insert(0, harness)

import gitbench.benchmarks as benchmarks_pkg  # noqa: E402
from gitbench.harness.benchmark import Benchmark  # noqa: E402
from gitbench.harness.loader import FixtureLoader  # noqa: E402
from gitbench.structured_output import (  # noqa: E402
    canonicalize,
    contract_for_benchmark_fixture,
    strict_json_loads,
    validate_structured_payload,
)
from gitbench.utils.git import FixtureGenerationContext  # noqa: E402

BENCHMARKS = {}
for module_info in pkgutil.iter_modules(benchmarks_pkg.__path__):
    module = importlib.import_module(f"gitbench.benchmarks.{module_info.name}")
    for value in vars(module).values():
        is_benchmark = isinstance(value, type) and issubclass(value, Benchmark) and value is not Benchmark
        if is_benchmark and getattr(value, "name", ""):
            BENCHMARKS[value.name] = value

TEMPLATE = re.compile(r"\{\{(full|short|FULL|SHORT):([^}]*)\}\}")


def commits(repo):
    out = subprocess.run(["git", "log", "--all", "--reflog", "--format=%H%x00%s"],
                         cwd=repo, capture_output=True, text=True).stdout
    by_subject = {}
    for line in out.splitlines():
        full, _, subject = line.partition("\0")
        by_subject.setdefault(subject, full)
    return by_subject


def resolve(answer, repo):
    if "{{" not in answer:
        return answer
    known = commits(repo)

    def name(match):
        kind, subject = match.group(1), match.group(2)
        full = known[subject]
        value = full if kind.lower() == "full" else full[:7]
        return value.upper() if kind.isupper() else value

    return TEMPLATE.sub(name, answer)


def score_case(case, fixtures):
    benchmark = BENCHMARKS[case["benchmark"]](fixtures_root=fixtures_root)
    fixture = fixtures[(case["benchmark"], case["fixture"])]
    executor, repo = benchmark.setup_fixture(fixture, fixture_generation_context=FixtureGenerationContext())
    try:
        diff = benchmark.get_diff(repo)
        output = resolve(case["answer"], repo)
        if case["mode"] == "json_schema":
            contract = contract_for_benchmark_fixture(fixture, case["benchmark"])
            try:
                payload = strict_json_loads(output)
                validate_structured_payload(payload, contract)
            except ValueError as exc:
                return {"passed": False, "similarity": 0.0, "error": f"structured: {exc}", "scored": None}
            output = canonicalize(payload, contract)
        score = benchmark.score(fixture, output, repo_path=repo, diff=diff, prompt=fixture.prompt)
        operational = bool(score.error and score.error.startswith("Scoring error:"))
        return {"passed": score.passed, "similarity": score.similarity, "error": score.error,
                "operational": operational, "scored": output}
    finally:
        executor.cleanup()


def main():
    request = json.load(sys.stdin)
    loader = FixtureLoader()
    loads = []
    for path in request.get("loads", []):
        try:
            loads.append({"fixtures": [f.to_dict() for f in loader.load_file(path)]})
        except Exception as exc:  # what upstream's loader refuses, and why
            loads.append({"error": f"{type(exc).__name__}: {exc}"})
    fixtures = {}
    for case in request.get("cases", []):
        key = (case["benchmark"], case["fixture"])
        if key not in fixtures:
            for fixture in BENCHMARKS[case["benchmark"]](fixtures_root=fixtures_root).load_fixtures():
                fixtures[(case["benchmark"], fixture.id)] = fixture
    verdicts = []
    for case in request.get("cases", []):
        try:
            verdicts.append(score_case(case, fixtures))
        except Exception:
            verdicts.append({"crash": traceback.format_exc()})
    json.dump({"loads": loads, "verdicts": verdicts}, sys.stdout, default=str)


main()
