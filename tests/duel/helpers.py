"""Building Splendor Duel test positions by editing a dealt game's state array.

Every helper keeps the position sound: tokens move between the board, the bag and the
seats (the 25 tokens of D1 stay in play), cards move between a deck, the pyramid, a
reserve and a seat's purchases (each of the 67 cards stays in exactly one place, D3), and
points, crowns, bonuses and colour points follow the cards a seat owns, so that
``check_invariants`` stays empty. Call :func:`sound` at the end of a construction.

Conventions: ``lvl`` is 0-based (0, 1, 2) and pyramid indices are 0..11 (level 1: 0-4,
level 2: 5-8, level 3: 9-11), as in the state array; the notation uses 1-based levels and
slots (``buy 2.1`` is pyramid index 5). Boards are written as 5 rows of 5 characters,
row 1 at the top (``W U G R K P *`` for a token, ``.`` for an empty cell); rows are
separated by ``/`` or new lines and spaces are ignored.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import numpy as np

from splendor import duel
from splendor.duel import CARDS, Card
from splendor.duel.board import BAG_START, parse_cell

TOKENS = "WUGRKP*"
GEMS = "WUGRK"
PEARL = 5
GOLD = 6
PYRAMID_START = (0, 5, 9)
PYRAMID_SIZES = (5, 4, 3)
EMPTY_BOARD = "...../...../...../...../....."


# ------------------------------------------------------------------ reading the array


def new(seed: int = 0, turn_cap: int | None = None) -> duel.State:
    return duel.new_game(2, seed, turn_cap=turn_cap)


def rec(st: duel.State | duel.Observation) -> np.void:
    """The record of ``st`` (fields indexed by name: ``rec(st)["bag"]``)."""
    return st._a[0]


def field(st: duel.State, name: str) -> np.ndarray:
    """A writable view of one field (``field(st, "tokens")[seat, colour] = 3``)."""
    return st._a[name][0]


def set_scalar(st: duel.State, name: str, value: int) -> None:
    st._a[name][0] = value


def vec(text: str) -> list[int]:
    """A token vector of length 7 (W U G R K P *) from ``"2W 1P 1*"``."""
    out = [0] * 7
    for part in text.split():
        n, letter = int(part[:-1]), part[-1].upper()
        out[TOKENS.index(letter)] += n
    return out


def tokens_of(st: duel.State, seat: int) -> list[int]:
    return [int(x) for x in field(st, "tokens")[seat]]


def bag(st: duel.State) -> list[int]:
    return [int(x) for x in field(st, "bag")]


def board_counts(st: duel.State) -> list[int]:
    b = field(st, "board")
    return [int((b == c).sum()) for c in range(7)]


def cell(st: duel.State, name: str) -> int:
    """Token colour on cell ``name`` (-1 when empty)."""
    return int(field(st, "board")[parse_cell(name)])


def privileges(st: duel.State) -> list[int]:
    return [int(x) for x in field(st, "privileges")]


def legal_texts(st: duel.State) -> set[str]:
    return {str(a) for a in st.legal_actions()}


def legal_of(st: duel.State, *kinds: str) -> set[str]:
    return {str(a) for a in st.legal_actions() if a.kind in kinds}


def sound(st: duel.State) -> duel.State:
    """Assert the position breaks no invariant; return it."""
    problems = duel.check_invariants(st._a)
    assert problems == [], problems
    return st


def snapshot(st: duel.State) -> bytes:
    return st._a.tobytes()


# ------------------------------------------------------------------ tokens


def parse_board(text: str) -> list[int]:
    """25 board values (-1 empty) from 5 rows of 5 characters."""
    rows = [r.replace(" ", "") for r in text.replace("/", "\n").split("\n") if r.strip()]
    assert len(rows) == 5 and all(len(r) == 5 for r in rows), rows
    return [-1 if ch == "." else TOKENS.index(ch.upper()) for r in rows for ch in r]


def _rebalance(st: duel.State) -> None:
    """Put in the bag exactly the tokens that are neither on the board nor held."""
    b = field(st, "board")
    held = field(st, "tokens").sum(axis=0)
    for c in range(7):
        left = BAG_START[c] - int((b == c).sum()) - int(held[c])
        assert left >= 0, f"too many {TOKENS[c]} tokens in the position"
        field(st, "bag")[c] = left


def arrange(
    st: duel.State,
    board: str | None = None,
    tokens: dict[int, str] | None = None,
) -> None:
    """Set the board (``board``, rows as described in the module docstring) and the
    tokens of some seats (``{seat: "2W 1*"}``); the bag holds what is left.

    Without ``board``, tokens a seat needs that the bag lacks are taken off the board
    (the last such cells in spiral order)."""
    toks = field(st, "tokens")
    for seat, text in (tokens or {}).items():
        toks[seat, :] = vec(text)
    b = field(st, "board")
    if board is not None:
        b[:] = parse_board(board)
    else:
        from splendor.duel.board import SPIRAL

        held = toks.sum(axis=0)
        for c in range(7):
            over = int((b == c).sum()) + int(held[c]) - BAG_START[c]
            for cidx in reversed(SPIRAL):
                if over <= 0:
                    break
                if b[cidx] == c:
                    b[cidx] = -1
                    over -= 1
    _rebalance(st)


def set_tokens(st: duel.State, seat: int, text: str) -> None:
    """Give ``seat`` exactly the tokens ``text`` (bag first, then board cells)."""
    arrange(st, tokens={seat: text})


def set_board(st: duel.State, board: str) -> None:
    arrange(st, board=board)


# ------------------------------------------------------------------ cards


def where(st: duel.State, cid: int) -> tuple:
    """``("deck", lvl, i)``, ``("pyramid", index)``, ``("reserved", seat, k)`` or
    ``("bought", seat)``."""
    s = rec(st)
    lvl = CARDS[cid].level - 1
    for i in range(int(s["deck_len"][lvl])):
        if s["decks"][lvl, i] == cid:
            return ("deck", lvl, i)
    for k in range(12):
        if s["pyramid"][k] == cid:
            return ("pyramid", k)
    for p in range(2):
        for k in range(int(s["num_reserved"][p])):
            if s["reserved"][p, k] == cid:
                return ("reserved", p, k)
    if s["card_owner"][cid] >= 0:
        return ("bought", int(s["card_owner"][cid]))
    raise AssertionError(f"card {cid} is nowhere")


def _remove_from_deck(st: duel.State, lvl: int, i: int) -> int:
    decks, dl = field(st, "decks"), field(st, "deck_len")
    n = int(dl[lvl])
    cid = int(decks[lvl, i])
    decks[lvl, i : n - 1] = decks[lvl, i + 1 : n].copy()
    decks[lvl, n - 1] = -1
    dl[lvl] = n - 1
    return cid


def detach(st: duel.State, cid: int) -> None:
    """Take card ``cid`` out of its deck or the pyramid (a pyramid slot is refilled from
    the top of its deck, or left empty)."""
    loc = where(st, cid)
    if loc[0] == "deck":
        _remove_from_deck(st, loc[1], loc[2])
    elif loc[0] == "pyramid":
        lvl = CARDS[cid].level - 1
        n = int(field(st, "deck_len")[lvl])
        field(st, "pyramid")[loc[1]] = _remove_from_deck(st, lvl, n - 1) if n else -1
    else:
        raise AssertionError(f"card {cid} is {loc}, not in a deck or the pyramid")


def put_pyramid(st: duel.State, index: int, cid: int) -> None:
    """Show card ``cid`` at pyramid ``index``; the card it replaces takes the place ``cid``
    came from (a deck position or another pyramid slot)."""
    lvl = CARDS[cid].level - 1
    assert PYRAMID_START[lvl] <= index < PYRAMID_START[lvl] + PYRAMID_SIZES[lvl]
    pyr, decks = field(st, "pyramid"), field(st, "decks")
    old = int(pyr[index])
    if old == cid:
        return
    loc = where(st, cid)
    if loc[0] == "deck":
        decks[lvl, loc[2]] = old
        if old < 0:
            _remove_from_deck(st, lvl, loc[2])
    elif loc[0] == "pyramid":
        pyr[loc[1]] = old
    else:
        raise AssertionError(f"card {cid} is {loc}")
    pyr[index] = cid


def put_on_deck_top(st: duel.State, cid: int) -> None:
    """Move deck card ``cid`` to the top of its deck (the next card drawn)."""
    loc = where(st, cid)
    assert loc[0] == "deck", loc
    lvl, i = loc[1], loc[2]
    decks = field(st, "decks")
    n = int(field(st, "deck_len")[lvl])
    decks[lvl, i], decks[lvl, n - 1] = decks[lvl, n - 1], decks[lvl, i]


def deck_top(st: duel.State, lvl: int) -> int:
    n = int(field(st, "deck_len")[lvl])
    return int(field(st, "decks")[lvl, n - 1]) if n else -1


def give_bought(st: duel.State, seat: int, cids: Iterable[int], joker_color: int = 0) -> None:
    """Make ``seat`` the owner of bought cards ``cids``: bonuses, points, crowns and colour
    points follow (a joker is attached to ``joker_color``). Royal cards are not taken:
    crown thresholds count as unused."""
    for cid in cids:
        card = CARDS[cid]
        detach(st, cid)
        field(st, "card_owner")[cid] = seat
        color = joker_color if card.is_joker else card.color
        field(st, "card_color")[cid] = color
        field(st, "points")[seat] += card.points
        field(st, "crowns")[seat] += card.crowns
        if color >= 0:
            field(st, "bonuses")[seat, color] += card.bonus_count
            field(st, "color_points")[seat, color] += card.points


def give_reserved(st: duel.State, seat: int, cid: int, blind: bool = False) -> None:
    """Add card ``cid`` to ``seat``'s reserve (no gold moves)."""
    detach(st, cid)
    k = int(field(st, "num_reserved")[seat])
    assert k < 3
    field(st, "reserved")[seat, k] = cid
    field(st, "reserved_level")[seat, k] = CARDS[cid].level
    field(st, "reserved_blind")[seat, k] = 1 if blind else 0
    field(st, "num_reserved")[seat] = k + 1


def give_royal(st: duel.State, seat: int, k: int) -> None:
    """Give royal card ``k`` (0-based) to ``seat`` as if claimed at a crown threshold
    (the seat must own enough crowns for it)."""
    from splendor.duel import ROYALS

    field(st, "royal_owner")[k] = seat
    field(st, "points")[seat] += ROYALS[k].points
    field(st, "crown_claims")[seat] += 1


def empty_deck(st: duel.State, lvl: int, seat: int) -> None:
    """Empty the level ``lvl`` deck by giving its cards to ``seat`` as purchases."""
    deck = [int(c) for c in field(st, "decks")[lvl, : int(field(st, "deck_len")[lvl])]]
    give_bought(st, seat, deck)


def free_cards(st: duel.State, pred: Callable[[Card], bool]) -> list[int]:
    """Ids of cards in a deck or the pyramid (free to move) that satisfy ``pred``."""
    return [c.id for c in CARDS if pred(c) and where(st, c.id)[0] in ("deck", "pyramid")]


def card_with(st: duel.State, pred: Callable[[Card], bool]) -> int:
    ids = free_cards(st, pred)
    assert ids, "no free card satisfies the predicate"
    return ids[0]


def card_where(**attrs) -> Callable[[Card], bool]:
    """A predicate on card attributes: ``card_where(level=1, ability="token")``; ``cost``
    may be given as a token string (``"2R 2K"``, pearls as ``P``)."""
    want = dict(attrs)
    if isinstance(want.get("cost"), str):
        want["cost"] = tuple(vec(want["cost"])[:6])
    return lambda c: all(getattr(c, k) == v for k, v in want.items())


def show(st: duel.State, pred: Callable[[Card], bool], index: int | None = None) -> tuple[int, str]:
    """Put the first free card satisfying ``pred`` in the pyramid (slot ``index``, by
    default the first slot of its level); return its id and notation slot (``"2.1"``)."""
    cid = card_with(st, pred)
    lvl = CARDS[cid].level - 1
    idx = PYRAMID_START[lvl] if index is None else index
    put_pyramid(st, idx, cid)
    return cid, f"{lvl + 1}.{idx - PYRAMID_START[lvl] + 1}"


def give_bonuses(
    st: duel.State, seat: int, bonuses: Sequence[int], avoid: Iterable[int] = ()
) -> None:
    """Give ``seat`` bought 0-point, 0-crown level-1 cards with bonus count 1 so that its
    bonuses grow by ``bonuses`` (length 5)."""
    avoid = set(avoid)
    for colour, n in enumerate(bonuses):
        ids = free_cards(
            st,
            lambda c, colour=colour: (
                c.level == 1
                and c.color == colour
                and c.points == 0
                and c.crowns == 0
                and c.id not in avoid
            ),
        )
        assert len(ids) >= n, f"not enough cards of colour {colour}"
        give_bought(st, seat, ids[:n])


# ------------------------------------------------------------------ turn


def set_current(st: duel.State, seat: int) -> None:
    set_scalar(st, "current", seat)


def finish_turn(st: duel.State) -> None:
    """Make the first legal decision until the current seat's turn is over (for choices
    the test does not care about)."""
    seat = st.current_player
    while not st.is_terminal and st.current_player == seat and st.phase != "main":
        st.apply(st.legal_actions()[0])


def quiet_take(st: duel.State) -> None:
    """Play one whole turn of the current seat that scores nothing: take a single token
    (returning tokens if the limit asks), or, failing that, the first legal decision."""
    seat = st.current_player
    acts = st.legal_actions()
    a = next((a for a in acts if a.kind == "take" and len(a.cells) == 1), acts[0])
    st.apply(a)
    while not st.is_terminal and st.current_player == seat and st.phase != "main":
        st.apply(st.legal_actions()[0])


def set_privileges(st: duel.State, privs: Sequence[int]) -> None:
    """Privileges held by seats 0 and 1 (the rest lie beside the board)."""
    field(st, "privileges")[:] = list(privs)


def fill_pyramid(st: duel.State, pred: Callable[[Card], bool]) -> None:
    """Make every pyramid card satisfy ``pred`` (cards swapped in from the decks)."""
    for idx in range(12):
        cur = int(field(st, "pyramid")[idx])
        if cur >= 0 and pred(CARDS[cur]):
            continue
        lvl = 0 if idx < 5 else (1 if idx < 9 else 2)
        cid = next(
            c
            for c in free_cards(st, lambda c, lvl=lvl: c.level == lvl + 1 and pred(c))
            if where(st, c)[0] == "deck"
        )
        put_pyramid(st, idx, cid)


def cost_text(cid: int) -> str:
    """The printed cost of card ``cid`` as a token string (``"2R 2K 1P"``)."""
    return " ".join(f"{n}{TOKENS[c]}" for c, n in enumerate(CARDS[cid].cost) if n)


def affordable(
    st: duel.State,
    pred: Callable[[Card], bool],
    seat: int = 0,
    extra: str = "",
    board: str | None = None,
    index: int | None = None,
) -> tuple[int, str]:
    """Show a card satisfying ``pred`` in the pyramid and give ``seat`` exactly its
    printed cost plus ``extra`` tokens (the opponent keeps theirs); return (id, slot)."""
    cid, slot = show(st, pred, index)
    have = [a + b for a, b in zip(vec(cost_text(cid)), vec(extra), strict=True)]
    for c in range(6):  # more than the game has of a colour: gold makes up the rest
        if have[c] > BAG_START[c]:
            have[6] += have[c] - BAG_START[c]
            have[c] = BAG_START[c]
    assert have[6] <= BAG_START[6], "card too dear for the tokens of the game"
    text = " ".join(f"{have[c]}{TOKENS[c]}" for c in range(7) if have[c])
    arrange(st, board=board, tokens={seat: text})
    return cid, slot
