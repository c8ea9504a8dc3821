"""Building classic Splendor test positions by editing a dealt game's state array.

Every helper keeps the position sound: tokens move between the supply and a seat, cards
move between a deck, a face-up slot, a reserve and a seat's purchases, so that each of the
90 cards stays in exactly one place (C2) and ``check_invariants`` stays empty. Call
:func:`sound` at the end of a construction to make sure.

Conventions: ``lvl`` is 0-based (0, 1, 2) and ``slot`` 0-based (0..3) in these helpers, as
in the state array; the notation uses 1-based levels and slots (``buy 1.1`` is lvl 0, slot 0).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import numpy as np

from splendor import classic
from splendor.classic import CARDS, NOBLES, Card

GEMS = "WUGRK"
TOKENS = GEMS + "*"
GOLD = 5
WIN = 15  # C14


# ------------------------------------------------------------------ reading the array


def rec(st: classic.State) -> np.void:
    """The record of ``st`` (fields indexed by name: ``rec(st)["supply"]``)."""
    return st._a[0]


def field(st: classic.State, name: str) -> np.ndarray:
    """A writable view of one field (``field(st, "tokens")[seat, colour] = 3``)."""
    return st._a[name][0]


def set_scalar(st: classic.State, name: str, value: int) -> None:
    st._a[name][0] = value


def vec(text: str) -> list[int]:
    """A token vector of length 6 from a compact string: ``vec("2W 1U 1*")``."""
    out = [0] * 6
    for part in text.split():
        n, letter = int(part[:-1]), part[-1].upper()
        out[TOKENS.index(letter)] += n
    return out


def cost_vec(text: str) -> list[int]:
    """A gem vector of length 5 (no gold): ``cost_vec("2W 1K")``."""
    return vec(text)[:5]


def tokens_of(st: classic.State, seat: int) -> list[int]:
    return [int(x) for x in field(st, "tokens")[seat]]


def supply(st: classic.State) -> list[int]:
    return [int(x) for x in field(st, "supply")]


def first_action(st: classic.State, kind: str) -> classic.Action:
    return next(a for a in st.legal_actions() if a.kind == kind)


def legal_texts(st: classic.State) -> set[str]:
    return {str(a) for a in st.legal_actions()}


def sound(st: classic.State) -> classic.State:
    """Assert the position breaks no invariant; return it."""
    problems = classic.check_invariants(st._a)
    assert problems == [], problems
    return st


# ------------------------------------------------------------------ tokens


def set_tokens(st: classic.State, seat: int, tokens: Sequence[int] | str) -> None:
    """Give ``seat`` exactly ``tokens`` (length 6, or a :func:`vec` string), moving the
    difference from or to the supply (token totals stay as dealt, C1)."""
    want = vec(tokens) if isinstance(tokens, str) else list(tokens)
    have = field(st, "tokens")[seat]
    sup = field(st, "supply")
    for c in range(6):
        delta = want[c] - int(have[c])
        if delta > int(sup[c]):
            raise AssertionError(f"supply has {int(sup[c])} {TOKENS[c]}, need {delta} more")
        sup[c] -= delta
        have[c] = want[c]


def set_supply(st: classic.State, tokens: Sequence[int] | str, park: Iterable[int]) -> None:
    """Make the supply hold exactly ``tokens`` by moving tokens to or from the seats in
    ``park`` (each kept at 10 tokens or fewer, C11)."""
    want = vec(tokens) if isinstance(tokens, str) else list(tokens)
    sup = field(st, "supply")
    toks = field(st, "tokens")
    seats = list(park)
    for c in range(6):
        while sup[c] > want[c]:  # park surplus tokens on a seat with room
            p = next(p for p in seats if int(toks[p].sum()) < 10)
            sup[c] -= 1
            toks[p, c] += 1
        while sup[c] < want[c]:  # take tokens back from a seat holding that colour
            p = next(p for p in seats if toks[p, c] > 0)
            sup[c] += 1
            toks[p, c] -= 1


# ------------------------------------------------------------------ cards


def where(st: classic.State, cid: int) -> tuple:
    """Where card ``cid`` is: ``("deck", lvl, i)``, ``("faceup", lvl, slot)``,
    ``("reserved", seat, k)`` or ``("purchased", seat)``."""
    s = rec(st)
    lvl = CARDS[cid].level - 1
    for i in range(int(s["deck_len"][lvl])):
        if s["decks"][lvl, i] == cid:
            return ("deck", lvl, i)
    for slot in range(4):
        if s["faceup"][lvl, slot] == cid:
            return ("faceup", lvl, slot)
    for p in range(4):
        for k in range(int(s["num_reserved"][p])):
            if s["reserved"][p, k] == cid:
                return ("reserved", p, k)
    if s["purchased_by"][cid] >= 0:
        return ("purchased", int(s["purchased_by"][cid]))
    raise AssertionError(f"card {cid} is nowhere")


def _remove_from_deck(st: classic.State, lvl: int, i: int) -> int:
    decks, dl = field(st, "decks"), field(st, "deck_len")
    n = int(dl[lvl])
    cid = int(decks[lvl, i])
    decks[lvl, i : n - 1] = decks[lvl, i + 1 : n].copy()
    decks[lvl, n - 1] = -1
    dl[lvl] = n - 1
    return cid


def detach(st: classic.State, cid: int) -> None:
    """Take card ``cid`` out of the deck or face-up row (a face-up slot is refilled from the
    top of its deck, C10, or left empty). Only deck and face-up cards may be detached."""
    loc = where(st, cid)
    if loc[0] == "deck":
        _remove_from_deck(st, loc[1], loc[2])
    elif loc[0] == "faceup":
        lvl, slot = loc[1], loc[2]
        n = int(field(st, "deck_len")[lvl])
        field(st, "faceup")[lvl, slot] = _remove_from_deck(st, lvl, n - 1) if n else -1
    else:
        raise AssertionError(f"card {cid} is {loc}, not in a deck or face up")


def put_faceup(st: classic.State, lvl: int, slot: int, cid: int) -> None:
    """Show card ``cid`` (of level ``lvl``) in face-up ``slot``; the card it replaces takes
    the place ``cid`` came from (a deck position or another face-up slot)."""
    assert CARDS[cid].level - 1 == lvl
    faceup, decks = field(st, "faceup"), field(st, "decks")
    old = int(faceup[lvl, slot])
    if old == cid:
        return
    loc = where(st, cid)
    if loc[0] == "deck":
        decks[lvl, loc[2]] = old
        if old < 0:  # the slot was empty: the deck just loses the card
            _remove_from_deck(st, lvl, loc[2])
    elif loc[0] == "faceup":
        faceup[lvl, loc[2]] = old
    else:
        raise AssertionError(f"card {cid} is {loc}")
    faceup[lvl, slot] = cid


def put_on_deck_top(st: classic.State, cid: int) -> None:
    """Move deck card ``cid`` to the top of its deck (the next card drawn, C10)."""
    loc = where(st, cid)
    assert loc[0] == "deck", loc
    lvl, i = loc[1], loc[2]
    decks = field(st, "decks")
    n = int(field(st, "deck_len")[lvl])
    decks[lvl, i], decks[lvl, n - 1] = decks[lvl, n - 1], decks[lvl, i]


def give_purchased(st: classic.State, seat: int, cids: Iterable[int]) -> None:
    """Make ``seat`` the owner of bought cards ``cids`` (bonuses and points follow)."""
    for cid in cids:
        detach(st, cid)
        field(st, "purchased_by")[cid] = seat
        field(st, "bonuses")[seat, CARDS[cid].bonus] += 1
        field(st, "points")[seat] += CARDS[cid].points


def give_reserved(st: classic.State, seat: int, cid: int, blind: bool = False) -> None:
    """Add card ``cid`` to ``seat``'s reserve (no gold moves)."""
    detach(st, cid)
    k = int(field(st, "num_reserved")[seat])
    assert k < 3
    field(st, "reserved")[seat, k] = cid
    field(st, "reserved_level")[seat, k] = CARDS[cid].level
    field(st, "reserved_blind")[seat, k] = 1 if blind else 0
    field(st, "num_reserved")[seat] = k + 1


def empty_deck(st: classic.State, lvl: int, seat: int) -> None:
    """Empty the level ``lvl`` deck by giving its cards to ``seat`` as purchases."""
    deck = [int(c) for c in field(st, "decks")[lvl, : int(field(st, "deck_len")[lvl])]]
    give_purchased(st, seat, deck)


def unplaced(st: classic.State, pred: Callable[[Card], bool]) -> list[int]:
    """Ids of cards in a deck or face up (free to move) that satisfy ``pred``."""
    out = []
    for c in CARDS:
        if pred(c) and where(st, c.id)[0] in ("deck", "faceup"):
            out.append(c.id)
    return out


def card_with(st: classic.State, pred: Callable[[Card], bool]) -> int:
    ids = unplaced(st, pred)
    assert ids, "no free card satisfies the predicate"
    return ids[0]


def cards_for_points(st: classic.State, points: int, level: int = 3) -> list[int]:
    """Free cards worth exactly ``points`` together, as few as a largest-first search
    finds, from level ``level`` then lower levels (used to give a seat a score; a handful
    of cards can never meet a noble's 8 or 9 bonuses)."""
    ids = sorted(
        unplaced(st, lambda c: c.level <= level and c.points > 0),
        key=lambda i: (-CARDS[i].points, -CARDS[i].level, i),
    )

    def search(start: int, left: int) -> list[int] | None:
        if left == 0:
            return []
        tried = set()
        for j in range(start, len(ids)):
            pts = CARDS[ids[j]].points
            if pts > left or pts in tried:
                continue
            tried.add(pts)
            rest = search(j + 1, left - pts)
            if rest is not None:
                return [ids[j]] + rest
        return None

    found = search(0, points)
    if found is None:
        raise AssertionError(f"cannot make {points} points from free cards")
    return found


# ------------------------------------------------------------------ nobles and turn


def set_nobles(st: classic.State, ids: Sequence[int]) -> None:
    """Show exactly the nobles ``ids`` (``num_players + 1`` of them minus those owned)."""
    row = field(st, "nobles")
    row[:] = -1
    row[: len(ids)] = ids


def noble_with(req: str) -> int:
    """Id of the noble whose requirement is ``req`` (``"4W 4U"``)."""
    want = tuple(cost_vec(req))
    return next(n.id for n in NOBLES if n.requirement == want)


def set_current(st: classic.State, seat: int) -> None:
    set_scalar(st, "current", seat)


def harmless(st: classic.State) -> None:
    """Play one whole turn that can score nothing (a take, else a reserve), returning
    tokens if the limit asks for it (C11)."""
    seat = st.current_player
    acts = st.legal_actions()
    a = next((a for a in acts if a.kind.startswith("take")), None)
    if a is None:
        a = next(a for a in acts if a.kind.startswith("reserve"))
    st.apply(a)
    while st.current_player == seat and st.phase == "return tokens":
        st.apply(st.legal_actions()[0])
    assert st.current_player != seat


def new(n: int = 2, seed: int = 0) -> classic.State:
    return classic.new_game(n, seed)
