"""The position text of both games (a FEN for Splendor, ``docs/notation.md``) and the
position builders (issue 18).

- Every position random play reaches, in every decision phase and for every player count,
  round-trips exactly through ``to_text``/``from_text`` and ``to_dict``/``from_dict``; so do
  the observations of every seat, which hide what their seat cannot see (C16, D22).
- ``build_position`` rebuilds a played position from its parts (what is where), computing
  every derived field as the rules do.
- Malformed text gets a ``ValueError`` naming the field and what is allowed; an impossible
  position gets the gate's ``corrupt position`` message with the rule; nothing else is
  ever raised (fuzzed).
- The gate refuses what issue 18 lists, by dict, text and builder alike.
- ``splendor position`` and the examples of ``docs/notation.md``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from splendor import classic, duel
from splendor import notation as nt
from splendor.colors import DUEL_TOKEN_LETTERS, GEM_LETTERS, TOKEN_LETTERS
from splendor.duel.cards import PYRAMID_SIZES, PYRAMID_START

DOC = Path(__file__).resolve().parents[1] / "docs" / "notation.md"
SETTINGS = settings(
    max_examples=2,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
SEEDS = hs.integers(0, 2**62)
RARE = {
    "buy_faceup",
    "buy_reserved",
    "buy_choose",
    "pay_gold",
    "reserve_deck",
    "reserve_faceup",
    "noble",
    "buy",
    "take_gold",
    "privilege",
    "replenish",
    "steal",
    "joker",
    "royal",
    "token",
}
GAMES = [(classic, 2), (classic, 3), (classic, 4), (duel, 2)]
IDS = ["classic-2", "classic-3", "classic-4", "duel"]


def play(game: ModuleType, n: int, seed: int, choices: int, cap: int = 300) -> Iterator[Any]:
    """Every position of a game steered toward rare decisions (buys, chosen payments,
    reserves, abilities), from the deal to the end or ``cap`` turns."""
    st = game.new_game(n, seed)
    rnd = random.Random(choices)
    while True:
        yield st
        if st.is_terminal or st.turn >= cap:
            return
        legal = st.legal_actions()
        pref = [a for a in legal if a.kind in RARE]
        st.apply(rnd.choice(pref) if pref and rnd.random() < 0.75 else rnd.choice(legal))


def first_in_phase(game: ModuleType, n: int, phase: str, seeds: int = 200) -> Any:
    """The first position of ``phase`` in seeded steered games."""
    for seed in range(seeds):
        for st in play(game, n, seed, seed):
            if st.phase == phase:
                return st.copy()
    raise AssertionError(f"no {phase} position in {seeds} games")


def hidden_cards(st: Any, seat: int) -> set[int]:
    """Card ids ``seat`` cannot see: the decks and other seats' blind reserves (C16, D22)
    (a blind reserve being paid for is public)."""
    s = st._a[0]
    out = {int(c) for lvl in range(3) for c in s["decks"][lvl, : s["deck_len"][lvl]]}
    paying = st.payment[0].id if st.payment else -1
    for p in range(st.num_players):
        if p != seat:
            for card, blind in zip(st.player(p).reserved, st.player(p).reserved_blind, strict=True):
                if blind and card.id != paying:
                    out.add(card.id)
    return out


CARD_FIELDS = ("faceup", "pyramid", "reserved", "purchased", "resolving", "decks")


def cards_named(text: str) -> set[int]:
    """The card ids a position text writes (``?level`` items name none)."""
    out: set[int] = set()
    for word in text.split()[1:]:
        key, _, value = word.partition("=")
        if key in CARD_FIELDS:
            for item in re.split(r"[,/]", value):
                m = re.fullmatch(r"!?(\d+)[WUGRK]?", item)
                if m:
                    out.add(int(m.group(1)))
    return out


def check_round_trips(game: ModuleType, st: Any) -> None:
    """Text and dict round trips of ``st`` and of each seat's observation, exact."""
    text = st.to_text()
    back = game.State.from_text(text)
    assert back._a.tobytes() == st._a.tobytes(), text
    assert back.to_text() == text
    assert game.State.from_dict(st.to_dict())._a.tobytes() == st._a.tobytes()
    assert game.State.from_json(st.to_json()) == st
    for seat in range(st.num_players):
        obs = st.observation(seat)
        otext = obs.to_text()
        oback = game.Observation.from_text(otext)
        assert oback._a.tobytes() == obs._a.tobytes(), otext
        assert oback.to_text() == otext
        # C16, D22: no deck order, no generator, no card the seat cannot see
        assert "decks=" not in otext and "rng=" not in otext and f"observer={seat}" in otext
        assert not cards_named(otext) & hidden_cards(st, seat), otext


# --------------------------------------------------------------------------- round trips


@SETTINGS
@given(seed=SEEDS, choices=SEEDS)
@pytest.mark.parametrize("game, n", GAMES, ids=IDS)
def test_positions_of_random_play_round_trip(game: ModuleType, n: int, seed: int, choices: int):
    """C1-C17, D1-D25: every position of a random game (every decision phase it reaches)
    and every seat's observation of it (C16, D22) round-trip through the text exactly, and
    the state through to_dict/from_dict; observations name no hidden card."""
    for st in play(game, n, seed, choices):
        check_round_trips(game, st)


RARE_PHASES = {
    classic: ("payment", "return tokens", "choose noble", "game over"),
    duel: ("reserve", "payment", "joker", "token", "steal", "royal", "return tokens", "game over"),
}


@pytest.mark.parametrize("game", [classic, duel], ids=["classic", "duel"])
def test_every_decision_phase_round_trips(game: ModuleType):
    """C9, C11, C12, C14 / D9, D10, D13-D20: a position of each decision phase, for each
    player count, round-trips (random play above may miss the rarest phases)."""
    for n in range(game.MIN_PLAYERS, game.MAX_PLAYERS + 1):
        for phase in RARE_PHASES[game]:
            st = first_in_phase(game, n, phase)
            check_round_trips(game, st)


def test_stalled_game_and_pass_streak_round_trip():
    """C17: a run of passes and a game ended by passes round-trip; the end reason is
    derived from the passes (``stall`` when every seat passed)."""
    supply_empty = {"tokens": ["5W5U", "5G5R", "5K"]}
    st = classic.build_position(3, turn=4, passes=1, current=1, **supply_empty)
    assert "passes=1" in st.to_text()
    check_round_trips(classic, st)
    over = classic.build_position(3, turn=6, passes=3, phase="over", **supply_empty)
    assert over.is_terminal and over.end_reason == "stall" and over.current_player is None
    check_round_trips(classic, over)


def test_blind_reserve_being_paid_for_is_public():
    """C9, C16: a blind-reserved card that its owner is paying for shows in every seat's
    observation (as ``!id``); the other blind reserves stay ``?level``."""
    st = classic.build_position(
        2,
        turn=1,
        phase="payment",
        tokens=["-", "1W2U2G2R1K2*"],
        reserved=[["!40"], ["!0", "!41"]],
        payment="r1:1R",
    )
    obs = st.observation(0).to_text()
    assert "reserved=!40/!0,?2" in obs and "payment=r1:1R" in obs
    check_round_trips(classic, st)


# --------------------------------------------------------------------------- the builder


def _classic_parts(st: classic.State) -> dict[str, Any]:
    """A played classic position as the builder's arguments: what is where."""
    s = st._a[0]
    parts: dict[str, Any] = {
        "turn": st.turn,
        "current": st.current_player,
        "phase": st.phase,
        "passes": int(s["pass_streak"]),
        "faceup": [[c.id if c else None for c in row] for row in st.faceup],
        "decks": [
            [int(c) for c in s["decks"][lvl, : s["deck_len"][lvl]][::-1]] for lvl in range(3)
        ],
        "nobles": [x.id if x else None for x in st.nobles[: st.num_players + 1]],
        "tokens": [list(v.tokens) for v in st.players],
        "reserved": [
            [f"!{c.id}" if b else c.id for c, b in zip(v.reserved, v.reserved_blind, strict=True)]
            for v in st.players
        ],
        "purchased": {v.seat: [c.id for c in v.purchased] for v in st.players},
        "visits": [[x.id for x in v.nobles] for v in st.players],
        "rng": int(s["rng"][0]),
    }
    if st.payment:
        parts["payment"] = _payment_text(st, st.faceup, GEM_LETTERS)
    return parts


def _payment_text(st: Any, rows: Any, letters: str) -> str:
    """``L.S`` or ``rK``, then the gold committed per colour, from the public views."""
    card, need, _ = st.payment
    p = st.current_player
    src = (
        next(
            (
                f"{lvl + 1}.{k + 1}"
                for lvl, row in enumerate(rows)
                for k, c in enumerate(row)
                if c == card
            ),
            None,
        )
        or f"r{[c.id for c in st.player(p).reserved].index(card.id) + 1}"
    )
    bonus = list(st.player(p).bonuses) + [0] * (len(letters) - 5)
    owed = [max(c - b, 0) for c, b in zip(card.cost, bonus, strict=True)]
    committed = "".join(
        f"{o - n}{letters[i]}" for i, (o, n) in enumerate(zip(owed, need, strict=True)) if o - n
    )
    return src + (f":{committed}" if committed else "")


def _duel_parts(st: duel.State) -> dict[str, Any]:
    """A played duel position as the builder's arguments: what is where."""
    s = st._a[0]
    parts: dict[str, Any] = {
        "turn": st.turn,
        "turn_cap": st.turn_cap,
        "current": st.current_player,
        "phase": {"return tokens": "return", "game over": "over"}.get(st.phase, st.phase),
        "again": st.extra_turn,
        "replenished": st.replenished,
        "winner": st.winners[0] if st.winners else None,
        "board": list(st.board),
        "pyramid": [[c.id if c else None for c in row] for row in st.pyramid],
        "decks": [
            [int(c) for c in s["decks"][lvl, : s["deck_len"][lvl]][::-1]] for lvl in range(3)
        ],
        "tokens": [list(v.tokens) for v in st.players],
        "privileges": [v.privileges for v in st.players],
        "reserved": [
            [f"!{c.id}" if b else c.id for c, b in zip(v.reserved, v.reserved_blind, strict=True)]
            for v in st.players
        ],
        "purchased": [
            [
                f"{c.id}{GEM_LETTERS[col]}" if c.is_joker and col >= 0 else c.id
                for c, col in zip(v.purchased, v.purchased_colors, strict=True)
            ]
            for v in st.players
        ],
        "royals": [[r.id + 1 for r in v.royals] for v in st.players],
        "rng": int(s["rng"][0]),
    }
    if st.phase in ("token", "steal", "royal"):
        parts["resolving"] = st.pending_card.id
    if st.phase in ("joker", "token", "steal", "royal"):  # thresholds may be due (D19)
        parts["claims"] = [int(x) for x in s["crown_claims"]]
    if st.payment:
        parts["payment"] = _payment_text(st, st.pyramid, DUEL_TOKEN_LETTERS[:6])
    return parts


def _phase_word(phase: str) -> str:
    return {"return tokens": "return", "choose noble": "noble", "game over": "over"}.get(
        phase, phase
    )


@SETTINGS
@given(seed=SEEDS, choices=SEEDS)
@pytest.mark.parametrize("game, n", GAMES, ids=IDS)
def test_builder_rebuilds_positions_of_play(game: ModuleType, n: int, seed: int, choices: int):
    """C1, C9, C12, C14, C17 / D1, D5, D10, D13-D21: a played position rebuilt from what
    is where (cards, tokens, nobles or royal cards, board, whose turn, phase) equals it
    byte for byte: the builder computes the supply or bag, deck lengths, bonuses, points,
    crowns, colour points, final round, pending effects and end reason as play does."""
    for k, st in enumerate(play(game, n, seed, choices)):
        if k % 3 and st.phase == "main":
            continue  # every decision phase, a third of the main ones
        if game is classic:
            parts = _classic_parts(st)
            parts["phase"] = _phase_word(st.phase)
            built = classic.build_position(n, **parts)
        else:
            built = duel.build_position(**_duel_parts(st))
        assert built._a.tobytes() == st._a.tobytes(), st.to_text()


def test_builder_deals_what_is_left_unsaid():
    """C1-C5, D1-D5: the builder deals the cards, nobles and board tokens no argument
    places (seeded), so a few arguments make a sound, playable position."""
    a = classic.build_position(4, tokens={2: "3W"}, seed=7)
    b = classic.build_position(4, tokens={2: "3W"}, seed=7)
    assert a == b and a.supply == (4, 7, 7, 7, 7, 5)
    assert a.deck_sizes == (36, 26, 16)
    assert sum(x is not None for x in a.nobles) == 5  # C3: players + 1
    assert a.legal_actions()
    d = duel.build_position(tokens=["2W1P", "1*"], seed=3)
    assert d.bag == (0,) * 7 and sum(v is None for v in d.board) == 4  # D2: the rest on the board
    assert d.deck_sizes == (25, 20, 10) and d.legal_actions()


def test_builder_accepts_text_values():
    """Each builder argument also takes the text of the same field (docs/notation.md)."""
    st = classic.new_game(3, 11)
    text = st.to_text()
    fields = dict(w.split("=", 1) for w in text.split()[1:])
    built = classic.build_position(
        3,
        faceup=fields["faceup"],
        decks=fields["decks"],
        nobles=fields["nobles"],
        rng=int(fields["rng"], 16),
    )
    assert built == st


# --------------------------------------------------------------------------- errors

CLASSIC_NEW = classic.new_game(2, 1).to_text()
FIRST = classic.new_game(2, 1).faceup[0][0].id  # type: ignore[union-attr]
DUEL_NEW = duel.new_game(2, 1).to_text()


def _edit(text: str, key: str, value: str | None) -> str:
    """``text`` with field ``key`` set to ``value`` (added when missing, removed on None)."""
    words = [w for w in text.split() if not w.startswith(key + "=")]
    return " ".join(words + ([f"{key}={value}"] if value is not None else []))


def _faceup_row(text: str, row: int, value: str) -> str:
    rows = re.search(r"faceup=(\S+)", text).group(1).split("/")  # type: ignore[union-attr]
    rows[row] = value
    return _edit(text, "faceup", "/".join(rows))


MALFORMED = [
    ("empty", "", "the text is empty"),
    ("another game", "chess rnbqkbnr/pppppppp", "starts with 'splendor' or 'classic'"),
    ("no key", CLASSIC_NEW + " hello", "'hello' is not a key=value field"),
    ("unknown key", CLASSIC_NEW + " colour=W", "colour: unknown field; the fields are players"),
    ("twice", CLASSIC_NEW + " turn=3", "turn: given twice"),
    ("missing", _edit(CLASSIC_NEW, "faceup", None), "faceup: missing (3 levels of 4 slots)"),
    ("players", _edit(CLASSIC_NEW, "players", "5"), "players: 5: the player count (C1) is 2..4"),
    ("turn", _edit(CLASSIC_NEW, "turn", "x"), "turn: 'x' is not a whole number"),
    ("phase", _edit(CLASSIC_NEW, "phase", "bid"), "phase: 'bid': one of main, payment, return"),
    ("token letter", _edit(CLASSIC_NEW, "tokens", "2X/-"), "'X' in '2X' is not a token letter"),
    ("token shape", _edit(CLASSIC_NEW, "tokens", "W2/-"), "write counts before letters, like 2W1U"),
    ("token twice", _edit(CLASSIC_NEW, "tokens", "1W1W/-"), "W is written twice in '1W1W'"),
    ("too many", _edit(CLASSIC_NEW, "tokens", "3W/2W"), "5 W tokens in play, the game has 4 (C1)"),
    ("seats", _edit(CLASSIC_NEW, "tokens", "1W"), "2 groups separated by '/' (one per seat"),
    ("slots", _faceup_row(CLASSIC_NEW, 0, "1,2,3"), "4 slots separated by ','"),
    ("card id", _faceup_row(CLASSIC_NEW, 2, "90,-,-,-"), "90 is not a card id or - (empty)"),
    (
        "level",
        _faceup_row(CLASSIC_NEW, 0, "45,-,-,-"),
        "card 45 is level 2, in the level-1 row (C4)",
    ),
    ("empty item", _edit(CLASSIC_NEW, "purchased", "1,,2/-"), "an empty item in '1,,2'"),
    ("reserve 4", _edit(CLASSIC_NEW, "reserved", "1,2,3,4/-"), "4 reserved cards, at most 3 (C8)"),
    ("hidden", _edit(CLASSIC_NEW, "reserved", "?2/-"), "is only for an observation"),
    ("hidden level", _edit(CLASSIC_NEW, "reserved", "?4/-"), "?1, ?2 or ?3 (its level)"),
    ("twice bought", _edit(CLASSIC_NEW, "purchased", "1/1"), "card 1 is written twice"),
    ("rng", _edit(CLASSIC_NEW, "rng", "xyz"), "rng: 'xyz': the generator state is 1-16 hex"),
    ("pay in main", _edit(CLASSIC_NEW, "payment", "1.1"), "payment: only in phase payment (C9)"),
    ("deck sizes", _edit(CLASSIC_NEW, "deck_sizes", "1/2/3"), "a full position lists its decks"),
    ("observation", CLASSIC_NEW + " observer=0", "this is an observation"),
    ("duel head", "splendor-dual turn=0", "starts with 'duel' or 'splendor-duel'"),
    ("board letter", _edit(DUEL_NEW, "board", "XXXXX/...../...../...../....."), "'X' in row 1"),
    ("board rows", _edit(DUEL_NEW, "board", "...../....."), "5 groups separated by '/'"),
    ("board row", _edit(DUEL_NEW, "board", "..../...../...../...../....."), "row 1 '....'"),
    ("duel tokens", _edit(DUEL_NEW, "tokens", "1W/-"), "5 W tokens in play, the game has 4 (D1)"),
    ("joker colour", _edit(DUEL_NEW, "purchased", "0U/-"), "card 0 is not a joker"),
    ("royal 0", _edit(DUEL_NEW, "royals", "0/-"), "royal cards are numbered 1-4"),
    ("privileges", _edit(DUEL_NEW, "privileges", "2/2"), "3 privileges in all (D5)"),
    ("current", _edit(DUEL_NEW, "current", None), "current: missing (the seat to play, 0 or 1)"),
    ("resolving", _edit(DUEL_NEW, "resolving", "3"), "only in phases token, steal and royal"),
    ("flag", _edit(DUEL_NEW, "again", "2"), "again: 2: again (D13) is 0..1"),
]


@pytest.mark.parametrize("label, text, words", MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_text_names_the_field(label: str, text: str, words: str):
    """Text that cannot be read: a NotationError (a ValueError) naming the field, quoting
    the bad part and saying what is allowed (C1, C4, C8, C9, C16, D1, D5, D13)."""
    game = duel if text.startswith(("duel", "splendor-dual")) else classic
    with pytest.raises(nt.NotationError) as e:
        game.State.from_text(text)
    assert words in str(e.value)
    assert str(e.value).startswith("position text, ")


IMPOSSIBLE = [
    (
        "card twice",
        classic,
        _edit(CLASSIC_NEW, "purchased", f"{FIRST}/-"),
        f"card {FIRST} is in 2",
        "C2",
    ),
    ("turn", classic, _edit(CLASSIC_NEW, "turn", "-1"), "turn=-1: the count of completed", "C5"),
    ("seat", classic, _edit(CLASSIC_NEW, "current", "1"), "seat 0 starts and seats play", "C5"),
    (
        "nobles",
        classic,
        _edit(CLASSIC_NEW, "nobles", "1,2,-"),
        "2 nobles in play, expected 3",
        "C3",
    ),
    ("duel turn", duel, _edit(DUEL_NEW, "turn", "-3"), "turn=-3: the turn is 0..", "D25"),
    ("cap", duel, _edit(DUEL_NEW, "cap", "5").replace("turn=0", "turn=9"), "0..turn_cap=5", "D25"),
]


@pytest.mark.parametrize(
    "label, game, text, words, rule", IMPOSSIBLE, ids=[m[0] for m in IMPOSSIBLE]
)
def test_impossible_text_is_refused_by_the_gate(label, game, text, words, rule):
    """Text that reads well but describes an impossible position is refused by the gate
    of from_dict, naming the field and the rule."""
    with pytest.raises(ValueError) as e:
        game.State.from_text(text)
    assert not isinstance(e.value, nt.NotationError)
    msg = str(e.value)
    assert msg.startswith("corrupt position: ") and words in msg and rule in msg


def test_observations_must_hide_what_their_seat_cannot_see():
    """C16, D22: an observation text showing another seat's blind reserve, or deck order,
    or the generator, is refused; one hiding the observer's own card is too."""
    st = classic.build_position(2, turn=2, reserved=[["!40"], ["!0"]], tokens=["1*", "1*"])
    obs = st.observation(0).to_text()
    assert "reserved=!40/?1" in obs
    with pytest.raises(nt.NotationError, match="blind reserve !0 is hidden from observer 0"):
        classic.Observation.from_text(obs.replace("?1", "!0"))
    with pytest.raises(nt.NotationError, match=r"reserved card 1 is seen by observer 0"):
        classic.Observation.from_text(obs.replace("!40", "?2"))
    with pytest.raises(nt.NotationError, match="deck_sizes= .deck order is hidden, C16"):
        classic.Observation.from_text(obs + " decks=1/2/3")
    with pytest.raises(nt.NotationError, match="an observation gives no rng"):
        classic.Observation.from_text(obs + " rng=5")
    with pytest.raises(nt.NotationError, match="observer: missing"):
        classic.Observation.from_text(st.to_text())
    with pytest.raises(ValueError, match=r"corrupt position: deck_sizes: 36 level-1 cards"):
        classic.Observation.from_text(obs.replace("deck_sizes=35/", "deck_sizes=34/"))
    dobs = duel.build_position(reserved=[[], ["!0"]], tokens=["-", "1*"]).observation(0)
    assert "reserved=-/?1" in dobs.to_text()
    with pytest.raises(nt.NotationError, match="hidden from observer 0: write \\?1 .D22"):
        duel.Observation.from_text(dobs.to_text().replace("?1", "!0"))


def test_builder_errors_name_the_argument():
    """Builder arguments get the same checks as the text (C1, C8, D14, D19)."""
    cases = [
        (lambda: classic.build_position(5), ValueError, "2 to 4 players (C1)"),
        (lambda: classic.build_position(2, tokens=[[1, 2]]), nt.NotationError, "tokens (seat 0)"),
        (lambda: classic.build_position(2, tokens={3: "1W"}), nt.NotationError, "seat 3"),
        (lambda: classic.build_position(2, turn=1.5), nt.NotationError, "turn: an integer"),  # type: ignore[arg-type]
        (lambda: classic.build_position(2, faceup=7), nt.NotationError, "3 groups"),
        (lambda: classic.build_position(2, purchased=[[1.0]]), nt.NotationError, "an id or"),
        (lambda: classic.build_position(2, reserved=[[1, 2, 3, 4]]), nt.NotationError, "(C8)"),
        (lambda: classic.build_position(2, phase="bid"), nt.NotationError, "one of main"),
        (lambda: classic.build_position(2, rng=-1), nt.NotationError, "0 <= rng < 2**64"),
        (lambda: duel.build_position(board=[1, 2]), nt.NotationError, "25 cells, got 2"),
        (lambda: duel.build_position(purchased=[["0R"]]), nt.NotationError, "not a joker"),
        (lambda: duel.build_position(royals=[[5]]), nt.NotationError, "royal card number"),
        (lambda: duel.build_position(winner=0, phase="over"), nt.NotationError, "(D21)"),
        (lambda: duel.build_position(claims=[2, 0]), ValueError, "crown_claims[0]=2"),
    ]
    for make, kind, words in cases:
        with pytest.raises(kind) as e:
            make()
        assert words in str(e.value), str(e.value)


FUZZ_BASES = [
    (game, text)
    for game, n, seed in ((classic, 2, 1), (classic, 4, 2), (duel, 2, 3))
    for k, st in enumerate(play(game, n, seed, seed))
    if k % 25 == 0 or st.phase != "main"
    for text in (st.to_text(), st.observation(k % n).to_text())
][:60]
ALPHABET = "0123456789,/-=!?.:*WUGRKPabcder xyz"


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    base=hs.sampled_from(FUZZ_BASES),
    edits=hs.lists(
        hs.tuples(hs.integers(0, 2), hs.integers(0, 10**6), hs.sampled_from(ALPHABET)),
        min_size=1,
        max_size=3,
    ),
)
def test_fuzzed_text_is_refused_or_round_trips(base: tuple[ModuleType, str], edits):
    """Any text: either a ValueError, or a position (never half-built) whose own text
    reads back to the same array and text."""
    game, text = base
    for op, at, ch in edits:
        i = at % (len(text) + 1)
        text = (text[:i] + ch + text[i + 1 :], text[:i] + text[i + 1 :], text[:i] + ch + text[i:])[
            op
        ]
    kind = game.Observation if "observer=" in text else game.State
    try:
        pos = kind.from_text(text)
    except ValueError:
        return
    again = kind.from_text(pos.to_text())
    assert again._a.tobytes() == pos._a.tobytes() and again.to_text() == pos.to_text()


# --------------------------------------------------------------------------- the gate


def _dict_of(st: Any, **changes: Any) -> dict[str, Any]:
    d = st.to_dict()
    d.update(changes)
    return d


def test_gate_refuses_a_noble_choice_nobody_qualifies_for():
    """C12: phase "choose noble" where the seat qualifies for no shown noble (or one):
    refused by from_dict, from_text and the builder."""
    st = classic.new_game(2, 1)
    with pytest.raises(ValueError, match=r"qualifies for 0 shown noble.*\(C12\)"):
        classic.State.from_dict(_dict_of(st, phase=3))
    with pytest.raises(ValueError, match=r"qualifies for 0 shown noble.*\(C12\)"):
        classic.State.from_text(_edit(st.to_text(), "phase", "noble"))
    with pytest.raises(ValueError, match=r"\(C12\)"):
        classic.build_position(2, phase="noble")


def test_gate_refuses_a_half_finished_payment_that_would_corrupt_the_next_pay():
    """C9, D10: a payment whose gold does not match what it replaced, which owes more than
    the card costs, whose card is not at its source, or which commits gold the seat does
    not hold: refused (``pay`` would otherwise take tokens the seat lacks or the wrong
    card)."""
    st = first_in_phase(classic, 2, "payment")
    need = st.to_dict()["pay_need"]
    cases = [
        ({"pay_gold": st.to_dict()["pay_gold"] + 1}, "each gold committed replaces one token"),
        ({"pay_need": [x + 1 for x in need]}, "more than card"),
        ({"pay_src": (st.to_dict()["pay_src"] + 1) % 12}, "stays at its source until paid"),
    ]
    for change, words in cases:
        with pytest.raises(ValueError, match=rf"{words}.*\(C9\)"):
            classic.State.from_dict(_dict_of(st, **change))
    src = st.to_text().split("payment=")[1].split(":")[0].split()[0]
    with pytest.raises(nt.NotationError, match=r"gold in place of .*after bonuses \(C9\)"):
        classic.State.from_text(_edit(st.to_text(), "payment", f"{src}:9W9U9G9R9K"))
    dst = first_in_phase(duel, 2, "payment")
    with pytest.raises(ValueError, match=r"each gold committed replaces one token.*\(D10\)"):
        duel.State.from_dict(_dict_of(dst, pay_gold=dst.to_dict()["pay_gold"] + 1))
    with pytest.raises(ValueError, match=r"not at its source.*\(D10\)"):
        duel.State.from_dict(_dict_of(dst, pay_src=(dst.to_dict()["pay_src"] + 1) % 12))


def test_gate_refuses_an_end_reason_in_a_game_in_progress():
    """C14, C17, D21, D25: a game in progress has no end reason (and in Duel no winner)."""
    st = classic.new_game(3, 2)
    for reason in (1, 2):
        with pytest.raises(ValueError, match=r"end_reason is 0 while the game goes on"):
            classic.State.from_dict(_dict_of(st, end_reason=reason))
    dst = duel.new_game(2, 2)
    for change in ({"end_reason": 1}, {"end_reason": 4}, {"winner": 1}):
        with pytest.raises(ValueError, match=r"a game in progress has no end reason.*\(D21\)"):
            duel.State.from_dict(_dict_of(dst, **change))
    # the text derives the end reason from the phase: a winner in progress is refused too
    with pytest.raises(ValueError, match=r"\(D21\)"):
        duel.State.from_text(DUEL_NEW + " winner=0")


@pytest.mark.parametrize("turn", [-1, -7, -(2**31)])
def test_gate_refuses_negative_turns(turn: int):
    """C5, D25: the count of completed turns is never negative: from_dict, from_text and
    the builders refuse it."""
    with pytest.raises(ValueError, match=rf"turn={turn}: .*\(C5\)"):
        classic.State.from_dict(_dict_of(classic.new_game(2, 0), turn=turn))
    with pytest.raises(ValueError, match=rf"turn={turn}: .*\(C5\)"):
        classic.State.from_text(_edit(CLASSIC_NEW, "turn", str(turn)))
    with pytest.raises(ValueError, match=rf"turn={turn}: .*\(C5\)"):
        classic.build_position(2, turn=turn)
    with pytest.raises(ValueError, match=rf"turn={turn}: .*\(D25\)"):
        duel.State.from_dict(_dict_of(duel.new_game(2, 0), turn=turn))
    with pytest.raises(ValueError, match=rf"turn={turn}: .*\(D25\)"):
        duel.State.from_text(_edit(DUEL_NEW, "turn", str(turn)))
    with pytest.raises(ValueError, match=rf"turn={turn}: .*\(D25\)"):
        duel.build_position(turn=turn)


# --------------------------------------------------------------------------- shared pieces


def test_token_counts_round_trip():
    """The shared token-count syntax: colour order, zero counts left out, ``-`` for none."""
    for counts in ([0] * 6, [1, 0, 2, 0, 0, 5], [4, 4, 4, 4, 4, 5]):
        text = nt.format_counts(counts, TOKEN_LETTERS)
        assert nt.parse_counts(text, "tokens", TOKEN_LETTERS, [7] * 5 + [5], "C1") == counts
    assert nt.format_counts([0, 0, 0, 0, 0, 1, 2], DUEL_TOKEN_LETTERS) == "1P2*"
    assert nt.parse_counts("2*1w", "t", TOKEN_LETTERS, [7] * 6, "C1") == [1, 0, 0, 0, 0, 2]


def test_payment_sources_round_trip():
    """``L.S`` face-up slots and ``rK`` reserved slots, as in the action notation (C9, D10)."""
    for src in range(15):
        text = nt.format_source(src, PYRAMID_START, 12)
        assert nt.parse_source(text, "payment", PYRAMID_START, PYRAMID_SIZES, 3) == src
    with pytest.raises(nt.NotationError, match="level 1 slots 1-5, level 2 slots 1-4"):
        nt.parse_source("2.5", "payment", PYRAMID_START, PYRAMID_SIZES, 3)


# --------------------------------------------------------------------------- the command


def _cli(*args: str, stdin: str | None = None) -> Any:
    from typer.testing import CliRunner

    from splendor.cli import app

    return CliRunner().invoke(app, ["position", *args], input=stdin, env={"COLUMNS": "100"})


def test_cli_prints_new_games_and_checks_texts():
    """``splendor position``: the text of a new game, a text read back canonically (from
    an argument or stdin), one seat's observation (C16), and the board drawn."""
    out = _cli("--new", "--game", "classic", "--players", "3", "--seed", "5")
    assert out.exit_code == 0 and out.stdout.strip() == classic.new_game(3, 5).to_text()
    text = duel.new_game(2, 4).to_text()
    loose = text.replace(" ", "   ").replace("duel", "DUEL", 1)
    assert _cli(loose).stdout.strip() == text
    assert _cli(stdin=text + "\n").stdout.strip() == text
    seen = _cli("--seat", "1", text)
    assert seen.stdout.strip() == duel.new_game(2, 4).observation(1).to_text()
    shown = _cli("--show", text)
    assert shown.exit_code == 0 and "a   b   c   d   e" in shown.stdout


def test_cli_exits_2_on_bad_text():
    """A text that cannot be read, or an impossible position: the reason, exit code 2."""
    bad = _cli(_edit(CLASSIC_NEW, "turn", "-1"))
    assert bad.exit_code == 2 and "turn=-1" in bad.output and "(C5)" in bad.output
    assert _cli("chess x").exit_code == 2
    empty = _cli(stdin="")
    assert empty.exit_code == 2 and "no position text" in empty.output


# --------------------------------------------------------------------------- the spec


def test_the_spec_examples_are_canonical():
    """Every position line of docs/notation.md reads back to itself: the examples are the
    engine's own output, and the spec stays in step with the code."""
    lines = [
        line.strip()
        for line in DOC.read_text(encoding="utf-8").splitlines()
        if line.startswith(("splendor ", "duel "))
    ]
    assert len(lines) >= 6
    assert classic.new_game(2, 1).to_text() in lines and duel.new_game(2, 1).to_text() in lines
    for line in lines:
        game = duel if line.startswith("duel") else classic
        kind = game.Observation if "observer=" in line else game.State
        assert kind.from_text(line).to_text() == line


def test_the_spec_code_runs():
    """The Python examples of docs/notation.md run."""
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert len(blocks) >= 2
    for block in blocks:
        exec(compile(block, str(DOC), "exec"), {})


def test_duel_card_zero_alone_is_written():
    """A seat whose only bought (or reserved) card is card 0 while the other seat holds
    none: the field is still written, so the text reads back (D3; card 0 is a real card,
    not an empty count)."""
    for fields in ({"purchased": [[0], []]}, {"reserved": [[0], []]}):
        state = duel.build_position(seed=1, **fields)  # type: ignore[arg-type]
        text = state.to_text()
        assert duel.State.from_text(text) == state
        view = state.observation(1)
        assert duel.Observation.from_text(view.to_text()).to_text() == view.to_text()
