"""The case files of the conformance suite: their format, reading and checking.

A case file is one JSON object per game (``cases/classic.json``, ``cases/duel.json``,
shipped as package data)::

    {"format": "splendor-conformance", "version": 2, "game": "splendor",
     "rules": "rules/splendor.md", "cases": [{...}, {...}]}

Each case is one object (``docs/conformance.md`` has the whole format):

- ``id`` (unique in the suite), ``rules`` (the rule ids it checks: ``["C8", "C11"]``),
  ``source`` (``"rulebook"``: what it checks is the published rules; ``"ruling"``: it
  depends on one of the project's own rulings, ``docs/rules.md``), ``description`` (one
  line: what it checks);
- where it starts: ``position`` (a position text, ``docs/notation.md``) or ``new_game``
  (``{"players": 3, "seed": 7}``: a new game, for the setup rules C1-C5, D1-D5);
- ``actions``: decisions in action notation (``docs/actions.md``) applied in order first;
- what is expected there, one or more of: ``legal`` (the exact set of legal decisions),
  ``legal_includes`` / ``legal_excludes`` (some that must be / must not be legal),
  ``after`` (the position text reached), ``result`` (``{"over": true, "winners": [0],
  "scores": [15, 12]}``), ``observation`` (``{"seat": 1, "text": ...}``, what that seat may
  see, C16 / D22), ``facts`` (properties of the position reached, :mod:`.runner`), and
  ``twice`` (``true``: asking twice gives the same position, generator included, C18 / D24).

Version 1 files (before ``source``) are still read; their cases count as ``rulebook``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from ..descriptor import Game

FORMAT = "splendor-conformance"
"""The ``format`` of a case file."""
VERSION = 2
"""The version of the case format written here (2: each case has a ``source``)."""
VERSIONS = (1, 2)
"""The versions read here (a version 1 case has no ``source``: ``"rulebook"``)."""
SOURCES = ("rulebook", "ruling")
"""Where what a case checks comes from: the published rules, or one of the project's own
rulings where they are silent (``docs/rules.md``; C6's and C9's rulings, C13, C17, C18,
D23-D25)."""


def _games() -> tuple[Game, ...]:
    from ..game import games

    return games()


GAMES = tuple(g.name for g in _games())
"""The games of the suite, by the first word of their position text (``splendor`` is
classic Splendor)."""
FILES = {g.name: f"{g.package}.json" for g in _games()}
"""The case file of each game (named after its engine's package), in the package's
``conformance/cases/`` folder."""
EXPECTATIONS = (
    "legal",
    "legal_includes",
    "legal_excludes",
    "after",
    "result",
    "observation",
    "facts",
    "twice",
)
"""The keys of a case that say what is expected (a case has at least one)."""
_RULE_ID = re.compile(r"[CD][1-9][0-9]*")
_KEYS = {"id", "rules", "source", "description", "position", "new_game", "actions", *EXPECTATIONS}


class CaseFormatError(ValueError):
    """A case file or a case that does not follow the format; the message names the case
    and the field."""


@dataclass(frozen=True)
class Case:
    """One conformance case (the fields of its JSON object; ``docs/conformance.md``).

    Attributes:
        game: ``"splendor"`` (classic) or ``"duel"``.
        id: unique in the suite, e.g. ``"C8-03"``.
        rules: the rule ids it checks (C1-C18, D1-D25), the first one being the main one.
        description: one line, what it checks.
        position: the starting position text, or ``None`` for a new game.
        new_game: ``{"players": n, "seed": s}`` for a new game, else ``None``.
        actions: decisions applied in order before the checks, in action notation.
        expect: the expectations, by key (:data:`EXPECTATIONS`).
        source: ``"rulebook"`` (the published rules) or ``"ruling"`` (one of the
            project's rulings decides the expectation) (:data:`SOURCES`).
    """

    game: str
    id: str
    rules: tuple[str, ...]
    description: str
    position: str | None
    new_game: dict[str, int] | None
    actions: tuple[str, ...]
    expect: dict[str, Any] = field(default_factory=dict)
    source: str = "rulebook"

    def to_json(self) -> dict[str, Any]:
        """The case as the JSON object of its file (keys in the documented order)."""
        out: dict[str, Any] = {
            "id": self.id,
            "rules": list(self.rules),
            "source": self.source,
            "description": self.description,
        }
        if self.position is not None:
            out["position"] = self.position
        if self.new_game is not None:
            out["new_game"] = dict(self.new_game)
        if self.actions:
            out["actions"] = list(self.actions)
        for key in EXPECTATIONS:
            if key in self.expect:
                out[key] = self.expect[key]
        return out


def _strings(value: object, where: str, key: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise CaseFormatError(f"{where}: {key!r} must be a list of strings")
    return tuple(value)


def case_from_json(game: str, data: object, where: str = "case", version: int = VERSION) -> Case:
    """Read one case object of a ``game``'s file (of format ``version``).

    Raises:
        CaseFormatError: a missing or unknown key, a value of the wrong type, no expectation,
            both or neither of ``position`` and ``new_game``, or (version 2) a ``source``
            that is not one of :data:`SOURCES`.
    """
    if not isinstance(data, dict):
        raise CaseFormatError(f"{where}: a case is a JSON object")
    cid = data.get("id")
    if not isinstance(cid, str) or not cid:
        raise CaseFormatError(f"{where}: 'id' must be a non-empty string")
    where = f"case {cid}"
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise CaseFormatError(f"{where}: unknown key(s) {', '.join(unknown)}")
    rules = _strings(data.get("rules"), where, "rules")
    if not rules:
        raise CaseFormatError(f"{where}: 'rules' cites no rule")
    bad = [r for r in rules if not _RULE_ID.fullmatch(r)]
    if bad:
        raise CaseFormatError(f"{where}: {bad[0]!r} is not a rule id (C1, D19, ...)")
    source = _source(data, where, version)
    description = data.get("description")
    if not isinstance(description, str) or not description or "\n" in description:
        raise CaseFormatError(f"{where}: 'description' must be one line of text")
    position = data.get("position")
    new_game = data.get("new_game")
    if (position is None) == (new_game is None):
        raise CaseFormatError(f"{where}: give exactly one of 'position' and 'new_game'")
    if position is not None and not isinstance(position, str):
        raise CaseFormatError(f"{where}: 'position' must be a position text")
    if new_game is not None and (
        not isinstance(new_game, dict)
        or set(new_game) - {"players", "seed"}
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in new_game.values())
    ):
        raise CaseFormatError(f"{where}: 'new_game' is {{'players': n, 'seed': s}} (integers)")
    actions = _strings(data.get("actions", []), where, "actions")
    expect = {k: data[k] for k in EXPECTATIONS if k in data}
    if not expect:
        raise CaseFormatError(f"{where}: no expectation ({', '.join(EXPECTATIONS)})")
    for key in ("legal", "legal_includes", "legal_excludes"):
        if key in expect:
            _strings(expect[key], where, key)
    if "after" in expect and not isinstance(expect["after"], str):
        raise CaseFormatError(f"{where}: 'after' must be a position text")
    result = expect.get("result")
    if result is not None and (
        not isinstance(result, dict)
        or not isinstance(result.get("over"), bool)
        or set(result) - {"over", "winners", "scores"}
    ):
        raise CaseFormatError(f"{where}: 'result' is {{'over': bool, 'winners': [...], ...}}")
    obs = expect.get("observation")
    if obs is not None and (
        not isinstance(obs, dict)
        or not isinstance(obs.get("seat"), int)
        or not isinstance(obs.get("text"), str)
    ):
        raise CaseFormatError(f"{where}: 'observation' is {{'seat': n, 'text': ...}}")
    if "facts" in expect and not isinstance(expect["facts"], dict):
        raise CaseFormatError(f"{where}: 'facts' must be an object")
    if "twice" in expect and expect["twice"] is not True:
        raise CaseFormatError(f"{where}: 'twice' must be true when given")
    return Case(
        game=game,
        id=cid,
        rules=rules,
        description=description,
        position=position,
        new_game=new_game,
        actions=actions,
        expect=expect,
        source=source,
    )


def _source(data: dict[str, Any], where: str, version: int) -> str:
    """A case's ``source``: required from version 2, ``"rulebook"`` in version 1."""
    if version < 2:
        if "source" in data:
            raise CaseFormatError(f"{where}: 'source' is a field of version 2 files")
        return "rulebook"
    source = data.get("source")
    if source not in SOURCES:
        raise CaseFormatError(f"{where}: 'source' must be one of {', '.join(SOURCES)}")
    return str(source)


def read_file(text: str, name: str = "case file") -> list[Case]:
    """Read the cases of one case file's text.

    Raises:
        CaseFormatError: not JSON, another format or version, an unknown game, a bad case,
            or two cases with one id.
    """
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise CaseFormatError(f"{name}: not JSON ({e})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise CaseFormatError(f"{name}: not a {FORMAT} file")
    version = data.get("version")
    if version not in VERSIONS or isinstance(version, bool):
        expected = " or ".join(str(v) for v in VERSIONS)
        raise CaseFormatError(f"{name}: version {version!r}, expected {expected}")
    game = data.get("game")
    if game not in GAMES:
        raise CaseFormatError(f"{name}: unknown game {game!r} (one of {', '.join(GAMES)})")
    raw = data.get("cases")
    if not isinstance(raw, list):
        raise CaseFormatError(f"{name}: 'cases' must be a list")
    cases = [
        case_from_json(game, c, f"{name}, case {i + 1}", int(version)) for i, c in enumerate(raw)
    ]
    seen: set[str] = set()
    for c in cases:
        if c.id in seen:
            raise CaseFormatError(f"{name}: two cases have the id {c.id!r}")
        seen.add(c.id)
    return cases


def dump_file(game: str, cases: list[Case], rules_source: str) -> str:
    """The text of a case file: one key per line, each case's lists and objects on one
    line, so that a case reads (and diffs) as a block."""
    lines = [
        "{",
        f'  "format": {json.dumps(FORMAT)},',
        f'  "version": {VERSION},',
        f'  "game": {json.dumps(game)},',
        f'  "rules": {json.dumps(rules_source)},',
        '  "cases": [',
    ]
    for i, case in enumerate(cases):
        body = case.to_json()
        inner = ",\n".join(
            f"      {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in body.items()
        )
        lines.append("    {\n" + inner + "\n    }" + ("," if i < len(cases) - 1 else ""))
    lines += ["  ]", "}", ""]
    return "\n".join(lines)


def load_cases(game: str | None = None, rules: list[str] | None = None) -> list[Case]:
    """The shipped cases (package data), classic first, then Duel.

    Args:
        game: only this game's cases (``"splendor"`` / ``"classic"`` or ``"duel"`` /
            ``"splendor-duel"``); ``None`` for both.
        rules: only the cases that cite one of these rule ids (``["C8", "D19"]``, any case).

    Raises:
        ValueError: an unknown game.
        CaseFormatError: a shipped file that does not read (a packaging error).
    """
    from ..game import get_game

    names = list(GAMES)
    if game is not None:
        names = [get_game(game).name]  # ValueError for an unknown game, listing them
    folder = resources.files("splendor.conformance").joinpath("cases")
    cases: list[Case] = []
    for name in names:
        path = folder.joinpath(FILES[name])
        cases += read_file(path.read_text(encoding="utf-8"), FILES[name])
    if rules:
        wanted = {r.upper() for r in rules}
        cases = [c for c in cases if wanted & set(c.rules)]
    return cases


def rules_cited(cases: list[Case]) -> dict[str, int]:
    """How many cases cite each rule id, in rule order (C1, C2, …, D1, …)."""
    counts: dict[str, int] = {}
    for c in cases:
        for r in c.rules:
            counts[r] = counts.get(r, 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: (kv[0][0], int(kv[0][1:] or 0))))
