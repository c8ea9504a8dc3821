"""Write the conformance suite's case files (``src/splendor/conformance/cases/*.json``).

Every case below is written by hand from the rule it cites (``../shared/rules/*.md``): the
starting position is built with ``build_position`` (or is a new game), and the expected
result (the legal decisions, the position reached, the result) is spelled out here, field
by field, from the rule text. The engine is never asked what to expect: this script only
runs the finished cases against it (``--check``, the default) and writes the files
(``--write``) when they all pass, or with ``--force`` to record cases that the engine fails
(a bug to report).

    nice -n 19 .venv/bin/python tools/make_conformance.py            # check only
    nice -n 19 .venv/bin/python tools/make_conformance.py --write    # check, then write

The JSON files are the suite; this script is a convenience for writing them.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from splendor import classic, duel
from splendor.conformance import LocalEngine, check_case, describe_failure, rules_cited
from splendor.conformance.suite import FILES, Case, dump_file

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "src" / "splendor" / "conformance" / "cases"

CASES: dict[str, list[Case]] = {"splendor": [], "duel": []}
_COUNTERS: dict[str, int] = {}

RULING_RULES = {"C13", "C17", "C18", "D23", "D24", "D25"}
"""The rules that are the project's own rulings (``../shared/rules``, "Rulings")."""
RULING_CASES = {
    "C6-01", "C6-08",
    "C9-04", "C9-05", "C9-06", "C9-07", "C9-08", "C9-09", "C9-10", "C9-11", "C9-12",
    "C9-15", "C9-16", "C16-04",
    "D10-05", "D10-06", "D10-07", "D10-09",
}  # fmt: skip
"""Cases of published rules whose expectation rests on a ruling: C6's (no short take while
3 colours are left) and the payment rulings of C9 and D10 (the player chooses; the default
payment; when a choice is offered)."""


def source_of(cid: str, rules: list[str], description: str) -> str:
    """``"ruling"`` when the case rests on one of the project's rulings, else ``"rulebook"``."""
    ruling = RULING_RULES & set(rules) or cid in RULING_CASES or "ruling" in description
    return "ruling" if ruling else "rulebook"


def add(
    game: str,
    rules: list[str],
    description: str,
    *,
    position: str | None = None,
    new_game: dict[str, int] | None = None,
    actions: list[str] | tuple[str, ...] = (),
    **expect: Any,
) -> None:
    """Record one case; its id is its first rule and a number (``C8-03``)."""
    module = classic if game == "splendor" else duel
    main = rules[0]
    _COUNTERS[main] = _COUNTERS.get(main, 0) + 1
    cid = f"{main}-{_COUNTERS[main]:02d}"
    acts = tuple(str(module.Action.parse(a)) for a in actions)
    for key in ("legal", "legal_includes", "legal_excludes"):
        if key in expect:
            expect[key] = sorted(
                {str(module.Action.parse(a)) for a in expect[key]},
                key=lambda t: module.Action.parse(t).id,
            )
    for key in ("after",):
        if key in expect:
            expect[key] = module.State.from_text(expect[key]).to_text()
    CASES[game].append(
        Case(
            game=game,
            id=cid,
            rules=tuple(rules),
            description=description,
            position=position,
            new_game=new_game,
            actions=acts,
            expect=expect,
            source=source_of(cid, rules, description),
        )
    )


# --------------------------------------------------------------------------- text helpers


def fields(text: str) -> dict[str, str]:
    """The ``key=value`` fields of a position text (the game's name under ``""``)."""
    words = text.split()
    out = {"": words[0]}
    for w in words[1:]:
        k, _, v = w.partition("=")
        out[k] = v
    return out


def edit(text: str, **changes: object) -> str:
    """``text`` with some fields replaced (``None`` removes one). Not checked here: a step
    may leave a card nowhere until the next one places it; :func:`add` reads the end
    result (``State.from_text``), which refuses an impossible position."""
    f = fields(text)
    for k, v in changes.items():
        if v is None:
            f.pop(k, None)
        else:
            f[k] = str(v)
    return f[""] + " " + " ".join(f"{k}={v}" for k, v in f.items() if k)


def deck(text: str, level: int) -> list[str]:
    """The cards of a deck, top first."""
    group = fields(text)["decks"].split("/")[level - 1]
    return [] if group == "-" else group.split(",")


def _set_deck(text: str, level: int, cards: list[str]) -> str:
    groups = fields(text)["decks"].split("/")
    groups[level - 1] = ",".join(cards) if cards else "-"
    return "/".join(groups)


def refill(text: str, row_field: str, level: int, slot: int) -> str:
    """C10 / D11: the face-up slot takes the top card of its level's deck (or stays empty
    when the deck is empty); returns the text with ``faceup``/``pyramid`` and ``decks``
    changed."""
    rows = [r.split(",") for r in fields(text)[row_field].split("/")]
    cards = deck(text, level)
    rows[level - 1][slot - 1] = cards[0] if cards else "-"
    return edit(
        text,
        **{
            row_field: "/".join(",".join(r) for r in rows),
            "decks": _set_deck(text, level, cards[1:]),
        },
    )


def cfill(text: str, level: int, slot: int) -> str:
    return refill(text, "faceup", level, slot)


def dfill(text: str, level: int, slot: int) -> str:
    return refill(text, "pyramid", level, slot)


def draw_blind(text: str, level: int) -> tuple[str, str]:
    """C8 / D9: the top card of a deck, and the text without it."""
    cards = deck(text, level)
    return cards[0], edit(text, decks=_set_deck(text, level, cards[1:]))


def cturn(text: str, n: int = 1) -> dict[str, object]:
    """C5: ``n`` more turns completed; the next seat in order plays."""
    f = fields(text)
    players = int(f["players"])
    turn = int(f["turn"]) + n
    cur = (int(f.get("current", f["turn"])) + n) % players
    return {"turn": turn, "current": cur, "phase": "main"}


def dturn(text: str, again: bool = False) -> dict[str, object]:
    """Duel: the turn ends; the opponent plays, or the same seat with ``again`` (D13)."""
    f = fields(text)
    cur = int(f.get("current", "0"))
    return {
        "turn": int(f["turn"]) + 1,
        "current": cur if again else 1 - cur,
        "phase": "main",
        "replenished": None,
        "again": None,
    }


def level_of(game: str, card: int) -> int:
    if game == "splendor":
        return 1 if card < 40 else (2 if card < 70 else 3)
    return 1 if card < 30 else (2 if card < 54 else 3)


def observation(text: str, seat: int, keep: tuple[str, ...] = ()) -> str:
    """C16 / D22 by hand: the seat's view of a full position: ``observer=``, deck sizes
    instead of the deck order, no generator, and the other seats' blind reserves (``!id``)
    shown only by their level (``?level``), except those in ``keep`` (a card being bought
    is public)."""
    f = fields(text)
    game = f[""]
    out = dict(f)
    out["observer"] = str(seat)
    out["deck_sizes"] = "/".join(
        "0" if g == "-" else str(len(g.split(","))) for g in f["decks"].split("/")
    )
    del out["decks"]
    out.pop("rng", None)
    if "reserved" in f:
        groups = f["reserved"].split("/")
        for p, g in enumerate(groups):
            if p == seat or g == "-":
                continue
            groups[p] = ",".join(
                f"?{level_of(game, int(x[1:]))}" if x.startswith("!") and x not in keep else x
                for x in g.split(",")
            )
        out["reserved"] = "/".join(groups)
    line = game + " " + " ".join(f"{k}={v}" for k, v in out.items() if k)
    module = classic if game == "splendor" else duel
    return str(module.Observation.from_text(line).to_text())


# --------------------------------------------------------------------------- classic

TAKE3 = [
    "take W U G",
    "take W U R",
    "take W U K",
    "take W G R",
    "take W G K",
    "take W R K",
    "take U G R",
    "take U G K",
    "take U R K",
    "take G R K",
]
TAKE2 = ["take W W", "take U U", "take G G", "take R R", "take K K"]
RESERVE = [f"reserve {lv}.{s}" for lv in (1, 2, 3) for s in (1, 2, 3, 4)] + [
    "reserve d1",
    "reserve d2",
    "reserve d3",
]
RETURNS = {c: f"return {c}" for c in "WUGRK*"}
FACEUP = [[0, 8, 16, 24], [40, 48, 54, 60], [70, 76, 83, 87]]
"""The face-up cards of most classic cases. Level 1: 0 (white, R2 K1), 8 (blue, K3), 16
(green, R3), 24 (red, U2 G1); level 2: 40 (white 1pt, G3 R2 K2), 48 (blue 2pt, U5), 54
(green 2pt, G5), 60 (red 2pt, K5); level 3: 70 (white 3pt, U3 G3 R5 K3), 76 (blue 4pt, W7),
83 (red 4pt, G7), 87 (black 4pt, R7)."""
NOBLES = {2: [0, 3, 9], 3: [0, 3, 9, 1], 4: [0, 3, 9, 1, 2]}
"""Nobles 0 (W4 U4), 3 (G4 R4), 9 (G3 R3 K3), 1 (W4 K4), 2 (U4 G4)."""


def C(players: int = 2, **kw: Any) -> str:
    """A classic position built from ``kw`` (``classic.build_position``)."""
    kw.setdefault("faceup", FACEUP)
    kw.setdefault("nobles", NOBLES[players])
    kw.setdefault("seed", 1)
    return str(classic.build_position(players, **kw).to_text())


def classic_cases() -> None:
    g = "splendor"
    # ---- setup (C1-C5)
    for players, seed in ((2, 11), (3, 12), (4, 13)):
        gems = {2: 4, 3: 5, 4: 7}[players]
        add(
            g,
            ["C1", "C2", "C3", "C4", "C5"],
            f"a new {players}-player game: {gems} tokens per gem colour and 5 gold, 4 face-up "
            f"cards per level, decks 36/26/16, {players + 1} nobles, seat 0 to play",
            new_game={"players": players, "seed": seed},
            facts={
                "players": players,
                "supply": [gems] * 5 + [5],
                "faceup_levels": [[1] * 4, [2] * 4, [3] * 4],
                "deck_sizes": [36, 26, 16],
                "nobles_shown": players + 1,
                "turn": 0,
                "current": 0,
                "phase": "main",
                "empty_hands": True,
                "scores": [0] * players,
            },
        )
    B = C()
    add(
        g,
        ["C1", "C7"],
        "2 players: after a seat takes two white, 2 white are left, so nobody may take two "
        "white; three colours including white are still allowed",
        position=B,
        actions=["take W W"],
        legal=TAKE3 + [t for t in TAKE2 if t != "take W W"] + RESERVE,
    )
    add(
        g,
        ["C1", "C7"],
        "3 players: 5 white at the start; after two are taken 3 are left, too few for two more",
        position=C(3),
        actions=["take W W"],
        legal_excludes=["take W W"],
        legal_includes=["take U U", "take W U G"],
    )
    add(
        g,
        ["C1", "C7"],
        "4 players: 7 white at the start; after two are taken 5 are left, so two more may be taken",
        position=C(4),
        actions=["take W W"],
        legal_includes=["take W W"],
    )
    start = C(tokens=["2*", "2*"])
    t = cfill(start, 1, 1)
    t = cfill(t, 1, 2)
    add(
        g,
        ["C8", "C1", "C10"],
        "there are 5 gold: with 4 held, the next reserve takes the last one and the reserve "
        "after it takes none (still allowed)",
        position=start,
        actions=["reserve 1.1", "reserve 1.2"],
        after=edit(t, tokens="3*/2*", reserved="0/8", **cturn(start, 2)),
    )
    # ---- C2: the card data
    add(
        g,
        ["C2", "C9"],
        "a card's bonus is its printed colour: a white bonus does not pay a blue cost (card "
        "48 costs 5 blue)",
        position=C(purchased=[[1], []], tokens=["4U", "-"]),
        legal_excludes=["buy 2.2"],
    )
    add(
        g,
        ["C2", "C9"],
        "a blue bonus (card 9) pays one blue token of card 48's cost of 5 blue",
        position=C(purchased=[[9], []], tokens=["4U", "-"]),
        legal_includes=["buy 2.2"],
    )
    add(
        g,
        ["C2"],
        "prestige points are the printed ones: cards 7, 45 and 73 are worth 1, 3 and 5",
        position=C(purchased=[[7, 45, 73], []]),
        result={"over": False, "winners": [], "scores": [9, 0]},
    )
    start = C(purchased=[[9], []], tokens=["4U", "-"])
    add(
        g,
        ["C2", "C9", "C10"],
        "buying card 48 (level 2, blue, 2 points, 5 blue) with a blue bonus and 4 blue tokens",
        position=start,
        actions=["buy 2.2"],
        after=edit(cfill(start, 2, 2), tokens="-/-", purchased="9,48/-", **cturn(start)),
        result={"over": False, "winners": [], "scores": [2, 0]},
    )
    # ---- C5: seat order
    start = C(3)
    add(
        g,
        ["C5", "C6"],
        "3 players play in seat order 0, 1, 2, then seat 0 again",
        position=start,
        actions=["take W U G"] * 3,
        after=edit(start, tokens="1W1U1G/1W1U1G/1W1U1G", **cturn(start, 3)),
    )
    start = C(4, turn=3)
    add(
        g,
        ["C5", "C7"],
        "4 players: after seat 3 plays, seat 0 plays",
        position=start,
        actions=["take R R"],
        after=edit(start, tokens="-/-/-/2R", turn=4, current=0),
    )
    # ---- C6: three different colours
    add(
        g,
        ["C6", "C7", "C8"],
        "the opening choices: 10 ways to take 3 colours, 5 to take 2 of one colour, 15 "
        "reserves; no 2-colour or 1-token take while 3 or more colours are available (ruling)",
        position=B,
        legal=TAKE3 + TAKE2 + RESERVE,
    )
    add(
        g,
        ["C6"],
        "taking white, blue and green moves one of each from the supply to the player",
        position=B,
        actions=["take W U G"],
        after=edit(B, tokens="1W1U1G/-", **cturn(B)),
    )
    two = C(turn=1, tokens=["4W4U2G", "2G"])
    add(
        g,
        ["C6", "C7"],
        "only red and black are left in the supply: one of each may be taken (or two of a "
        "pile of 4); no 3-colour take",
        position=two,
        legal=["take R K", "take R R", "take K K"] + RESERVE,
    )
    add(
        g,
        ["C6"],
        "taking the two colours left",
        position=two,
        actions=["take R K"],
        after=edit(two, tokens="4W4U2G/2G1R1K", **cturn(two)),
    )
    one = C(turn=1, tokens=["4W4U2G", "2G1R4K"])
    add(
        g,
        ["C6", "C7"],
        "only red is left (3 tokens): one red may be taken, not two (the pile is under 4)",
        position=one,
        legal=["take R", "buy 1.2"] + RESERVE,
    )
    add(
        g,
        ["C6", "C7"],
        "only red is left, 4 of them: one red may be taken, or two from the pile of 4",
        position=C(turn=1, tokens=["4W4U2G", "2G4K"]),
        legal=["take R", "take R R", "buy 1.2"] + RESERVE,
    )
    add(
        g,
        ["C6"],
        "taking the one token of the only colour left",
        position=one,
        actions=["take R"],
        after=edit(one, tokens="4W4U2G/2G2R4K", **cturn(one)),
    )
    add(
        g,
        ["C6", "C7"],
        "white, blue and green are left, one token each: the only take is all three (ruling: "
        "no 2-colour take while 3 colours are available)",
        position=C(tokens=["3W3U3G", "4R4K"]),
        legal=["take W U G", "buy 1.4"] + RESERVE,
    )
    add(
        g,
        ["C6", "C7"],
        "no white left: the 3-colour takes are the 4 without white",
        position=C(tokens=["4W", "-"]),
        legal=[t for t in TAKE3 if "W" not in t] + [t for t in TAKE2 if t != "take W W"] + RESERVE,
    )
    add(
        g,
        ["C6", "C8"],
        "no gem left in the supply, only gold: no take at all (gold is never taken); buying "
        "and reserving remain",
        position=C(tokens=["4W4U2G", "2G4R4K"]),
        legal=["buy 1.4"] + RESERVE,
    )
    # ---- C7: two of one colour
    add(
        g,
        ["C7"],
        "two of a colour only from a pile of 4 or more: red (4) yes, black (3) no",
        position=C(tokens=["-", "1K"]),
        legal_includes=["take R R"],
        legal_excludes=["take K K"],
    )
    start = C(tokens=["-", "1K"])
    add(
        g,
        ["C7"],
        "taking two red from a pile of 4",
        position=start,
        actions=["take R R"],
        after=edit(start, tokens="2R/1K", **cturn(start)),
    )
    add(
        g,
        ["C7", "C1"],
        "4 players: 7 red, two taken twice leaves 3: a third seat may not take two red",
        position=C(4),
        actions=["take R R", "take R R"],
        legal_excludes=["take R R"],
        legal_includes=["take W W"],
    )
    # ---- C8: reserving
    add(
        g,
        ["C8", "C10"],
        "reserving a face-up card: the player holds it and a gold; the slot is refilled from "
        "the deck",
        position=B,
        actions=["reserve 3.1"],
        after=edit(cfill(B, 3, 1), tokens="1*/-", reserved="70/-", **cturn(B)),
    )
    top, rest = draw_blind(B, 2)
    add(
        g,
        ["C8"],
        "reserving blind: the top card of the level-2 deck, face down, and a gold",
        position=B,
        actions=["reserve d2"],
        after=edit(rest, tokens="1*/-", reserved=f"!{top}/-", **cturn(B)),
    )
    add(
        g,
        ["C8"],
        "a player holding 3 reserved cards cannot reserve",
        position=C(reserved=[[41, 42, 43], []]),
        legal=TAKE3 + TAKE2,
    )
    start = C(tokens=["-", "5*"])
    add(
        g,
        ["C8"],
        "no gold left: reserving is still allowed, without gold",
        position=start,
        actions=["reserve 1.1"],
        after=edit(cfill(start, 1, 1), reserved="0/-", **cturn(start)),
    )
    add(
        g,
        ["C8", "C11"],
        "reserving with 10 tokens: the gold makes 11, and one token goes back (any colour, "
        "gold included)",
        position=C(tokens=["3W3U2G2R", "-"]),
        actions=["reserve 2.1"],
        legal=[RETURNS[c] for c in "WUGR*"],
    )
    start = C(reserved=[[41, 42, 43], []], tokens=["4R", "-"], purchased=[[25], []])
    add(
        g,
        ["C8", "C9"],
        "a reserved card leaves the hand only by being bought (card 42, 5 red, with a red "
        "bonus and 4 red); the others keep their order",
        position=start,
        actions=["buy r2"],
        after=edit(start, tokens=None, reserved="41,43/-", purchased="25,42/-", **cturn(start)),
    )
    add(
        g,
        ["C8"],
        "with 2 reserved cards a player may reserve a third",
        position=C(reserved=[[41, 43], []]),
        legal_includes=["reserve 1.1", "reserve d3"],
    )
    # the level-1 deck is empty: every other level-1 card is bought
    E1 = C(
        purchased=[
            [1, 2, 3, 4, 5, 6, 7, 17, 18, 19, 20, 21, 22, 23, 32, 33, 34, 35],
            [9, 10, 11, 12, 13, 14, 15, 25, 26, 27, 28, 29, 30, 31, 36, 37, 38, 39],
        ]
    )
    add(
        g,
        ["C8"],
        "the level-1 deck is empty: no blind reserve from it; the other decks and the face-up "
        "cards can still be reserved",
        position=E1,
        legal_excludes=["reserve d1"],
        legal_includes=["reserve d2", "reserve d3", "reserve 1.1"],
    )
    # ---- C9: buying
    start = C(tokens=["2R1K", "-"])
    add(
        g,
        ["C9", "C10"],
        "buying card 0 (2 red, 1 black) with exactly those tokens; they go back to the supply",
        position=start,
        actions=["buy 1.1"],
        after=edit(cfill(start, 1, 1), tokens=None, purchased="0/-", **cturn(start)),
    )
    start = C(purchased=[[25, 26], []], tokens=["1K", "-"])
    add(
        g,
        ["C9"],
        "two red bonuses pay card 0's 2 red; only 1 black token is spent",
        position=start,
        actions=["buy 1.1"],
        after=edit(cfill(start, 1, 1), tokens=None, purchased="0,25,26/-", **cturn(start)),
    )
    start = C(purchased=[[32, 33, 34], []])
    add(
        g,
        ["C9"],
        "three black bonuses make card 8 (3 black) free: bought with no token",
        position=start,
        actions=["buy 1.2"],
        after=edit(cfill(start, 1, 2), purchased="8,32,33,34/-", **cturn(start)),
    )
    start = C(tokens=["1R1K1*", "-"])
    add(
        g,
        ["C9", "C7"],
        "a gold replaces the missing red of card 0; no payment choice when the gold only "
        "covers the shortfall; card 8 (3 black) is out of reach with 1 black and 1 gold",
        position=start,
        legal=TAKE3 + ["take W W", "take U U", "take G G"] + RESERVE + ["buy 1.1"],
    )
    add(
        g,
        ["C9"],
        "the default payment spends coloured tokens first, gold for the shortfall; the gold "
        "goes back to the supply",
        position=start,
        actions=["buy 1.1"],
        after=edit(cfill(start, 1, 1), tokens=None, purchased="0/-", **cturn(start)),
    )
    choice = C(tokens=["2R1K2*", "-"])
    add(
        g,
        ["C9", "C7"],
        "spare gold: a payment choice is offered for cards whose default payment spends "
        "coloured tokens (1.1, 1.3), not where gold must cover all that is missing (1.2)",
        position=choice,
        legal=TAKE3
        + ["take W W", "take U U", "take G G"]
        + RESERVE
        + ["buy 1.1", "buy 1.1 choose", "buy 1.2", "buy 1.3", "buy 1.3 choose"],
    )
    add(
        g,
        ["C9"],
        "choosing the payment of card 0 (2 red, 1 black) with 2 red, 1 black, 2 gold: a gold "
        "may replace a red or the black, or the rest is paid",
        position=choice,
        actions=["buy 1.1 choose"],
        legal=["gold R", "gold K", "pay"],
    )
    add(
        g,
        ["C9"],
        "gold may be spent where coloured tokens would do (ruling): two gold for the two red, "
        "then no gold is left, only paying",
        position=choice,
        actions=["buy 1.1 choose", "gold R", "gold R"],
        legal=["pay"],
    )
    add(
        g,
        ["C9", "C10"],
        "paying card 0 with 2 gold and 1 black keeps the 2 red tokens",
        position=choice,
        actions=["buy 1.1 choose", "gold R", "gold R", "pay"],
        after=edit(cfill(choice, 1, 1), tokens="2R/-", purchased="0/-", **cturn(choice)),
    )
    short = C(tokens=["1R1K2*", "-"])
    add(
        g,
        ["C9"],
        "one red short of card 0 with 2 gold: paying the rest is not possible yet (a red is "
        "missing), a gold may go to red or black",
        position=short,
        actions=["buy 1.1 choose"],
        legal=["gold R", "gold K"],
    )
    add(
        g,
        ["C9"],
        "after a gold for the black, the last gold must go to the missing red",
        position=short,
        actions=["buy 1.1 choose", "gold K"],
        legal=["gold R"],
    )
    add(
        g,
        ["C9"],
        "paying card 0 with 2 gold and 1 red keeps the black token",
        position=short,
        actions=["buy 1.1 choose", "gold K", "gold R", "pay"],
        after=edit(cfill(short, 1, 1), tokens="1K/-", purchased="0/-", **cturn(short)),
    )
    start = C(reserved=[[41], []], tokens=["2W3U3R", "-"])
    add(
        g,
        ["C9", "C8"],
        "buying one's reserved card (41: 2 white, 3 blue, 3 red); no face-up slot changes",
        position=start,
        actions=["buy r1"],
        after=edit(start, tokens=None, reserved=None, purchased="41/-", **cturn(start)),
        result={"over": False, "winners": [], "scores": [1, 0]},
    )
    start = C(reserved=[["!42"], []], tokens=["4R", "-"], purchased=[[25], []])
    add(
        g,
        ["C9", "C8"],
        "buying a card reserved blind",
        position=start,
        actions=["buy r1"],
        after=edit(start, tokens=None, reserved=None, purchased="25,42/-", **cturn(start)),
    )
    add(
        g,
        ["C9"],
        "a reserved card may be bought with a chosen payment when gold is spare",
        position=C(reserved=[[42], []], tokens=["4R1*", "-"], purchased=[[25], []]),
        legal_includes=["buy r1", "buy r1 choose"],
    )
    add(
        g,
        ["C9"],
        "no payment choice for a card the bonuses make free, even with gold in hand",
        position=C(purchased=[[32, 33, 34], []], tokens=["1*", "-"]),
        legal_includes=["buy 1.2"],
        legal_excludes=["buy 1.2 choose"],
    )
    add(
        g,
        ["C9"],
        "a card one token out of reach cannot be bought (card 48: 5 blue, 4 held, no gold)",
        position=C(tokens=["4U", "-"]),
        legal_excludes=["buy 2.2", "buy 2.2 choose"],
    )
    # ---- C10: refilling
    start = C(tokens=["2R1K", "-"])
    t = cfill(start, 1, 1)
    t2 = cfill(t, 1, 1)
    add(
        g,
        ["C10", "C8"],
        "a slot is refilled from the deck each time: seat 1 reserves the card that replaced "
        "the one seat 0 bought, and the next deck card takes its place",
        position=start,
        actions=["buy 1.1", "reserve 1.1"],
        after=edit(
            t2,
            tokens="-/1*",
            purchased="0/-",
            reserved=f"-/{fields(t)['faceup'].split(',')[0]}",
            **cturn(start, 2),
        ),
    )
    add(
        g,
        ["C10", "C8"],
        "the level-1 deck is empty: a reserved face-up level-1 card leaves its slot empty",
        position=E1,
        actions=["reserve 1.1"],
        after=edit(
            E1,
            faceup="-,8,16,24/40,48,54,60/70,76,83,87",
            tokens="1*/-",
            reserved="0/-",
            **cturn(E1),
        ),
    )
    add(
        g,
        ["C10"],
        "an empty face-up slot can be neither bought nor reserved",
        position=E1,
        actions=["reserve 1.1"],
        legal_excludes=["reserve 1.1", "buy 1.1", "reserve d1"],
        legal_includes=["reserve 1.2"],
    )
    # ---- C11: the token limit
    nine = C(tokens=["3W3U3G", "-"])
    add(
        g,
        ["C11", "C6"],
        "taking 3 tokens with 9 held makes 12: the player returns tokens of a colour they hold",
        position=nine,
        actions=["take W U G"],
        legal=[RETURNS[c] for c in "WUG"],
    )
    add(
        g,
        ["C11"],
        "with 11 tokens after one return, another token must go back",
        position=nine,
        actions=["take W U G", "return U"],
        legal=[RETURNS[c] for c in "WUG"],
        facts={"phase": "return", "current": 0},
    )
    add(
        g,
        ["C11"],
        "returning two tokens, even of a colour just taken, down to exactly 10; then the turn "
        "passes",
        position=nine,
        actions=["take W U G", "return W", "return W"],
        after=edit(nine, tokens="2W4U4G/-", **cturn(nine)),
    )
    start = C(tokens=["3W3U2G", "-"])
    add(
        g,
        ["C11", "C7"],
        "ending the turn with exactly 10 tokens returns nothing",
        position=start,
        actions=["take R R"],
        after=edit(start, tokens="3W3U2G2R/-", **cturn(start)),
    )
    start = C(tokens=["3W3U2G2R", "-"])
    add(
        g,
        ["C11", "C8"],
        "gold counts toward the 10: after a reserve the gold just taken may be the one returned",
        position=start,
        actions=["reserve 1.1", "return *"],
        after=edit(cfill(start, 1, 1), reserved="0/-", **cturn(start)),
    )
    add(
        g,
        ["C11", "C7"],
        "taking two red with 9 tokens makes 11: one token goes back",
        position=nine,
        actions=["take R R"],
        legal=[RETURNS[c] for c in "WUGR"],
    )
    # ---- C12: nobles
    start = C(purchased=[[1, 2, 3, 4, 9, 10, 11], []], tokens=["3K", "-"])
    add(
        g,
        ["C12", "C3"],
        "buying the fourth blue card (with 4 white) brings noble 0 (4 white, 4 blue) at once: "
        "3 points",
        position=start,
        actions=["buy 1.2"],
        after=edit(
            cfill(start, 1, 2),
            tokens=None,
            purchased="1,2,3,4,8,9,10,11/-",
            visits="0/-",
            nobles="-,3,9",
            **cturn(start),
        ),
        result={"over": False, "winners": [], "scores": [3, 0]},
    )
    two_nobles = C(
        nobles=[0, 2, 9],
        purchased=[[1, 2, 3, 4, 9, 10, 11, 17, 18, 19, 20], []],
        tokens=["3K", "-"],
    )
    add(
        g,
        ["C12"],
        "a purchase qualifies the player for two nobles (0: 4 white 4 blue; 2: 4 blue 4 "
        "green): the player chooses one",
        position=two_nobles,
        actions=["buy 1.2"],
        legal=["noble 1", "noble 2"],
    )
    after_choice = edit(
        cfill(two_nobles, 1, 2),
        tokens=None,
        purchased="1,2,3,4,8,9,10,11,17,18,19,20/-",
        visits="2/-",
        nobles="0,-,9",
        **cturn(two_nobles),
    )
    add(
        g,
        ["C12"],
        "one noble per turn: the chosen one visits, the other stays in the row",
        position=two_nobles,
        actions=["buy 1.2", "noble 2"],
        after=after_choice,
        result={"over": False, "winners": [], "scores": [3, 0]},
    )
    add(
        g,
        ["C12"],
        "the noble left behind visits at the end of the player's next turn, whatever it was",
        position=two_nobles,
        actions=["buy 1.2", "noble 2", "take W U G", "take R R"],
        after=edit(
            after_choice,
            tokens="2R/1W1U1G",
            visits="0,2/-",
            nobles="-,-,9",
            **cturn(two_nobles, 3),
        ),
        result={"over": False, "winners": [], "scores": [6, 0]},
    )
    start = C(purchased=[[1, 2, 3, 4, 9, 10, 11], []], tokens=["4U2R1K", "-"])
    add(
        g,
        ["C12"],
        "tokens never count for nobles: 3 blue bonuses and 4 blue tokens do not bring noble 0",
        position=start,
        actions=["buy 1.1"],
        after=edit(
            cfill(start, 1, 1), tokens="4U/-", purchased="0,1,2,3,4,9,10,11/-", **cturn(start)
        ),
        result={"over": False, "winners": [], "scores": [0, 0]},
    )
    # ---- C13: returns before nobles
    waiting = C(
        nobles=[0, None, 9],
        purchased=[[1, 2, 3, 4, 9, 10, 11, 12, 17, 18, 19, 20], []],
        visits=[[2], []],
        tokens=["3W3U3G", "-"],
    )
    add(
        g,
        ["C13", "C11", "C12"],
        "a player due a noble who ends with 12 tokens returns tokens first; the noble comes after",
        position=waiting,
        actions=["take W U G"],
        legal=[RETURNS[c] for c in "WUG"],
    )
    add(
        g,
        ["C13", "C12"],
        "after the returns, the waiting noble visits and the turn ends",
        position=waiting,
        actions=["take W U G", "return W", "return U"],
        after=edit(waiting, tokens="3W3U4G/-", visits="0,2/-", nobles="-,-,9", **cturn(waiting)),
        result={"over": False, "winners": [], "scores": [6, 0]},
    )
    waiting10 = C(
        nobles=[0, None, 9],
        purchased=[[1, 2, 3, 4, 9, 10, 11, 12, 17, 18, 19, 20], []],
        visits=[[2], []],
        tokens=["3W3U3G1R", "-"],
    )
    add(
        g,
        ["C13", "C8", "C11"],
        "a reservation that makes 11 tokens for a player due a noble: the return comes first",
        position=waiting10,
        actions=["reserve 1.1"],
        legal=[RETURNS[c] for c in "WUGR*"],
    )
    two_waiting = C(
        nobles=[None, 6, 8],
        purchased=[[1, 2, 3, 9, 10, 11, 17, 18, 19, 25, 26, 27, 32, 33, 34], []],
        visits=[[5], []],
        tokens=["3W3U3G", "-"],
    )
    add(
        g,
        ["C13", "C12", "C11"],
        "returns first, then the choice between two nobles (6 and 8) that both qualify",
        position=two_waiting,
        actions=["take W U G", "return W", "return U"],
        legal=["noble 2", "noble 3"],
    )
    # ---- C14: the end of the game
    fin = C(purchased=[[42, 43, 45, 73], []], tokens=["3W", "-"])
    add(
        g,
        ["C14"],
        "seat 0 reaches 16 points: the round goes on, seat 1 still plays",
        position=fin,
        actions=["buy 3.2"],
        result={"over": False, "winners": [], "scores": [16, 0]},
        legal_includes=["take W U G"],
    )
    add(
        g,
        ["C14", "C15"],
        "the round ends after the last seat: the game is over and seat 0 wins",
        position=fin,
        actions=["buy 3.2", "take W U G"],
        result={"over": True, "winners": [0], "scores": [16, 0]},
    )
    add(
        g,
        ["C14"],
        "the last seat reaching 15 ends the game at once",
        position=C(turn=1, purchased=[[], [42, 43, 45, 73]], tokens=["-", "3W"]),
        actions=["buy 3.2"],
        result={"over": True, "winners": [1], "scores": [0, 16]},
    )
    fin3 = C(3, turn=1, purchased=[[], [42, 43, 45, 73], []], tokens=["-", "3W", "-"])
    add(
        g,
        ["C14", "C5"],
        "3 players: seat 1 reaches 16; seat 2 still plays",
        position=fin3,
        actions=["buy 3.2"],
        facts={"current": 2, "phase": "main"},
        result={"over": False, "winners": [], "scores": [0, 16, 0]},
    )
    add(
        g,
        ["C14"],
        "3 players: after seat 2 the game is over; seat 0 does not play again",
        position=fin3,
        actions=["buy 3.2", "take W U G"],
        result={"over": True, "winners": [1], "scores": [0, 16, 0]},
    )
    add(
        g,
        ["C14", "C12"],
        "a noble's 3 points count: 12 points and a noble make 15, the final round",
        position=C(purchased=[[42, 43, 45, 73, 9, 10, 11], []], tokens=["3K", "-"]),
        actions=["buy 1.2", "take W U G"],
        result={"over": True, "winners": [0], "scores": [15, 0]},
    )
    add(
        g,
        ["C14"],
        "14 points is not the end: after the round the game goes on",
        position=C(purchased=[[42, 43, 44, 71], []], tokens=["3W", "-"]),
        actions=["buy 3.2", "take W U G"],
        result={"over": False, "winners": [], "scores": [14, 0]},
        facts={"current": 0, "turn": 2},
    )
    add(
        g,
        ["C14", "C15"],
        "in the final round the last seat passes the first (17 to 16) and wins",
        position=C(purchased=[[42, 43, 45, 73], [79, 80, 81]], tokens=["3W", "4G"]),
        actions=["buy 3.2", "buy 3.3"],
        result={"over": True, "winners": [1], "scores": [16, 17]},
    )
    # ---- C15: winners
    add(
        g,
        ["C15", "C14"],
        "a tie on points goes to the fewer purchased cards (4 against 5)",
        position=C(purchased=[[42, 43, 45, 73], [77, 79, 81]], tokens=["3W", "4U"]),
        actions=["buy 3.2", "buy 2.2"],
        result={"over": True, "winners": [1], "scores": [16, 16]},
    )
    add(
        g,
        ["C15"],
        "a tie on points and on cards is a shared victory",
        position=C(purchased=[[42, 43, 45, 73], [1, 77, 79, 81]], tokens=["3W", "4U"]),
        actions=["buy 3.2", "buy 2.2"],
        result={"over": True, "winners": [0, 1], "scores": [16, 16]},
    )
    add(
        g,
        ["C15"],
        "reserved cards do not count in the tie-break: 4 bought and 3 reserved beat 5 bought",
        position=C(
            purchased=[[42, 43, 45, 73], [77, 79, 81]],
            reserved=[[], [41, 44, 46]],
            tokens=["3W", "4U"],
        ),
        actions=["buy 3.2", "buy 2.2"],
        result={"over": True, "winners": [1], "scores": [16, 16]},
    )
    add(
        g,
        ["C15", "C14"],
        "3 players: seat 0 ended its turn on 16 points; seat 2, the last seat, reaches 16 "
        "with fewer cards and wins",
        position=C(
            3, turn=2, purchased=[[42, 43, 45, 71, 73], [], [77, 79, 81]], tokens=["-", "-", "4U"]
        ),
        actions=["buy 2.2"],
        result={"over": True, "winners": [2], "scores": [16, 0, 16]},
    )
    # ---- C16: what a seat may see
    after = edit(rest, tokens="1*/-", reserved=f"!{top}/-", **cturn(B))  # reserve d2 above
    add(
        g,
        ["C16", "C8"],
        "a blind reserve is hidden from the opponent: only its level shows, and no deck order",
        position=B,
        actions=["reserve d2"],
        observation={"seat": 1, "text": observation(after, 1)},
    )
    add(
        g,
        ["C16"],
        "a player sees their own blind reserve",
        position=B,
        actions=["reserve d2"],
        observation={"seat": 0, "text": observation(after, 0)},
    )
    after = edit(cfill(B, 3, 1), tokens="1*/-", reserved="70/-", **cturn(B))
    add(
        g,
        ["C16"],
        "a card reserved face up stays public",
        position=B,
        actions=["reserve 3.1"],
        observation={"seat": 1, "text": observation(after, 1)},
    )
    start = C(reserved=[["!42"], []], tokens=["4R1*", "-"], purchased=[[25], []])
    paying = edit(start, phase="payment", payment="r1")
    add(
        g,
        ["C16", "C9"],
        "a blind-reserved card being paid for is being bought: it is public",
        position=start,
        actions=["buy r1 choose"],
        observation={"seat": 1, "text": observation(paying, 1, keep=("!42",))},
    )
    start = C(3, turn=2, reserved=[["!41"], ["!75"], []])
    add(
        g,
        ["C16"],
        "3 players: seat 2 sees neither of the others' blind reserves",
        position=start,
        observation={"seat": 2, "text": observation(start, 2)},
    )
    # ---- C17: stuck players pass
    stuck_faceup = [[7, 34, 10, 14], [40, 48, 54, 60], [70, 76, 83, 87]]
    stuck = C(
        faceup=stuck_faceup,
        tokens=["4W4U2G", "2G4R4K"],
        reserved=[[41, 44, 46], [47, 49, 50]],
        purchased=[[], [63]],
    )
    add(
        g,
        ["C17"],
        "no gem in the supply, 3 reserved cards, nothing affordable: the only decision is to pass",
        position=stuck,
        legal=["pass"],
    )
    add(
        g,
        ["C17"],
        "after one pass the game goes on, and the next stuck seat passes too",
        position=stuck,
        actions=["pass"],
        legal=["pass"],
        result={"over": False, "winners": [], "scores": [0, 3]},
    )
    add(
        g,
        ["C17", "C15"],
        "every seat passed in one round: the game ends at once, scored as usual",
        position=stuck,
        actions=["pass", "pass"],
        result={"over": True, "winners": [1], "scores": [0, 3]},
    )
    add(
        g,
        ["C17"],
        "pass is never legal while another decision is",
        position=C(tokens=["4W4U2G", "2G4R4K"]),
        legal_excludes=["pass"],
    )
    unstuck = C(
        faceup=stuck_faceup,
        tokens=["4W4U2G", "2G4R4K"],
        reserved=[[41, 44, 46], [47, 49]],
        purchased=[[], [63]],
    )
    top1, rest1 = draw_blind(unstuck, 1)
    add(
        g,
        ["C17", "C8", "C11"],
        "a pass then a reserve: the passes in a row start again from zero",
        position=unstuck,
        actions=["pass", "reserve d1", "return *"],
        after=edit(rest1, reserved=f"41,44,46/47,49,!{top1}", **cturn(unstuck, 2)),
        legal=["pass"],
    )
    # ---- C18: replays
    add(
        g,
        ["C18", "C4"],
        "the same seed deals the same game, deck order and nobles included",
        new_game={"players": 3, "seed": 99},
        twice=True,
        facts={"turn": 0, "deck_sizes": [36, 26, 16]},
    )
    add(
        g,
        ["C18"],
        "a seed and a list of decisions reproduce a game exactly",
        new_game={"players": 2, "seed": 7},
        actions=["take W U G", "reserve 1.1", "reserve d2", "take R R"],
        twice=True,
        facts={"turn": 4, "current": 0},
    )
    t = cfill(B, 1, 1)
    card_a = fields(t)["faceup"].split(",")[0]
    t = cfill(t, 1, 1)
    card_c, t = draw_blind(t, 1)
    add(
        g,
        ["C18", "C8", "C10"],
        "a position fixes the deck order: five decisions reach exactly one position",
        position=B,
        actions=["reserve 1.1", "reserve 1.1", "reserve d1", "take W U G", "take R R"],
        after=edit(
            t,
            tokens="2R2*/1W1U1G1*",
            reserved=f"0,!{card_c}/{card_a}",
            **cturn(B, 5),
        ),
        twice=True,
    )


# --------------------------------------------------------------------------- duel

PYRAMID = [[1, 6, 11, 16, 21], [31, 35, 39, 43], [55, 57, 59]]
"""The pyramid of most Duel cases. Level 1: 1 (white, U G R K), 6 (blue, W G R K), 11 (green,
W U R K), 16 (red, W U G K), 21 (black, W U G R), none with an ability; level 2: 31 (white
x2, U5 G2), 35 (blue x2, G5 R2), 39 (green x2, R5 K2), 43 (red x2, W2 K5); level 3: 55
(white 4pt, W6 U2 K2), 57 (blue 4pt, W2 U6 G2), 59 (green 4pt, U2 G6 R2)."""
FULL = "WUGRK/P*WUG/RKP*W/UGRK*/WUGRK"
"""A full board (all 25 tokens, the bag empty)."""
RESERVES = (
    [f"reserve 1.{s}" for s in range(1, 6)]
    + [f"reserve 2.{s}" for s in range(1, 5)]
    + [f"reserve 3.{s}" for s in range(1, 4)]
    + ["reserve d1", "reserve d2", "reserve d3"]
)
ROYALS = ["royal 1", "royal 2", "royal 3", "royal 4"]


def with_l1(card: int) -> list[list[int]]:
    """The usual pyramid with ``card`` in level-1 slot 1."""
    return [[card, 6, 11, 16, 21], PYRAMID[1], PYRAMID[2]]


def D(**kw: Any) -> str:
    """A Duel position built from ``kw`` (``duel.build_position``)."""
    kw.setdefault("pyramid", PYRAMID)
    kw.setdefault("seed", 1)
    return str(duel.build_position(**kw).to_text())


def duel_cases() -> None:
    g = "duel"
    # ---- setup (D1-D5, D25)
    for seed in (21, 22, 23):
        add(
            g,
            ["D1", "D2", "D3", "D4", "D5"],
            "a new game: the 25 tokens (4 per gem colour, 2 pearls, 3 gold) all on the board, "
            "the bag empty, a pyramid of 5/4/3 cards, decks 25/20/10, 4 royal cards, seat 1 "
            "holds a privilege, seat 0 plays",
            new_game={"players": 2, "seed": seed},
            facts={
                "board_counts": [4, 4, 4, 4, 4, 2, 3],
                "empty_cells": 0,
                "bag": [0] * 7,
                "pyramid_levels": [[1] * 5, [2] * 4, [3] * 3],
                "deck_sizes": [25, 20, 10],
                "royals_available": [1, 2, 3, 4],
                "privileges": [0, 1],
                "turn": 0,
                "current": 0,
                "phase": "main",
                "empty_hands": True,
                "scores": [0, 0],
            },
        )
    add(
        g,
        ["D25"],
        "the turn cap is a host setting: a new game has none",
        new_game={"players": 2, "seed": 24},
        facts={"turn_cap": None},
    )
    # ---- D2 / D7: replenishing in spiral order
    spiral = D(board=".UGRK/WUGRK/P*.*P/WUGRK/*GRK.", tokens=["1U", "-"], privileges=[0, 0])
    add(
        g,
        ["D2", "D7"],
        "replenishing with 2 white in the bag: they go to the first empty cells in spiral "
        "order (c3, then a1), e5 stays empty; the opponent takes a privilege",
        position=spiral,
        actions=["replenish"],
        after=edit(spiral, board="WUGRK/WUGRK/P*W*P/WUGRK/*GRK.", privileges="0/1", replenished=1),
    )
    spiral2 = D(board="WUGRK/P*WUG/R.P*W/UG.K*/WUG.K", tokens=["1K", "-"], privileges=[0, 0])
    add(
        g,
        ["D2", "D7"],
        "2 red in the bag and empty cells c4, b3, d5: c4 (spiral step 2) and b3 (step 4) are "
        "filled, d5 (step 10) is not",
        position=spiral2,
        actions=["replenish"],
        after=edit(spiral2, board="WUGRK/P*WUG/RRP*W/UGRK*/WUG.K", privileges="0/1", replenished=1),
    )
    # ---- D6: privileges
    priv = D(board="...../...../..W../..*../..P..", privileges=[1, 0])
    add(
        g,
        ["D6", "D8", "D9"],
        "a privilege takes any gem or pearl on the board, never the gold",
        position=priv,
        legal=["privilege c3", "privilege c5", "replenish", "take c3", "take c5", "gold c4"],
    )
    add(
        g,
        ["D6"],
        "spending the privilege: it goes back beside the board, the token to the player; the "
        "mandatory action is still owed",
        position=priv,
        actions=["privilege c3"],
        after=edit(priv, board="...../...../...../..*../..P..", tokens="1W/-", privileges=None),
        legal=["replenish", "take c5", "gold c4"],
    )
    two_priv = D(board="...../...../..W../..U../..G..", privileges=[2, 0])
    add(
        g,
        ["D6"],
        "spending two privileges takes two tokens, one each",
        position=two_priv,
        actions=["privilege c3", "privilege c5"],
        after=edit(
            two_priv, board="...../...../...../..U../.....", tokens="1W1G/-", privileges=None
        ),
        legal=["replenish", "take c4"],
    )
    add(
        g,
        ["D6", "D7"],
        "privileges come before replenishing: once the board is replenished, none may be "
        "spent this turn",
        position=D(board="...../...../..W../..U../..G..", privileges=[1, 0]),
        actions=["replenish"],
        legal_excludes=["privilege c3", "privilege c4", "privilege c5", "replenish"],
        legal_includes=["take c3 c4 c5"],
    )
    # ---- D7: replenishing
    add(
        g,
        ["D7"],
        "an empty bag cannot replenish the board",
        position=D(board=FULL, privileges=[0, 0]),
        legal_excludes=["replenish"],
        legal_includes=["take a1 b1 c1"],
    )
    sp = D(board=".UGRK/WUGRK/P*.*P/WUGRK/*GRK.", tokens=["1U", "-"], privileges=[3, 0])
    add(
        g,
        ["D7", "D18"],
        "replenishing when the player holds all 3 privileges: the opponent takes one of them",
        position=sp,
        actions=["replenish"],
        after=edit(sp, board="WUGRK/WUGRK/P*W*P/WUGRK/*GRK.", privileges="2/1", replenished=1),
    )
    sp = D(board=".UGRK/WUGRK/P*.*P/WUGRK/*GRK.", tokens=["1U", "-"], privileges=[0, 3])
    add(
        g,
        ["D7", "D18"],
        "replenishing when the opponent already holds all 3 privileges: nothing more",
        position=sp,
        actions=["replenish"],
        after=edit(sp, board="WUGRK/WUGRK/P*W*P/WUGRK/*GRK.", replenished=1),
    )
    sp = D(board=".UGRK/WUGRK/P*.*P/WUGRK/*GRK.", tokens=["1U", "-"], privileges=[1, 2])
    add(
        g,
        ["D18", "D7"],
        "none beside the board: the opponent's privilege comes from the player",
        position=sp,
        actions=["replenish"],
        after=edit(sp, board="WUGRK/WUGRK/P*W*P/WUGRK/*GRK.", privileges="0/3", replenished=1),
    )
    # ---- D8: taking tokens
    line = D(board="...../...../..W../..U../..G..", privileges=[0, 0])
    add(
        g,
        ["D8"],
        "three tokens in a column: each alone, each adjacent pair, or all three",
        position=line,
        legal=[
            "replenish",
            "take c3",
            "take c4",
            "take c5",
            "take c3 c4",
            "take c4 c5",
            "take c3 c4 c5",
        ],
    )
    add(
        g,
        ["D8"],
        "taking three of different colours: no privilege changes hands",
        position=line,
        actions=["take c3 c4 c5"],
        after=edit(line, board="...../...../...../...../.....", tokens="1W1U1G/-", **dturn(line)),
    )
    add(
        g,
        ["D8"],
        "an empty cell between two tokens is a gap: they cannot be taken together",
        position=D(board="...../...../..W../...../..G..", privileges=[0, 0]),
        legal=["replenish", "take c3", "take c5"],
    )
    add(
        g,
        ["D8", "D9"],
        "a gold between two tokens is a gap too, and gold is never taken this way",
        position=D(board="...../...../..W../..*../..G..", privileges=[0, 0]),
        legal=["replenish", "take c3", "take c5", "gold c4"],
    )
    add(
        g,
        ["D8"],
        "both diagonals through the centre are lines; cells two apart are not",
        position=D(board="...../.W.R./..U../.K.G./.....", privileges=[0, 0]),
        legal=[
            "replenish",
            "take b2",
            "take d2",
            "take c3",
            "take b4",
            "take d4",
            "take b2 c3",
            "take c3 d4",
            "take d2 c3",
            "take c3 b4",
            "take b2 c3 d4",
            "take d2 c3 b4",
        ],
    )
    add(
        g,
        ["D8"],
        "cells a knight's move apart are not in a line",
        position=D(board="..W../...../.U.../...../.....", privileges=[0, 0]),
        legal=["replenish", "take c1", "take b3"],
    )
    add(
        g,
        ["D8"],
        "a full row of 5: at most 3 adjacent tokens at a time (5 singles, 4 pairs, 3 triples)",
        position=D(board="WUGRK/...../...../...../.....", privileges=[0, 0]),
        legal=[
            "replenish",
            "take a1",
            "take b1",
            "take c1",
            "take d1",
            "take e1",
            "take a1 b1",
            "take b1 c1",
            "take c1 d1",
            "take d1 e1",
            "take a1 b1 c1",
            "take b1 c1 d1",
            "take c1 d1 e1",
        ],
    )
    www = D(board="...../...../WWW../...../.....", privileges=[0, 0])
    add(
        g,
        ["D8"],
        "taking 3 tokens of one colour gives the opponent a privilege",
        position=www,
        actions=["take a3 b3 c3"],
        after=edit(
            www,
            board="...../...../...../...../.....",
            tokens="3W/-",
            privileges="0/1",
            **dturn(www),
        ),
    )
    add(
        g,
        ["D8"],
        "two of one colour give nothing",
        position=www,
        actions=["take a3 b3"],
        after=edit(www, board="...../...../..W../...../.....", tokens="2W/-", **dturn(www)),
    )
    pp = D(board="...../...../..P../..P../.....", privileges=[0, 0])
    add(
        g,
        ["D8"],
        "taking both pearls gives the opponent a privilege",
        position=pp,
        actions=["take c3 c4"],
        after=edit(
            pp, board="...../...../...../...../.....", tokens="2P/-", privileges="0/1", **dturn(pp)
        ),
    )
    pwu = D(board="...../...../..P../..W../..U..", privileges=[0, 0])
    add(
        g,
        ["D8"],
        "one pearl with two other tokens gives nothing",
        position=pwu,
        actions=["take c3 c4 c5"],
        after=edit(pwu, board="...../...../...../...../.....", tokens="1W1U1P/-", **dturn(pwu)),
    )
    w3 = D(board="...../...../WWW../...../.....", privileges=[3, 0])
    add(
        g,
        ["D8", "D18"],
        "3 of one colour while the player holds all 3 privileges: the opponent takes one of them",
        position=w3,
        actions=["take a3 b3 c3"],
        after=edit(
            w3, board="...../...../...../...../.....", tokens="3W/-", privileges="2/1", **dturn(w3)
        ),
    )
    w3 = D(board="...../...../WWW../...../.....", privileges=[0, 3])
    add(
        g,
        ["D8", "D18"],
        "3 of one colour while the opponent holds all 3 privileges: nothing more",
        position=w3,
        actions=["take a3 b3 c3"],
        after=edit(w3, board="...../...../...../...../.....", tokens="3W/-", **dturn(w3)),
    )
    add(
        g,
        ["D8", "D9"],
        "a board with gold only: no token can be taken, the gold goes with a reservation",
        position=D(board="...../...../..*../...../.....", privileges=[0, 0]),
        legal=["replenish", "gold c3"],
    )
    # ---- D9: gold and reservations
    res = D(board="...../...../..W../..*../..G..", privileges=[0, 0])
    add(
        g,
        ["D9"],
        "after taking the gold, the player reserves any pyramid card or the top of any deck",
        position=res,
        actions=["gold c4"],
        legal=RESERVES,
    )
    add(
        g,
        ["D9", "D11"],
        "reserving a pyramid card: it goes to the hand with the gold, the slot is refilled "
        "from its deck",
        position=res,
        actions=["gold c4", "reserve 2.1"],
        after=edit(
            dfill(res, 2, 1),
            board="...../...../..W../...../..G..",
            tokens="1*/-",
            reserved="31/-",
            **dturn(res),
        ),
    )
    top3, rest3 = draw_blind(res, 3)
    add(
        g,
        ["D9"],
        "reserving blind: the top card of the level-3 deck",
        position=res,
        actions=["gold c4", "reserve d3"],
        after=edit(
            rest3,
            board="...../...../..W../...../..G..",
            tokens="1*/-",
            reserved=f"!{top3}/-",
            **dturn(res),
        ),
    )
    add(
        g,
        ["D9"],
        "a player with 3 reserved cards cannot take the gold",
        position=D(
            board="...../...../..W../..*../..G..", privileges=[0, 0], reserved=[[0, 2, 5], []]
        ),
        legal=["replenish", "take c3", "take c5"],
    )
    add(
        g,
        ["D9"],
        "a reserved card's points do not count until it is bought",
        position=res,
        actions=["gold c4", "reserve 3.1"],
        result={"over": False, "winners": [], "scores": [0, 0]},
    )
    add(
        g,
        ["D9", "D20"],
        "a reservation with 10 tokens makes 11 with the gold: one goes back, gold included",
        position=D(
            board="...../...../..W../..*../..G..", privileges=[0, 0], tokens=["2W2U2G2R2K", "-"]
        ),
        actions=["gold c4", "reserve 1.1"],
        legal=["return W", "return U", "return G", "return R", "return K", "return *"],
    )
    # ---- D10: buying
    exact = D(board="W..../P*WUG/RKP*W/UGRK*/WUGRK", tokens=["1U1G1R1K", "-"], privileges=[0, 0])
    add(
        g,
        ["D10", "D11"],
        "buying card 1 (blue, green, red, black) with exactly those tokens; the pyramid slot "
        "is refilled",
        position=exact,
        actions=["buy 1.1"],
        after=edit(dfill(exact, 1, 1), tokens=None, purchased="1/-", **dturn(exact)),
    )
    add(
        g,
        ["D10", "D7"],
        "spent tokens go into the bag, so the next player may replenish",
        position=exact,
        actions=["buy 1.1"],
        legal_includes=["replenish"],
    )
    pearl = dict(pyramid=with_l1(0), purchased=[[7, 9, 12, 14], []], privileges=[0, 0])
    add(
        g,
        ["D10"],
        "bonuses never pay pearls: card 0 (2 blue, 2 green, 1 pearl) with 2 blue and 2 green "
        "bonuses still needs a pearl",
        position=D(**pearl),
        legal_excludes=["buy 1.1"],
    )
    add(
        g,
        ["D10"],
        "with the pearl in hand, card 0 can be bought",
        position=D(tokens=["1P", "-"], **pearl),
        legal_includes=["buy 1.1"],
    )
    add(
        g,
        ["D10"],
        "a gold replaces a pearl; no payment choice when the gold only covers the shortfall",
        position=D(tokens=["1*", "-"], **pearl),
        legal_includes=["buy 1.1"],
        legal_excludes=["buy 1.1 choose"],
    )
    choose = D(tokens=["1P1*", "-"], **pearl)
    add(
        g,
        ["D10"],
        "choosing the payment of card 0 with a pearl and a gold: the gold may replace the pearl",
        position=choose,
        actions=["buy 1.1 choose"],
        legal=["gold P", "pay"],
    )
    add(
        g,
        ["D10", "D13"],
        "paying card 0's pearl with gold keeps the pearl; card 0's `again` gives the player "
        "another turn",
        position=choose,
        actions=["buy 1.1 choose", "gold P", "pay"],
        after=edit(
            dfill(choose, 1, 1),
            tokens="1P/-",
            purchased="0,7,9,12,14/-",
            **dturn(choose, again=True),
        ),
    )
    start = D(purchased=[[7, 9], []], tokens=["1G1R1K", "-"], privileges=[0, 0])
    add(
        g,
        ["D10"],
        "bonuses beyond a cost give nothing back: two blue bonuses for card 1's one blue",
        position=start,
        actions=["buy 1.1"],
        after=edit(dfill(start, 1, 1), tokens=None, purchased="1,7,9/-", **dturn(start)),
    )
    start = D(tokens=["1U1G1R1*", "-"], privileges=[0, 0])
    add(
        g,
        ["D10"],
        "the default payment spends gold only for the missing black",
        position=start,
        actions=["buy 1.1"],
        after=edit(dfill(start, 1, 1), tokens=None, purchased="1/-", **dturn(start)),
    )
    start = D(reserved=[[4], []], tokens=["2G3R", "-"], privileges=[0, 0])
    add(
        g,
        ["D10", "D9"],
        "buying one's reserved card; its point now counts",
        position=start,
        actions=["buy r1"],
        after=edit(start, tokens=None, reserved=None, purchased="4/-", **dturn(start)),
        result={"over": False, "winners": [], "scores": [1, 0]},
    )
    start = D(pyramid=with_l1(18), purchased=[[47], []], tokens=["1K", "-"], privileges=[0, 0])
    add(
        g,
        ["D3", "D10"],
        "card 47 carries 2 black bonuses: card 18 (3 black) costs 1 black token",
        position=start,
        actions=["buy 1.1"],
        after=edit(dfill(start, 1, 1), tokens=None, purchased="18,47/-", **dturn(start)),
    )
    # ---- D11: an empty deck
    l3 = D(
        reserved=[[54, 56, 58], [60, 61, 62]],
        purchased=[[4, "64W", "65W"], [63, 66]],
        royals=[[1], []],
        tokens=["3W2U2K", "-"],
        privileges=[0, 0],
    )
    add(
        g,
        ["D11", "D10"],
        "the level-3 deck is empty: a bought level-3 card leaves its slot empty",
        position=l3,
        actions=["buy 3.1"],
        after=edit(
            l3,
            pyramid="1,6,11,16,21/31,35,39,43/-,57,59",
            tokens=None,
            purchased="4,55,64W,65W/63,66",
            **dturn(l3),
        ),
        result={"over": False, "winners": [], "scores": [11, 10]},
    )
    l3b = D(
        board="..*../...../...../...../.....",
        reserved=[[54, 56], [60, 61, 62]],
        purchased=[[4, "64W", "65W"], [58, 63, 66]],
        royals=[[1], []],
        privileges=[0, 0],
    )
    add(
        g,
        ["D11", "D9"],
        "the level-3 deck is empty: a reserved level-3 pyramid card leaves its slot empty",
        position=l3b,
        actions=["gold c1", "reserve 3.2"],
        after=edit(
            l3b,
            board="...../...../...../...../.....",
            pyramid="1,6,11,16,21/31,35,39,43/55,-,59",
            tokens="1*/-",
            reserved="54,56,57/60,61,62",
            **dturn(l3b),
        ),
    )
    # ---- D12: forced replenish
    forced = D(board="...../.*.../..*../...*./.....", reserved=[[0, 2, 5], []], privileges=[0, 0])
    add(
        g,
        ["D12", "D7"],
        "no mandatory action possible (gold only on the board, 3 reserved, nothing "
        "affordable): the player must replenish",
        position=forced,
        legal=["replenish"],
    )
    add(
        g,
        ["D12", "D7", "D2"],
        "the forced replenish fills every empty cell and gives the opponent a privilege",
        position=forced,
        actions=["replenish"],
        facts={
            "empty_cells": 0,
            "bag": [0] * 7,
            "privileges": [0, 1],
            "phase": "main",
            "current": 0,
        },
        legal_excludes=["replenish"],
    )
    add(
        g,
        ["D12", "D6"],
        "a privilege cannot help (it never takes gold): replenishing is still the only choice",
        position=D(
            board="...../.*.../..*../...*./.....", reserved=[[0, 2, 5], []], privileges=[1, 0]
        ),
        legal=["replenish"],
    )
    # ---- D13 / D23: again
    again = D(
        pyramid=with_l1(5),
        board="...../...../..W../...../.....",
        tokens=["2G2R1P", "-"],
        privileges=[0, 0],
    )
    add(
        g,
        ["D13"],
        "card 5 has `again`: after buying it, the same player plays another turn",
        position=again,
        actions=["buy 1.1"],
        after=edit(dfill(again, 1, 1), tokens=None, purchased="5/-", **dturn(again, again=True)),
    )
    add(
        g,
        ["D13", "D23"],
        "after the extra turn, the opponent plays",
        position=again,
        actions=["buy 1.1", "take c3"],
        facts={"current": 1, "turn": 2, "phase": "main"},
    )
    add(
        g,
        ["D23", "D13", "D6", "D7"],
        "the extra turn is a full turn: privileges and replenishing are allowed again",
        position=D(
            pyramid=with_l1(5),
            board="...../...../..W../...../.....",
            tokens=["2G2R1P", "-"],
            privileges=[1, 0],
        ),
        actions=["replenish", "buy 1.1"],
        legal_includes=["replenish", "privilege c3"],
        facts={"current": 0, "turn": 1},
    )
    add(
        g,
        ["D23", "D20", "D13"],
        "the extra turn ends like any turn: above 10 tokens, tokens go back",
        position=D(
            pyramid=with_l1(5),
            board="...../...../..W../..U../..G..",
            purchased=[[12, 14, 17, 19], []],
            tokens=["3W3U2K1P1*", "-"],
            privileges=[0, 0],
        ),
        actions=["buy 1.1", "take c3 c4 c5"],
        legal=["return W", "return U", "return G", "return K", "return *"],
    )
    # ---- D14: jokers
    joker = dict(pyramid=with_l1(25), tokens=["3W1P", "-"], privileges=[0, 0])
    add(
        g,
        ["D14"],
        "a joker card (25) cannot be bought by a player with no coloured bonus",
        position=D(**{**joker, "tokens": ["4W1P", "-"]}),
        legal_excludes=["buy 1.1", "buy 1.1 choose"],
    )
    add(
        g,
        ["D14"],
        "a card with no bonus (29) does not make a joker buyable",
        position=D(purchased=[[29], []], **{**joker, "tokens": ["4W1P", "-"]}),
        legal_excludes=["buy 1.1", "buy 1.1 choose"],
    )
    start = D(purchased=[[1], []], **joker)
    add(
        g,
        ["D14"],
        "with white cards only, the joker becomes white",
        position=start,
        actions=["buy 1.1"],
        after=edit(dfill(start, 1, 1), tokens=None, purchased="1,25W/-", **dturn(start)),
    )
    two = D(purchased=[[1, 7], []], **joker)
    add(
        g,
        ["D14"],
        "with white and blue cards, the player chooses the joker's colour",
        position=two,
        actions=["buy 1.1"],
        legal=["joker W", "joker U"],
    )
    add(
        g,
        ["D14"],
        "the joker attached to blue",
        position=two,
        actions=["buy 1.1", "joker U"],
        after=edit(dfill(two, 1, 1), tokens=None, purchased="1,7,25U/-", **dturn(two)),
    )
    with46 = [[1, 6, 11, 16, 21], [46, 35, 39, 43], [55, 57, 59]]
    add(
        g,
        ["D14", "D3"],
        "a joker attached to white adds 1 white bonus (its count stays 1, though card 31 "
        "carries 2): card 46 (4 white, 3 green) still needs a white token",
        position=D(
            pyramid=with46, purchased=[[31, "25W"], []], tokens=["3G", "-"], privileges=[0, 0]
        ),
        legal_excludes=["buy 2.1", "buy 2.1 choose"],
    )
    add(
        g,
        ["D14", "D3"],
        "with that white token, card 46 can be bought",
        position=D(
            pyramid=with46, purchased=[[31, "25W"], []], tokens=["1W3G", "-"], privileges=[0, 0]
        ),
        legal_includes=["buy 2.1"],
    )
    add(
        g,
        ["D14", "D21"],
        "a joker's point counts for its colour: 9 red points and joker 27 on red make 10, a "
        "victory",
        position=D(
            pyramid=with_l1(27),
            purchased=[[19, 44, 45, 61], []],
            tokens=["2U1K1P", "-"],
            privileges=[0, 0],
        ),
        actions=["buy 1.1"],
        result={"over": True, "winners": [0], "scores": [10, 0]},
    )
    # ---- D15: token
    tok = dict(pyramid=with_l1(2), tokens=["2R2K", "-"], privileges=[0, 0])
    start = D(board="W..../...../..W../...../.....", **tok)
    add(
        g,
        ["D15"],
        "card 2 (white, `token`): with two white on the board the player chooses which",
        position=start,
        actions=["buy 1.1"],
        legal=["token a1", "token c3"],
    )
    add(
        g,
        ["D15"],
        "taking the white on c3",
        position=start,
        actions=["buy 1.1", "token c3"],
        after=edit(
            dfill(start, 1, 1),
            board="W..../...../...../...../.....",
            tokens="1W/-",
            purchased="2/-",
            **dturn(start),
        ),
    )
    start = D(board="...../...../..W../...../.....", **tok)
    add(
        g,
        ["D15"],
        "one white on the board: it is taken at once",
        position=start,
        actions=["buy 1.1"],
        after=edit(
            dfill(start, 1, 1),
            board="...../...../...../...../.....",
            tokens="1W/-",
            purchased="2/-",
            **dturn(start),
        ),
    )
    start = D(board="...../...../..U../...../.....", **tok)
    add(
        g,
        ["D15"],
        "no white on the board: nothing is taken",
        position=start,
        actions=["buy 1.1"],
        after=edit(dfill(start, 1, 1), tokens=None, purchased="2/-", **dturn(start)),
    )
    # ---- D16: privilege
    pv = [[1, 6, 11, 16, 21], [32, 35, 39, 43], [55, 57, 59]]
    for before, after_p, text in (
        ([0, 0], "1/0", "card 32 (`privilege`) gives a privilege from beside the board"),
        ([2, 1], "3/0", "none beside the board: the privilege comes from the opponent"),
        ([3, 0], "3/0", "holding all 3 already: nothing happens"),
    ):
        start = D(pyramid=pv, tokens=["4W2K1P", "-"], privileges=before)
        add(
            g,
            ["D16"] if before == [0, 0] else ["D16", "D18"],
            text,
            position=start,
            actions=["buy 2.1"],
            after=edit(
                dfill(start, 2, 1),
                tokens=None,
                purchased="32/-",
                privileges=after_p,
                **dturn(start),
            ),
        )
    # ---- D17: steal
    st = [[1, 6, 11, 16, 21], [30, 35, 39, 43], [55, 57, 59]]
    start = D(pyramid=st, tokens=["4U3R", "1W1P1*"], privileges=[0, 0])
    add(
        g,
        ["D17"],
        "card 30 (`steal`): the player chooses a gem or pearl of the opponent's, never gold",
        position=start,
        actions=["buy 2.1"],
        legal=["steal W", "steal P"],
    )
    add(
        g,
        ["D17"],
        "stealing the pearl",
        position=start,
        actions=["buy 2.1", "steal P"],
        after=edit(dfill(start, 2, 1), tokens="1P/1W1*", purchased="30/-", **dturn(start)),
    )
    start = D(pyramid=st, tokens=["4U3R", "2*"], privileges=[0, 0])
    add(
        g,
        ["D17"],
        "an opponent holding only gold: nothing is stolen",
        position=start,
        actions=["buy 2.1"],
        after=edit(dfill(start, 2, 1), tokens="-/2*", purchased="30/-", **dturn(start)),
    )
    start = D(pyramid=st, tokens=["4U3R", "2K1*"], privileges=[0, 0])
    add(
        g,
        ["D17"],
        "an opponent holding one colour (and gold): that colour is stolen at once",
        position=start,
        actions=["buy 2.1"],
        after=edit(dfill(start, 2, 1), tokens="1K/1K1*", purchased="30/-", **dturn(start)),
    )
    # ---- D19: royal cards
    crown = D(pyramid=with_l1(13), purchased=[[3, 8], []], tokens=["3R", "1W1U"], privileges=[0, 0])
    add(
        g,
        ["D19"],
        "a purchase bringing the crowns to 3: the player takes one of the 4 royal cards",
        position=crown,
        actions=["buy 1.1"],
        legal=ROYALS,
    )
    base_after = edit(dfill(crown, 1, 1), tokens="-/1W1U", purchased="3,8,13/-")
    add(
        g,
        ["D19", "D4"],
        "royal card 1 is worth 3 points",
        position=crown,
        actions=["buy 1.1", "royal 1"],
        after=edit(base_after, royals="1/-", **dturn(crown)),
        result={"over": False, "winners": [], "scores": [3, 0]},
    )
    add(
        g,
        ["D19", "D4", "D13"],
        "royal card 2 is worth 2 points and gives another turn",
        position=crown,
        actions=["buy 1.1", "royal 2"],
        after=edit(base_after, royals="2/-", **dturn(crown, again=True)),
        result={"over": False, "winners": [], "scores": [2, 0]},
    )
    add(
        g,
        ["D19", "D4", "D16"],
        "royal card 3 is worth 2 points and a privilege",
        position=crown,
        actions=["buy 1.1", "royal 3"],
        after=edit(base_after, royals="3/-", privileges="1/0", **dturn(crown)),
    )
    add(
        g,
        ["D19", "D4", "D17"],
        "royal card 4 is worth 2 points and steals a token",
        position=crown,
        actions=["buy 1.1", "royal 4"],
        legal=["steal W", "steal U"],
    )
    add(
        g,
        ["D19"],
        "reaching 6 crowns: a second royal card, one of the 3 left",
        position=D(
            pyramid=with_l1(13),
            purchased=[[3, 8, 18, 23, 33], []],
            royals=[[1], []],
            tokens=["2R", "-"],
            privileges=[0, 0],
        ),
        actions=["buy 1.1"],
        legal=["royal 2", "royal 3", "royal 4"],
    )
    add(
        g,
        ["D19"],
        "a royal card the opponent holds is not offered",
        position=D(
            pyramid=with_l1(13),
            purchased=[[3, 8], [41, 45, 49]],
            royals=[[], [4]],
            tokens=["3R", "-"],
            privileges=[0, 0],
        ),
        actions=["buy 1.1"],
        legal=["royal 1", "royal 2", "royal 3"],
    )
    start = D(
        pyramid=with_l1(13),
        purchased=[[3, 8, 18], []],
        royals=[[1], []],
        tokens=["2R", "-"],
        privileges=[0, 0],
    )
    add(
        g,
        ["D19"],
        "from 3 to 4 crowns: no royal card (the next comes at 6)",
        position=start,
        actions=["buy 1.1"],
        after=edit(dfill(start, 1, 1), tokens=None, purchased="3,8,13,18/-", **dturn(start)),
    )
    start = D(
        pyramid=with_l1(13),
        purchased=[[3, 8, 18, 23, 33], [41, 45, 49, 54, 56]],
        royals=[[1], [2, 4]],
        tokens=["2R", "-"],
        privileges=[0, 0],
    )
    add(
        g,
        ["D19", "D16"],
        "reaching 6 crowns with one royal card left: it is taken (3: a privilege)",
        position=start,
        actions=["buy 1.1"],
        after=edit(
            dfill(start, 1, 1),
            tokens=None,
            purchased="3,8,13,18,23,33/41,45,49,54,56",
            royals="1,3/2,4",
            privileges="1/0",
            **dturn(start),
        ),
    )
    # ---- D20: the token limit
    nine = D(board="...../...../..W../..U../..G..", tokens=["2W2U2R1K1P1*", "-"], privileges=[0, 0])
    add(
        g,
        ["D20"],
        "taking 3 tokens with 9 held: the player returns tokens of any colour held (pearl, "
        "gold included)",
        position=nine,
        actions=["take c3 c4 c5"],
        legal=["return W", "return U", "return G", "return R", "return K", "return P", "return *"],
    )
    add(
        g,
        ["D20"],
        "returning two tokens (one just taken) down to 10 ends the turn",
        position=nine,
        actions=["take c3 c4 c5", "return W", "return *"],
        after=edit(
            nine, board="...../...../...../...../.....", tokens="2W3U1G2R1K1P/-", **dturn(nine)
        ),
    )
    add(
        g,
        ["D20", "D7"],
        "returned tokens go into the bag: the opponent may then replenish",
        position=D(
            board="....K/P*WUG/RKP*W/UGRK*/.....", tokens=["2W2U2G2R1K", "-"], privileges=[0, 0]
        ),
        actions=["take c2 d2 e2", "return W", "return W"],
        legal_includes=["replenish"],
        facts={"current": 1, "bag": [2, 0, 0, 0, 0, 0, 0]},
    )
    add(
        g,
        ["D20", "D17"],
        "a steal that brings the player to 11 tokens: one goes back",
        position=D(
            pyramid=st,
            purchased=[[5, 7, 8, 9, 15, 17, 18], []],
            tokens=["2W1U2G2K2P1*", "1R"],
            privileges=[0, 0],
        ),
        actions=["buy 2.1"],
        legal=["return W", "return U", "return G", "return R", "return K", "return P", "return *"],
    )
    # ---- D21: victory
    add(
        g,
        ["D21"],
        "20 prestige points at the end of the turn win",
        position=D(purchased=[[4, 9, 61, 63, 66], []], tokens=["4W1U1K1*", "-"], privileges=[0, 0]),
        actions=["buy 3.1"],
        result={"over": True, "winners": [0], "scores": [20, 0]},
    )
    add(
        g,
        ["D21"],
        "19 points do not",
        position=D(purchased=[[4, 61, 63, 66], []], tokens=["4W2U1K1*", "-"], privileges=[0, 0]),
        actions=["buy 3.1"],
        result={"over": False, "winners": [], "scores": [19, 0]},
    )
    add(
        g,
        ["D21"],
        "10 crowns win (card 18 brings 9 to 10), whatever the points",
        position=D(
            pyramid=with_l1(18),
            purchased=[[3, 8, 13, 54, 56, 58], []],
            royals=[[1, 3], []],
            tokens=["3K", "-"],
            privileges=[0, 0],
        ),
        actions=["buy 1.1"],
        result={"over": True, "winners": [0], "scores": [14, 0]},
    )
    add(
        g,
        ["D21"],
        "9 crowns do not",
        position=D(
            purchased=[[3, 8, 13, 54, 56, 58], []],
            royals=[[1, 3], []],
            tokens=["1U1G1R1K", "-"],
            privileges=[0, 0],
        ),
        actions=["buy 1.1"],
        result={"over": False, "winners": [], "scores": [14, 0]},
    )
    add(
        g,
        ["D21"],
        "10 points on cards of one colour win (red: 9, then card 19)",
        position=D(
            pyramid=with_l1(19),
            purchased=[[44, 60, 61], []],
            tokens=["2W3U", "-"],
            privileges=[0, 0],
        ),
        actions=["buy 1.1"],
        result={"over": True, "winners": [0], "scores": [10, 0]},
    )
    add(
        g,
        ["D21", "D3"],
        "a card with no bonus (29) adds to no colour: 9 red points stay 9",
        position=D(
            pyramid=with_l1(29),
            purchased=[[44, 60, 61], []],
            tokens=["1R1P", "-"],
            privileges=[0, 0],
        ),
        actions=["buy 1.1"],
        result={"over": False, "winners": [], "scores": [12, 0]},
    )
    add(
        g,
        ["D21", "D13", "D14"],
        "a victory ends the game at once, even with `again` due (joker 65 on red: 12 red points)",
        position=D(
            pyramid=[[1, 6, 11, 16, 21], [31, 35, 39, 43], [65, 57, 59]],
            purchased=[[44, 60, 61], []],
            tokens=["4R1*", "-"],
            privileges=[0, 0],
        ),
        actions=["buy 3.1"],
        result={"over": True, "winners": [0], "scores": [12, 0]},
    )
    add(
        g,
        ["D21", "D19"],
        "a royal card's points count: 17 points, a third crown and royal card 1 make 20",
        position=D(
            pyramid=with_l1(13),
            purchased=[[3, 8, 29, 61, 63, 66], []],
            tokens=["2R", "-"],
            privileges=[0, 0],
        ),
        actions=["buy 1.1", "royal 1"],
        result={"over": True, "winners": [0], "scores": [20, 0]},
    )
    # ---- D22: what a seat may see
    after = edit(
        rest3,
        board="...../...../..W../...../..G..",
        tokens="1*/-",
        reserved=f"!{top3}/-",
        **dturn(res),
    )
    add(
        g,
        ["D22", "D9"],
        "a blind reserve is hidden from the opponent (only its level shows), and so is the "
        "deck order",
        position=res,
        actions=["gold c4", "reserve d3"],
        observation={"seat": 1, "text": observation(after, 1)},
    )
    add(
        g,
        ["D22"],
        "a player sees their own blind reserve",
        position=res,
        actions=["gold c4", "reserve d3"],
        observation={"seat": 0, "text": observation(after, 0)},
    )
    after = edit(
        dfill(res, 2, 1),
        board="...../...../..W../...../..G..",
        tokens="1*/-",
        reserved="31/-",
        **dturn(res),
    )
    add(
        g,
        ["D22"],
        "a card reserved from the pyramid stays public",
        position=res,
        actions=["gold c4", "reserve 2.1"],
        observation={"seat": 1, "text": observation(after, 1)},
    )
    hidden = D(reserved=[[], ["!60"]], turn=3, current=1, privileges=[0, 1])
    add(
        g,
        ["D22"],
        "seat 0 sees seat 1's blind reserve as its level only",
        position=hidden,
        observation={"seat": 0, "text": observation(hidden, 0)},
    )
    # ---- D24: replays
    add(
        g,
        ["D24"],
        "the same seed deals the same game: board, pyramid, decks, generator",
        new_game={"players": 2, "seed": 42},
        twice=True,
        facts={"turn": 0, "empty_cells": 0},
    )
    add(
        g,
        ["D24", "D7"],
        "a position fixes the bag's draws: replenishing twice from it gives one board",
        position=D(board="...../...../..W../..U../..G..", privileges=[0, 0]),
        actions=["replenish"],
        twice=True,
        facts={"empty_cells": 0},
    )
    add(
        g,
        ["D24", "D10", "D7"],
        "after a purchase puts 4 tokens in the bag, the opponent's replenish draws the same "
        "board every time from this position",
        position=exact,
        actions=["buy 1.1", "replenish"],
        twice=True,
        facts={"empty_cells": 0, "privileges": [1, 0]},
    )
    # ---- D25: the turn cap
    add(
        g,
        ["D25"],
        "the turn that reaches the host's cap ends the game with no winner",
        position=D(
            board="...../...../..W../..U../..G..", privileges=[0, 0], turn_cap=10, turn=9, current=1
        ),
        actions=["take c3"],
        result={"over": True, "winners": [], "scores": [0, 0]},
    )
    add(
        g,
        ["D25"],
        "before the cap the game goes on",
        position=D(board="...../...../..W../..U../..G..", privileges=[0, 0], turn_cap=10, turn=8),
        actions=["take c3"],
        result={"over": False, "winners": [], "scores": [0, 0]},
    )
    add(
        g,
        ["D25", "D13"],
        "an extra turn counts toward the cap",
        position=D(
            pyramid=with_l1(5),
            board="...../...../..W../...../.....",
            tokens=["2G2R1P", "-"],
            privileges=[0, 0],
            turn_cap=10,
            turn=9,
        ),
        actions=["buy 1.1"],
        result={"over": True, "winners": [], "scores": [0, 0]},
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="write the case files")
    parser.add_argument("--force", action="store_true", help="write even if cases fail")
    args = parser.parse_args()
    classic_cases()
    duel_cases()
    engine = LocalEngine()
    failures = 0
    for cases in CASES.values():
        for case in cases:
            result = check_case(case, engine)
            if not result.ok:
                failures += 1
                print(describe_failure(result))
    every = CASES["splendor"] + CASES["duel"]
    print(
        f"{len(CASES['splendor'])} classic + {len(CASES['duel'])} duel cases, "
        f"{failures} failing against this engine"
    )
    print(" ".join(f"{r}:{n}" for r, n in rules_cited(every).items()))
    if args.write and (failures == 0 or args.force):
        OUT.mkdir(parents=True, exist_ok=True)
        sources = {"splendor": "rules/splendor.md", "duel": "rules/duel.md"}
        for game, cases in CASES.items():
            (OUT / FILES[game]).write_text(dump_file(game, cases, sources[game]), encoding="utf-8")
        print(f"wrote {OUT}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
