"""The conformance suite (issue 18, ``docs/conformance.md``): its cases pass against this
engine, directly and through the adapter protocol (``examples/conformance_adapter.py``);
they cite every rule of ``../shared/rules/*.md``; an engine that gets something wrong
fails with a message naming the case, the rules and what differs; a broken adapter is
reported in one clear line, never a traceback."""

from __future__ import annotations

import dataclasses
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from splendor.conformance import (
    AdapterError,
    Answer,
    CaseFormatError,
    ExternalEngine,
    LocalEngine,
    Query,
    check_case,
    describe_failure,
    judge,
    load_cases,
    query_of,
    read_file,
    rules_cited,
    run_cases,
)
from splendor.conformance.suite import FILES, dump_file

ROOT = Path(__file__).resolve().parents[1]
ADAPTER = ROOT / "examples" / "conformance_adapter.py"
RULES = ROOT.parent / "shared" / "rules"
CASE_DIR = ROOT / "src" / "splendor" / "conformance" / "cases"
ENV = {**os.environ, "COLUMNS": "120", "NO_COLOR": "1", "PYTHONIOENCODING": "utf-8"}


def rule_ids(name: str, prefix: str, count: int) -> set[str]:
    """The rule ids of ``../shared/rules/<name>`` (``- C8. …``); where the shared folder is
    not there, the ids the rules are known to have (C1-C18, D1-D25)."""
    path = RULES / name
    if not path.exists():
        return {f"{prefix}{i}" for i in range(1, count + 1)}
    ids = set(re.findall(rf"^- ({prefix}\d+)\.", path.read_text(encoding="utf-8"), re.M))
    assert ids, f"no rule id found in {path}"
    return ids


CLASSIC_RULES = rule_ids("splendor.md", "C", 18)
DUEL_RULES = rule_ids("duel.md", "D", 25)


@pytest.fixture(scope="module")
def cases():
    return load_cases()


def splendor(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "splendor.cli", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=ENV,
        cwd=ROOT,
    )


def script(tmp_path: Path, name: str, body: str) -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return path


# --------------------------------------------------------------------------- the suite


def test_the_suite_passes_against_this_engine(cases):
    report = run_cases(cases, LocalEngine())
    assert report.error is None
    assert [r.problems for r in report.failed] == []
    assert report.passed == len(cases) and report.summary().endswith("0 failed")


def test_there_are_at_least_150_cases_with_unique_ids(cases):
    assert len(cases) >= 150
    per_game = {g: sum(c.game == g for c in cases) for g in FILES}
    assert min(per_game.values()) >= 75, per_game
    assert len({c.id for c in cases}) == len(cases)


def test_every_rule_of_both_games_is_cited(cases):
    cited = rules_cited(cases)
    assert CLASSIC_RULES - set(cited) == set()
    assert DUEL_RULES - set(cited) == set()


def test_cases_cite_only_rules_that_exist_and_of_their_own_game(cases):
    for c in cases:
        known = CLASSIC_RULES if c.game == "splendor" else DUEL_RULES
        assert set(c.rules) <= known, (c.id, c.rules)
        assert c.id.split("-")[0] == c.rules[0]


def test_filters_by_game_and_rule():
    duel_only = load_cases(game="splendor-duel")
    assert duel_only and {c.game for c in duel_only} == {"duel"}
    c8 = load_cases(game="classic", rules=["c8"])
    assert c8 and all("C8" in c.rules for c in c8)
    with pytest.raises(ValueError, match="unknown game"):
        load_cases(game="chess")


def test_the_case_files_are_written_one_field_a_line():
    """The shipped files are in the form ``dump_file`` writes (what the generator writes),
    so that a case reads, and diffs, as a block."""
    for game, name in FILES.items():
        text = (CASE_DIR / name).read_text(encoding="utf-8")
        rules = "rules/splendor.md" if game == "splendor" else "rules/duel.md"
        assert dump_file(game, read_file(text, name), rules) == text


# --------------------------------------------------------------------------- other engines


def test_the_reference_adapter_passes_end_to_end(cases):
    with ExternalEngine(str(ADAPTER)) as engine:
        report = run_cases(cases, engine)
    assert report.error is None
    assert [r.problems for r in report.failed] == []
    assert report.passed == len(cases)


def test_the_command_runs_the_suite_and_lists_it():
    done = splendor("conformance", "--rule", "C9,D10")
    assert done.returncode == 0, done.stdout + done.stderr
    n = len(load_cases(rules=["C9", "D10"]))
    assert done.stdout.strip().splitlines()[-1] == f"{n} passed, 0 failed"
    listed = splendor("conformance", "--list", "--game", "duel", "--rule", "D19")
    assert listed.returncode == 0
    assert "D19-01" in listed.stdout and "C9-01" not in listed.stdout
    bad = splendor("conformance", "--rule", "C99")
    assert bad.returncode == 2 and "no case cites C99" in bad.stderr


DROPPING = """\
    import sys
    sys.path.insert(0, {examples!r})
    import conformance_adapter as adapter

    right = adapter.answer

    def answer(query):
        out = right(query)
        if out.get("legal"):
            out["legal"] = out["legal"][1:]  # forgets one legal decision
        return out

    adapter.answer = answer
    adapter.main()
"""


def test_an_engine_that_drops_a_legal_action_fails_with_clear_messages(tmp_path):
    wrong = script(tmp_path, "dropping.py", DROPPING.format(examples=str(ADAPTER.parent)))
    done = splendor("conformance", "--rule", "C6", "--engine", str(wrong))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    assert re.search(r"^FAIL C6-\d\d \[C6(, C\d+)*\] ", done.stdout, re.M)
    assert "  legal: missing 'take W U G'" in done.stdout
    assert re.search(r"^\d+ passed, [1-9]\d* failed$", done.stdout.strip(), re.M)


def test_a_wrong_expectation_is_reported_field_by_field(cases):
    case = next(c for c in cases if c.id == "C9-01")
    assert "tokens=" not in case.expect["after"]
    after = case.expect["after"].replace(" rng=", " tokens=1R/- rng=")
    wrong = dataclasses.replace(case, expect={**case.expect, "after": after})
    problems = check_case(wrong, LocalEngine()).problems
    assert problems == ["after: tokens: expected '1R/-', got '(absent)'"]
    unreadable = dataclasses.replace(case, expect={"after": "splendor players=7"})
    problems = check_case(unreadable, LocalEngine()).problems
    assert len(problems) == 1 and problems[0].startswith("after: the case's own position")


class WrongScores(LocalEngine):
    """An engine whose scores are off by one for seat 0."""

    def query(self, q: Query) -> Answer:
        out = super().query(q)
        if out.result is not None:
            out.result = {
                **out.result,
                "scores": [out.result["scores"][0] + 1, *out.result["scores"][1:]],
            }
        return out


def test_a_wrong_result_and_a_refused_decision_fail(cases):
    case = next(c for c in cases if c.id == "C14-02")
    assert check_case(case, LocalEngine()).ok
    problems = check_case(case, WrongScores()).problems
    assert problems == ["result: scores expected [16, 0], got [17, 0]"]
    refused = judge(case, Answer(error="illegal action 'take W U G'", refused=1))
    assert refused == ["the engine refused decision 2 ('take W U G'): illegal action 'take W U G'"]
    unread = judge(case, Answer(error="cannot read", refused=None))
    assert unread == ["the engine refused the starting position: cannot read"]


def test_an_answer_that_is_not_a_position_or_an_action_fails(cases):
    case = next(c for c in cases if c.id == "C6-02")
    bad = judge(case, Answer(position="splendor players=9"))
    assert len(bad) == 1 and bad[0].startswith("position: the engine's answer does not read")
    legal_case = next(c for c in cases if c.id == "C6-01")
    bad = judge(legal_case, Answer(legal=["take W U G", "take W U G", "fly away"]))
    assert "legal: 'take W U G' is listed twice" in bad
    assert any(p.startswith("legal: 'fly away' is not an action text") for p in bad)


# --------------------------------------------------------------------------- broken adapters


BROKEN = {
    "not_json.py": (
        "import sys\nfor line in sys.stdin:\n    print('hello', flush=True)\n",
        "is not JSON: 'hello'",
    ),
    "exits.py": (
        "import sys\nsys.stderr.write('boom\\n')\nsys.exit(3)\n",
        "exited with code 3 before answering query 1; its last stderr lines:\n    boom",
    ),
    "silent.py": (
        "import sys, time\nfor line in sys.stdin:\n    time.sleep(30)\n",
        "no answer to query 1 within 1 s",
    ),
    "wrong_number.py": (
        "import sys\nfor line in sys.stdin:\n    print('{\"request\": 7}', flush=True)\n",
        "does not echo the query's number ('request': 1)",
    ),
    "no_legal.py": (
        "import json, sys\nfor line in sys.stdin:\n"
        "    print(json.dumps({'request': json.loads(line)['request']}), flush=True)\n",
        "has no 'legal'",
    ),
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_a_broken_adapter_is_reported_in_one_clear_message(tmp_path, cases, name):
    body, message = BROKEN[name]
    path = script(tmp_path, name, body)
    case = next(c for c in cases if c.id == "C6-01")
    with ExternalEngine(str(path), timeout=1.0, start_timeout=1.0) as engine:
        report = run_cases([case, case], engine)
        with pytest.raises(AdapterError, match=re.escape(message)):
            engine.query(query_of(case))  # a failed program is not asked again
    assert report.results == [] and len(report.not_run) == 2
    assert report.error is not None and message in report.error
    assert report.error.startswith(f"on case C6-01: adapter {str(path)!r}: ")


def test_an_adapter_that_cannot_start_is_an_adapter_error(tmp_path):
    with pytest.raises(AdapterError, match="no script"):
        ExternalEngine(str(tmp_path / "missing.py")).query(Query("splendor", None, {}, (), ()))
    with pytest.raises(AdapterError, match="cannot read the adapter command"):
        ExternalEngine("'unbalanced").query(Query("splendor", None, {}, (), ()))


REFUSING = """\
    import json, sys
    for line in sys.stdin:
        q = json.loads(line)
        print(json.dumps({"request": q["request"], "error": "no such move here", "action": 0}),
              flush=True)
"""


def test_an_adapter_refusing_a_decision_fails_that_case_and_the_run_goes_on(tmp_path, cases):
    path = script(tmp_path, "refusing.py", REFUSING)
    with_actions = next(c for c in cases if c.id == "C6-02")
    with ExternalEngine(str(path)) as engine:
        report = run_cases([with_actions, with_actions], engine)
    assert report.error is None and report.passed == 0
    assert [r.problems for r in report.failed] == [
        ["the engine refused decision 1 ('take W U G'): no such move here"]
    ] * 2


def test_the_command_reports_a_broken_adapter_without_a_traceback(tmp_path):
    path = script(tmp_path, "not_json.py", BROKEN["not_json.py"][0])
    done = splendor("conformance", "--rule", "C6", "--engine", str(path))
    assert done.returncode == 2
    assert "Traceback" not in done.stdout + done.stderr
    assert re.search(r"error: adapter failed on case C\d+-\d\d: adapter ", done.stderr)
    assert "is not JSON" in done.stderr
    missing = splendor("conformance", "--engine", "no-such-program-here --flag")
    assert missing.returncode == 2 and "cannot start the adapter" in missing.stderr
    assert "Traceback" not in missing.stdout + missing.stderr


# --------------------------------------------------------------------------- the format


@pytest.mark.parametrize(
    "case, message",
    [
        ({"id": "X", "rules": ["C1"], "description": "d", "position": "p"}, "no expectation"),
        ({"id": "X", "rules": ["C1"], "description": "d", "legal": []}, "exactly one of"),
        (
            {"id": "X", "rules": ["Z1"], "description": "d", "position": "p", "legal": []},
            "'Z1' is not a rule id",
        ),
        (
            {
                "id": "X",
                "rules": ["C1"],
                "description": "d",
                "position": "p",
                "legal": [],
                "colour": 1,
            },
            "unknown key(s) colour",
        ),
        (
            {"id": "X", "rules": ["C1"], "description": "two\nlines", "position": "p", "legal": []},
            "one line",
        ),
    ],
)
def test_a_malformed_case_is_refused_with_its_id(case, message):
    text = '{"format": "splendor-conformance", "version": 1, "game": "splendor", "cases": [%s]}'
    import json

    with pytest.raises(CaseFormatError, match=re.escape(message)):
        read_file(text % json.dumps(case))


def test_a_file_of_another_format_or_version_is_refused():
    with pytest.raises(CaseFormatError, match="not JSON"):
        read_file("{")
    with pytest.raises(CaseFormatError, match="version 3, expected 1 or 2"):
        read_file('{"format": "splendor-conformance", "version": 3}')
    with pytest.raises(CaseFormatError, match="two cases have the id"):
        one = {"id": "A", "rules": ["C1"], "description": "d", "position": "p", "legal": []}
        import json

        read_file(
            json.dumps(
                {
                    "format": "splendor-conformance",
                    "version": 1,
                    "game": "splendor",
                    "cases": [one, one],
                }
            )
        )


def test_the_documented_counts_are_the_suite_s(cases):
    """``docs/conformance.md`` states how many cases cite each rule, and in all."""
    text = (ROOT / "docs" / "conformance.md").read_text(encoding="utf-8")
    table = {
        m[0]: int(m[1]) for m in re.findall(r"^\| ([CD]\d+) \| [^|]+ \| (\d+) \|$", text, re.M)
    }
    assert table == rules_cited(cases)
    classic_n = sum(c.game == "splendor" for c in cases)
    assert f"In all, {classic_n} classic cases and {len(cases) - classic_n} Duel cases." in text
    assert f"conformance: {len(cases)} cases against this package's engine" in text


# --------------------------------------------------------------------------- sources


def test_every_case_says_whether_it_checks_the_rulebook_or_a_ruling(cases):
    assert {c.source for c in cases} == {"rulebook", "ruling"}
    by_id = {c.id: c.source for c in cases}
    # the rulings of ../shared/rules (C13, C17, C18, D23-D25) and of C6 and C9
    assert all(c.source == "ruling" for c in cases if set(c.rules) & {"C13", "C17", "D25"})
    assert by_id["C6-01"] == by_id["C9-08"] == by_id["C16-04"] == "ruling"
    assert by_id["C6-02"] == by_id["C9-01"] == by_id["D8-01"] == "rulebook"


def test_a_version_1_file_is_still_read_and_its_cases_count_as_rulebook():
    import json

    one = {"id": "A", "rules": ["C1"], "description": "d", "position": "p", "legal": []}
    v1 = {"format": "splendor-conformance", "version": 1, "game": "splendor", "cases": [one]}
    (case,) = read_file(json.dumps(v1))
    assert case.source == "rulebook"
    v2 = {**v1, "version": 2}
    with pytest.raises(CaseFormatError, match="'source' must be one of rulebook, ruling"):
        read_file(json.dumps(v2))
    (case,) = read_file(json.dumps({**v2, "cases": [{**one, "source": "ruling"}]}))
    assert case.source == "ruling" and case.to_json()["source"] == "ruling"
    with pytest.raises(CaseFormatError, match="'source' is a field of version 2"):
        read_file(json.dumps({**v1, "cases": [{**one, "source": "ruling"}]}))


def test_a_failure_names_the_source_of_its_case(cases):
    case = next(c for c in cases if c.id == "C14-02")
    text = describe_failure(check_case(case, WrongScores()))
    assert text.startswith("FAIL C14-02 [C14, C15] (rulebook) ")


# --------------------------------------------------------------------------- unsupported


class NoMidPayment(LocalEngine):
    """An engine that pays in one decision: it has no position in the middle of one."""

    def query(self, q: Query) -> Answer:
        if any(a.endswith(" choose") for a in q.actions):
            return Answer(unsupported="my engine pays in one decision")
        return super().query(q)


def test_an_unsupported_answer_is_neither_a_pass_nor_a_failure(cases):
    report = run_cases(cases, NoMidPayment())
    unsupported = {r.case.id for r in report.unsupported}
    assert "C16-04" in unsupported and "C9-07" in unsupported
    assert report.failed == [] and report.passed == len(cases) - len(unsupported)
    assert report.summary() == f"{report.passed} passed, 0 failed, {len(unsupported)} unsupported"
    result = next(r for r in report.results if r.case.id == "C16-04")
    assert not result.ok and result.status == "unsupported" and result.problems == []
    assert describe_failure(result).splitlines() == [
        "UNSUPPORTED C16-04 [C16, C9] (ruling) a blind-reserved card being paid for is "
        "being bought: it is public",
        "  my engine pays in one decision",
    ]
    lines = report.by_source().splitlines()
    assert lines[0].startswith("rulebook: ") and lines[1].startswith("ruling: ")
    assert f", {len(unsupported)} unsupported" in lines[1]


UNSUPPORTING = """\
    import json, sys
    for line in sys.stdin:
        q = json.loads(line)
        print(json.dumps({"request": q["request"], "unsupported": "not modelled"}), flush=True)
"""


def test_an_adapter_may_answer_unsupported(tmp_path, cases):
    path = script(tmp_path, "unsupporting.py", UNSUPPORTING)
    case = next(c for c in cases if c.id == "C16-04")
    with ExternalEngine(str(path)) as engine:
        report = run_cases([case], engine)
    assert report.error is None and report.failed == [] and report.passed == 0
    assert [r.unsupported for r in report.unsupported] == ["not modelled"]
    assert report.summary() == "0 passed, 0 failed, 1 unsupported"


def test_facts_come_from_each_game_s_descriptor():
    from splendor.conformance import FACTS
    from splendor.conformance.runner import fact_table
    from splendor.game import games

    for game in games():
        assert fact_table(game) is game.part("conformance_facts")
        assert FACTS[game.name] == fact_table(game).names
        assert fact_table(game).names[:3] == ("turn", "current", "phase")
