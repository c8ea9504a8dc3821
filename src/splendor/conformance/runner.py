"""Running conformance cases against an engine and judging its answers.

Every answer is read with this package's notation before it is compared, so that two
spellings of one thing agree:

- decisions as a **set** of canonical action texts (``Action.parse`` then ``str``:
  ``take g w u`` is ``take W U G``; ``docs/actions.md``); order and duplicates are ignored;
- positions and observations as canonical position texts (``State.from_text`` then
  ``to_text``, ``docs/notation.md``), with ``rng=`` left out: the generator is the
  engine's own (the cases are built so that no outcome depends on it), except for
  ``twice``, which asks the same query twice and wants the same text, generator included
  (C18, D24);
- facts are computed from the position reached, as this package reads it (:func:`facts_of`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from ..descriptor import Game
from .engines import AdapterError, Answer, Engine, Query
from .facts import FactTable
from .suite import SOURCES, Case


@dataclass
class CaseResult:
    """The verdict on one case: passed when ``problems`` is empty and the engine answered;
    unsupported when the engine said it does not model what the case asks (neither a pass
    nor a failure).

    Attributes:
        case: the case.
        problems: one line per disagreement (``"legal: missing 'take W W'"``).
        unsupported: the engine's reason when it answered ``unsupported``, else ``None``.
    """

    case: Case
    problems: list[str] = field(default_factory=list)
    unsupported: str | None = None

    @property
    def ok(self) -> bool:
        """True when the engine answered and agreed with every expectation of the case."""
        return self.unsupported is None and not self.problems

    @property
    def status(self) -> str:
        """``"passed"``, ``"failed"`` or ``"unsupported"``."""
        if self.unsupported is not None:
            return "unsupported"
        return "failed" if self.problems else "passed"


@dataclass
class Report:
    """The verdicts of a run: each case passed, failed, was unsupported by the engine, or
    was not run (after an adapter error).

    Attributes:
        engine: the engine's name.
        results: one :class:`CaseResult` per case run, in order.
        error: why the run stopped early (an :class:`AdapterError`), else ``None``.
        not_run: the cases left after such a stop.
    """

    engine: str
    results: list[CaseResult] = field(default_factory=list)
    error: str | None = None
    not_run: list[Case] = field(default_factory=list)

    @property
    def passed(self) -> int:
        """How many cases passed."""
        return sum(r.ok for r in self.results)

    @property
    def failed(self) -> list[CaseResult]:
        """The cases that failed (an unsupported case is not a failure)."""
        return [r for r in self.results if r.status == "failed"]

    @property
    def unsupported(self) -> list[CaseResult]:
        """The cases the engine answered ``unsupported`` (neither passed nor failed)."""
        return [r for r in self.results if r.status == "unsupported"]

    def summary(self) -> str:
        """``"N passed, M failed"``, then ``", K unsupported"`` when the engine answered
        some so, and ``", L not run"`` after an adapter error."""
        text = f"{self.passed} passed, {len(self.failed)} failed"
        if self.unsupported:
            text += f", {len(self.unsupported)} unsupported"
        if self.error is not None:
            text += f", {len(self.not_run)} not run"
        return text

    def by_source(self) -> str:
        """The verdicts per source of the cases (``rulebook``, ``ruling``), one line each:
        ``"rulebook: 150 passed, 0 failed"``; a count of unsupported and not-run cases
        follows when there are some."""
        lines = []
        for source in SOURCES:
            mine = [r for r in self.results if r.case.source == source]
            line = f"{source}: {sum(r.ok for r in mine)} passed, "
            line += f"{sum(r.status == 'failed' for r in mine)} failed"
            unsupported = sum(r.status == "unsupported" for r in mine)
            not_run = sum(c.source == source for c in self.not_run)
            line += f", {unsupported} unsupported" if unsupported else ""
            line += f", {not_run} not run" if not_run else ""
            lines.append(line)
        return "\n".join(lines)


def _game(name: str | Game) -> Game:
    from ..game import get_game

    return get_game(name)


def query_of(case: Case) -> Query:
    """The :class:`Query` that asks an engine what ``case`` checks."""
    e = case.expect
    want: list[str] = []
    if {"after", "facts", "twice"} & set(e):
        want.append("position")
    if {"legal", "legal_includes", "legal_excludes"} & set(e):
        want.append("legal")
    if "result" in e:
        want.append("result")
    observer = None
    if "observation" in e:
        want.append("observation")
        observer = int(e["observation"]["seat"])
    return Query(
        game=case.game,
        position=case.position,
        new_game=case.new_game,
        actions=case.actions,
        want=tuple(want),
        observer=observer,
    )


# --------------------------------------------------------------------------- canonical forms


def canonical_action(game: str, text: str) -> str:
    """The canonical notation of one decision (``docs/actions.md``).

    Raises:
        ValueError: ``text`` is not an action of ``game``.
    """
    return str(_game(game).action_type.parse(text))


def _fields(text: str) -> dict[str, str]:
    words = text.split()
    out = {"": words[0] if words else ""}
    for w in words[1:]:
        key, _, value = w.partition("=")
        out[key] = value
    return out


def canonical_position(game: str, text: str, *, keep_rng: bool = False) -> str:
    """The canonical text of a full position of ``game``, without ``rng=`` unless
    ``keep_rng``.

    Raises:
        ValueError: not a position of ``game`` (unreadable, impossible, or another game's).
    """
    descriptor = _game(game)
    words = text.split()
    if not words or _game(words[0].lower()) is not descriptor:
        raise ValueError(f"not a {game} position text: {text[:40]!r}")
    out = str(descriptor.state_type.from_text(text).to_text())
    if keep_rng:
        return out
    return " ".join(w for w in out.split() if not w.startswith("rng="))


def canonical_observation(game: str, text: str) -> str:
    """The canonical text of an observation of ``game`` (``observer=``, no generator).

    Raises:
        ValueError: not an observation of ``game``.
    """
    descriptor = _game(game)
    words = text.split()
    if not words or _game(words[0].lower()) is not descriptor:
        raise ValueError(f"not a {game} observation text: {text[:40]!r}")
    return str(descriptor.observation_type.from_text(text).to_text())


def diff_fields(expected: str, got: str) -> list[str]:
    """The ``key=value`` fields of two position texts that differ, one line each."""
    a, b = _fields(expected), _fields(got)
    out = []
    for key in list(a) + [k for k in b if k not in a]:
        if a.get(key) != b.get(key):
            name = key or "game"
            out.append(
                f"{name}: expected {a.get(key, '(absent)')!r}, got {b.get(key, '(absent)')!r}"
            )
    return out


# --------------------------------------------------------------------------- facts


def fact_table(game: str | Game) -> FactTable:
    """The facts a case of ``game`` may state: its descriptor's part
    ``"conformance_facts"`` (:mod:`.facts`)."""
    table: FactTable = _game(game).part("conformance_facts")
    return table


def _facts_by_game() -> dict[str, tuple[str, ...]]:
    from ..game import games

    return {g.name: fact_table(g).names for g in games()}


FACTS = _facts_by_game()
"""The facts a case may state, by game name (``docs/conformance.md`` says what each is)."""


def facts_of(game: str, text: str) -> dict[str, Any]:
    """The facts (:data:`FACTS`) of a full position text of ``game``: ``turn``, ``current``
    (``None`` once over) and ``phase`` (the ``phase=`` word); classic: ``players``,
    ``supply`` (W U G R K gold, C1), ``deck_sizes``, ``faceup_levels`` (the level of each
    face-up card, ``None`` for an empty slot, C4), ``nobles_shown`` (C3), ``empty_hands``
    (no seat holds anything), ``scores``; Duel: ``board_counts`` (tokens on the board per
    colour W U G R K P gold, D1, D2), ``empty_cells``, ``bag``, ``deck_sizes``,
    ``pyramid_levels`` (D3), ``royals_available`` (numbers 1-4, D4), ``privileges`` (per
    seat, D5), ``turn_cap`` (``None`` for none, D25), ``empty_hands``, ``scores``.

    Raises:
        ValueError: not a position text of ``game``.
    """
    descriptor = _game(game)
    canonical_position(game, text)  # the same checks as a comparison
    state = descriptor.state_type.from_text(text)
    fields = _fields(state.to_text())
    base: dict[str, Any] = {
        "turn": state.turn,
        "current": state.current_player,
        "phase": fields.get("phase"),
    }
    return {**base, **fact_table(descriptor).compute(state)}


# --------------------------------------------------------------------------- judging


def _quote(items: Iterable[str]) -> str:
    return ", ".join(repr(x) for x in sorted(items))


def _legal_problems(case: Case, got: list[str]) -> list[str]:
    problems: list[str] = []
    seen: set[str] = set()
    for text in got:
        try:
            canon = canonical_action(case.game, text)
        except ValueError as err:
            problems.append(f"legal: {text!r} is not an action text ({err})")
            continue
        if canon in seen:
            problems.append(f"legal: {canon!r} is listed twice")
        seen.add(canon)
    e = case.expect
    try:
        for key in ("legal", "legal_includes", "legal_excludes"):
            for t in e.get(key, []):
                canonical_action(case.game, t)
    except ValueError as err:
        return [*problems, f"legal: the case's own action text does not read: {err}"]
    if "legal" in e:
        want = {canonical_action(case.game, t) for t in e["legal"]}
        missing, extra = want - seen, seen - want
        if missing:
            problems.append(f"legal: missing {_quote(missing)}")
        if extra:
            problems.append(f"legal: unexpected {_quote(extra)}")
    if "legal_includes" in e:
        missing = {canonical_action(case.game, t) for t in e["legal_includes"]} - seen
        if missing:
            problems.append(f"legal: should include {_quote(missing)}")
    if "legal_excludes" in e:
        present = {canonical_action(case.game, t) for t in e["legal_excludes"]} & seen
        if present:
            problems.append(f"legal: should not include {_quote(present)}")
    return problems


def _result_problems(expected: dict[str, Any], got: dict[str, Any]) -> list[str]:
    problems = []
    if got.get("over") != expected["over"]:
        problems.append(f"result: over expected {expected['over']}, got {got.get('over')}")
    if "winners" in expected and sorted(got.get("winners", [])) != sorted(expected["winners"]):
        problems.append(
            f"result: winners expected {sorted(expected['winners'])}, "
            f"got {sorted(got.get('winners', []))}"
        )
    if "scores" in expected and list(got.get("scores", [])) != list(expected["scores"]):
        problems.append(f"result: scores expected {expected['scores']}, got {got.get('scores')}")
    return problems


def judge(case: Case, answer: Answer) -> list[str]:
    """The disagreements between ``case``'s expectations and an engine's ``answer`` (an
    empty list when it passes; ``twice`` and ``unsupported`` answers are judged by
    :func:`check_case`)."""
    if answer.error is not None:
        if answer.refused is None:
            return [f"the engine refused the starting position: {answer.error}"]
        k = answer.refused
        text = case.actions[k] if 0 <= k < len(case.actions) else "?"
        return [f"the engine refused decision {k + 1} ({text!r}): {answer.error}"]
    e = case.expect
    problems: list[str] = []
    if {"legal", "legal_includes", "legal_excludes"} & set(e):
        problems += _legal_problems(case, answer.legal or [])
    got_pos: str | None = None
    if {"after", "facts"} & set(e):
        try:
            got_pos = canonical_position(case.game, answer.position or "")
        except ValueError as err:
            problems.append(f"position: the engine's answer does not read: {err}")
    if "after" in e and got_pos is not None:
        try:
            want = canonical_position(case.game, e["after"])
        except ValueError as err:
            problems.append(f"after: the case's own position does not read: {err}")
        else:
            if want != got_pos:
                problems += ["after: " + d for d in diff_fields(want, got_pos)]
    if "facts" in e and got_pos is not None:
        facts = facts_of(case.game, answer.position or "")
        for key, value in e["facts"].items():
            if key not in facts:
                problems.append(
                    f"facts: unknown fact {key!r} (known: {', '.join(fact_table(case.game).names)})"
                )
            elif facts[key] != value:
                problems.append(f"facts: {key} expected {value!r}, got {facts[key]!r}")
    if "result" in e:
        problems += _result_problems(e["result"], answer.result or {})
    if "observation" in e:
        try:
            want = canonical_observation(case.game, e["observation"]["text"])
        except ValueError as err:
            problems.append(f"observation: the case's own text does not read: {err}")
            return problems
        try:
            got = canonical_observation(case.game, answer.observation or "")
        except ValueError as err:
            problems.append(f"observation: the engine's answer does not read: {err}")
        else:
            if want != got:
                problems += ["observation: " + d for d in diff_fields(want, got)]
    return problems


def check_case(case: Case, engine: Engine) -> CaseResult:
    """Ask ``engine`` what ``case`` checks and judge the answer.

    Raises:
        AdapterError: the engine broke the adapter protocol.
    """
    q = query_of(case)
    answer = engine.query(q)
    if answer.unsupported is not None:
        return CaseResult(case, unsupported=answer.unsupported)
    problems = judge(case, answer)
    if case.expect.get("twice") and not problems:
        again = engine.query(q)
        if again.unsupported is not None:
            return CaseResult(case, unsupported=again.unsupported)
        try:
            first = canonical_position(case.game, answer.position or "", keep_rng=True)
            second = canonical_position(case.game, again.position or "", keep_rng=True)
        except ValueError as err:
            problems.append(f"twice: the engine's answer does not read: {err}")
        else:
            if first != second:
                problems += ["twice: " + d for d in diff_fields(first, second)]
    return CaseResult(case, problems)


def run_cases(
    cases: list[Case],
    engine: Engine,
    progress: Callable[[CaseResult], None] | None = None,
) -> Report:
    """Run ``cases`` against ``engine`` (in order); an :class:`AdapterError` stops the run
    and is kept in :attr:`Report.error` (never raised). ``progress`` is called with each
    verdict as it comes."""
    report = Report(engine=engine.name)
    for i, case in enumerate(cases):
        try:
            result = check_case(case, engine)
        except AdapterError as e:
            report.error = f"on case {case.id}: {e}"
            report.not_run = cases[i:]
            break
        report.results.append(result)
        if progress is not None:
            progress(result)
    return report


def describe_failure(result: CaseResult) -> str:
    """A failed (or unsupported) case for people: ``FAIL`` (or ``UNSUPPORTED``), its id,
    rules, source (``rulebook`` or ``ruling``) and description, then one indented line
    per problem (or the engine's reason)."""
    c = result.case
    word = "UNSUPPORTED" if result.status == "unsupported" else "FAIL"
    head = f"{word} {c.id} [{', '.join(c.rules)}] ({c.source}) {c.description}"
    lines = [result.unsupported] if result.unsupported is not None else result.problems
    return "\n".join([head, *("  " + p for p in lines)])
