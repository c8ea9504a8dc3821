"""Why a Splendor Duel entry is not a usable decision, in words for a person: the
terminal and the web server both take them from here (best effort: the rules engine,
:mod:`splendor.duel.rules`, is the authority).

:func:`why_illegal` explains a well-formed action that is not legal now (a line with a gap
or a gold, a card out of reach, no gold to reserve with, the reserve limit, a privilege
after replenishing, a decision of another phase, ...); :func:`notation_hint` explains an
entry that is not an action at all. Both speak the reader's language (``language``:
``"en"``, ``"fr"`` or ``"nl"``, :mod:`splendor.i18n`); the notation itself (``take c3 c4``)
is the same in every language.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import explain as shared
from ..colors import DUEL_GOLD, DUEL_TOKEN_LETTERS, GEM_LETTERS, NUM_GEMS, PEARL
from ..i18n import DEFAULT_LANGUAGE, Messages, messages
from ..move_words import letter_tokens
from .actions import Action
from .board import SIZE, cell_name, parse_cell
from .cards import MAX_RESERVED
from .state import HiddenCard, Observation

_PHASE_KINDS = {
    "main": {"privilege", "replenish", "take", "take_gold", "buy", "buy_choose", "pass"},
    "reserve": {"reserve_pyramid", "reserve_deck"},
    "payment": {"pay_gold", "pay"},
    "joker": {"joker"},
    "token": {"token"},
    "steal": {"steal"},
    "royal": {"royal"},
    "return tokens": {"return"},
}
"""The kinds of decision each phase asks for."""


def _phase_wants(t: Messages, phase: str) -> str:
    """What the phase ``phase`` asks for first, in words."""
    wants = {
        "reserve": t.gettext(
            "you took a gold: choose the card to reserve first ('reserve 2.3' or 'reserve d1', D9)"
        ),
        "payment": t.gettext(
            "finish the payment first ('gold W' spends a gold for a W, 'pay' ends it, D10)"
        ),
        "joker": t.gettext("attach the joker you bought first ('joker W', D14)"),
        "token": t.gettext("take the token of the card's ability first ('token c3', D15)"),
        "steal": t.gettext("choose the token to steal first ('steal W', D17)"),
        "royal": t.gettext("choose a royal card first ('royal 1', D19)"),
        "return tokens": t.gettext(
            "return tokens first, one at a time ('return W', 'return *', D20)"
        ),
    }
    return wants.get(phase) or t.gettext("the decision now is: {phase}", phase=phase)


def _token_name(t: Messages, c: int) -> str:
    """A token's name: its colour letter (W U G R K), or pearl, or gold."""
    if c == PEARL:
        return t.gettext("pearl")
    if c == DUEL_GOLD:
        return t.gettext("gold")
    return GEM_LETTERS[c]


def _what(t: Messages, v: int | None) -> str:
    """What a cell holds, in words."""
    if v is None:
        return t.gettext("nothing (it is empty)")
    if v == DUEL_GOLD:
        return t.gettext("a gold")
    if v == PEARL:
        return t.gettext("a pearl")
    return t.gettext("a {colour}", colour=GEM_LETTERS[v])


def _gold_cells(obs: Observation) -> list[str]:
    return [cell_name(i) for i, v in enumerate(obs.board) if v == DUEL_GOLD]


def _reserve_blocker(t: Messages, obs: Observation, me: Any) -> str | None:
    """Why no gold can be taken to reserve (D9), or None."""
    if len(me.reserved) >= MAX_RESERVED:
        return t.gettext(
            "you already hold {limit} reserved cards, the limit (D9)", limit=MAX_RESERVED
        )
    if not _gold_cells(obs):
        return t.gettext("there is no gold on the board, and reserving needs one (D9)")
    if not any(c is not None for lvl in obs.pyramid for c in lvl) and not any(obs.deck_sizes):
        return t.gettext("no card is left to reserve")
    return None


def cannot_afford(
    cost: Sequence[int],
    bonuses: Sequence[int],
    tokens: Sequence[int],
    language: str = DEFAULT_LANGUAGE,
) -> str | None:
    """Why ``cost`` (W U G R K pearl) is out of reach (D10), or None when the tokens and
    gold cover it. Bonuses reduce gem costs, never pearls.

    Raises:
        ValueError: an unknown ``language``.
    """
    return shared.cannot_afford(
        messages(language), cost, bonuses, tokens, DUEL_TOKEN_LETTERS[: NUM_GEMS + 1]
    )


def _buy_reason(t: Messages, obs: Observation, action: Action, me: Any) -> str:
    assert action.slot is not None
    if action.reserved:
        if action.slot > len(me.reserved):
            return shared.no_reserved_card(t, action.slot, len(me.reserved))
        card = me.reserved[action.slot - 1]
        if isinstance(card, HiddenCard):  # never for one's own seat (D22)
            return t.gettext("not legal now")
        where = f"r{action.slot}"
    else:
        assert action.level is not None
        card = obs.pyramid[action.level - 1][action.slot - 1]
        where = f"{action.level}.{action.slot}"
        if card is None:
            return t.gettext("slot {slot} is empty", slot=where)
    if card.is_joker and not any(me.bonuses):
        return t.gettext(
            "a joker card needs one of your cards with a coloured bonus to attach to, and "
            "you have none yet (D14)"
        )
    why = cannot_afford(card.cost, me.bonuses, me.tokens, t.language)
    if why is not None:
        return why
    if action.kind == "buy_choose":
        return t.gettext(
            "there is no payment to choose (that needs spare gold beyond what the card "
            "requires): type 'buy {where}'",
            where=where,
        )
    return t.gettext("not legal now")


def _main_reason(t: Messages, obs: Observation, action: Action, me: Any) -> str:
    kind = action.kind
    board = obs.board
    if kind == "privilege":
        cell = action.cells[0]
        name = cell_name(cell)
        if me.privileges == 0:
            return t.gettext(
                "you hold no privilege (you get one when your opponent replenishes the "
                "board or takes 3 tokens of a colour or both pearls, D6-D8)"
            )
        if obs.replenished:
            return t.gettext(
                "privileges are used before replenishing, and the board was replenished "
                "this turn (D6, D7)"
            )
        if board[cell] is None:
            return t.gettext("{cell} is empty", cell=name)
        if board[cell] == DUEL_GOLD:
            return t.gettext(
                "{cell} holds a gold: a privilege takes a gem or a pearl, never gold (D6)",
                cell=name,
            )
        return t.gettext("not legal now")
    if kind == "replenish":
        if obs.replenished:
            return t.gettext("the board was already replenished this turn (D7)")
        if not sum(obs.bag):
            return t.gettext("the bag is empty: there is nothing to replenish with (D7)")
        return t.gettext("not legal now")
    if kind == "take":
        for cell in action.cells:
            v = board[cell]
            name = cell_name(cell)
            if v is None:
                if len(action.cells) == 1:
                    return t.gettext("{cell} is empty", cell=name)
                return t.gettext("{cell} is empty: a line may have no gap (D8)", cell=name)
            if v == DUEL_GOLD:
                return t.gettext(
                    "{cell} holds a gold: gold is never taken in a line, only with "
                    "'gold {cell}' to reserve a card (D8, D9)",
                    cell=name,
                )
        return t.gettext("not legal now")
    if kind == "take_gold":
        cell = action.cells[0]
        name = cell_name(cell)
        blocker = _reserve_blocker(t, obs, me)
        if blocker is not None:
            return blocker
        if board[cell] != DUEL_GOLD:
            golds = " ".join(_gold_cells(obs))
            if board[cell] is None:
                return t.gettext(
                    "{cell} is empty, not a gold: the gold is on {golds}", cell=name, golds=golds
                )
            return t.gettext(
                "{cell} holds {what}, not a gold: the gold is on {golds}",
                cell=name,
                what=_what(t, board[cell]),
                golds=golds,
            )
        return t.gettext("not legal now")
    if kind in ("buy", "buy_choose"):
        return _buy_reason(t, obs, action, me)
    if kind == "pass":
        return t.gettext("passing is allowed only when nothing else is possible")
    return t.gettext("not legal now")


def _later_reason(t: Messages, obs: Observation, action: Action, me: Any) -> str:
    """An action of the phase being played that is not legal."""
    kind = action.kind
    if kind == "reserve_pyramid":
        return t.gettext("slot {slot} is empty", slot=f"{action.level}.{action.slot}")
    if kind == "reserve_deck":
        return t.gettext("the level-{level} deck is empty", level=action.level)
    if kind == "pay_gold" and obs.payment is not None:
        _, need, spent = obs.payment
        c = action.colors[0]
        if need[c] <= 0:
            return t.gettext("nothing more is owed in {token}", token=_token_name(t, c))
        if me.tokens[DUEL_GOLD] - spent <= 0:
            return t.gettext("you have no gold left to spend")
        return t.gettext("that would leave the rest of the payment short: spend the gold elsewhere")
    if kind == "pay" and obs.payment is not None:
        _, need, spent = obs.payment
        lacking = [
            (DUEL_TOKEN_LETTERS[c], need[c] - me.tokens[c])
            for c in range(6)
            if need[c] > me.tokens[c]
        ]
        return t.gettext(
            "you still lack {lacking}: spend gold for it ('gold W')",
            lacking=letter_tokens(t, lacking),
        )
    if kind == "joker":
        c = action.colors[0]
        have = " ".join(GEM_LETTERS[k] for k in range(NUM_GEMS) if me.bonuses[k])
        return t.gettext(
            "you have no card with a {colour} bonus to attach the joker to "
            "(you have: {have}) (D14)",
            colour=GEM_LETTERS[c],
            have=have or t.gettext("none"),
        )
    if kind == "token":
        card = obs.pending_card
        cell = action.cells[0]
        if card is None or not 0 <= card.color < NUM_GEMS:
            return t.gettext("not legal now")
        cells = [cell_name(i) for i, v in enumerate(obs.board) if v == card.color]
        return t.gettext(
            "{cell} holds {what}; the ability takes a {colour} token (on {cells}) (D15)",
            cell=cell_name(cell),
            what=_what(t, obs.board[cell]),
            colour=GEM_LETTERS[card.color],
            cells=" ".join(cells) or t.gettext("no cell"),
        )
    if kind == "steal":
        return t.gettext(
            "your opponent holds no {token} token to steal (D17)",
            token=_token_name(t, action.colors[0]),
        )
    if kind == "royal":
        return t.gettext("royal card {slot} was already taken (D19)", slot=action.slot)
    if kind == "return":
        return t.gettext("you hold no {token} token", token=_token_name(t, action.colors[0]))
    return t.gettext("not legal now")


def why_illegal(obs: Observation, action: Action, language: str = DEFAULT_LANGUAGE) -> str:
    """A short reason why ``action`` is not legal for the seat to play in ``obs``, in
    ``language``.

    Raises:
        ValueError: an unknown ``language``.
    """
    t = messages(language)
    seat = obs.current_player
    if seat is None:
        return t.gettext("the game is over")
    me = obs.player(seat)
    phase = obs.phase
    kind = action.kind
    if kind not in _PHASE_KINDS.get(phase, set()):
        if phase == "main" and kind in ("reserve_pyramid", "reserve_deck"):
            blocker = _reserve_blocker(t, obs, me)
            if blocker is not None:
                return blocker
            golds = _gold_cells(obs)
            return t.gettext(
                "to reserve, first take a gold from the board ('gold {cell}'; gold on "
                "{golds}), then choose the card ('{action}') (D9)",
                cell=golds[0],
                golds=" ".join(golds),
                action=str(action),
            )
        if phase == "main":
            return t.gettext(
                "that is only asked later in a turn (a payment, a joker, a token, a steal, "
                "a royal card or returning tokens)"
            )
        return _phase_wants(t, phase)
    if phase == "main":
        return _main_reason(t, obs, action, me)
    return _later_reason(t, obs, action, me)


def _verb_hints(t: Messages) -> dict[str, str]:
    return {
        "take": t.gettext(
            "take names 1-3 adjacent cells of the board, like 'take c3 c4 c5' (columns a-e, "
            "rows 1-5 from the top)"
        ),
        "privilege": t.gettext("spend a privilege on one cell: 'privilege c3'"),
        "gold": t.gettext(
            "take the gold on a cell to reserve ('gold a1'), or while paying spend a gold "
            "for a colour ('gold W', 'gold P')"
        ),
        "reserve": t.gettext(
            "after 'gold a1', reserve a pyramid card ('reserve 2.3') or a deck's top card "
            "('reserve d1')"
        ),
        "buy": t.gettext(
            "buy a pyramid card by level.slot ('buy 2.3': level 1 has slots 1-5, level 2 1-4, "
            "level 3 1-3) or your reserved card ('buy r1')"
        ),
        "joker": t.gettext("attach the joker to a colour: 'joker W'"),
        "token": t.gettext("take the token on a cell: 'token c3'"),
        "steal": t.gettext("steal a gem or pearl: 'steal W', 'steal P'"),
        "royal": t.gettext("choose a royal card by its number: 'royal 1'"),
        "return": t.gettext("return one token: 'return W' ('return P' pearl, 'return *' gold)"),
    }


def gap_cells(names: Sequence[str]) -> list[str] | None:
    """The cells skipped by ``names`` (``["a1", "c1"]`` -> ``["b1"]``) when they lie on one
    row, column or diagonal of the board within 3 cells of each other, so that filling
    them would make a line (D8); None when the cells are not so (or not cells)."""
    try:
        cells = sorted({parse_cell(n) for n in names})
    except ValueError:
        return None
    if len(cells) < 2 or len(cells) != len(names):
        return None
    rows = [c // SIZE for c in cells]
    cols = [c % SIZE for c in cells]
    dr, dc = rows[-1] - rows[0], cols[-1] - cols[0]
    steps = max(abs(dr), abs(dc))
    if steps > 2 or (dr and dc and abs(dr) != abs(dc)):
        return None
    r, c = dr // steps, dc // steps
    line = [(rows[0] + k * r) * SIZE + cols[0] + k * c for k in range(steps + 1)]
    if not set(cells) <= set(line):
        return None
    missing = [cell_name(x) for x in line if x not in cells]
    return missing or None


def _gap_reason(t: Messages, names: Sequence[str]) -> str | None:
    missing = gap_cells(names)
    if missing is None:
        return None
    return t.gettext(
        "{cells} is not a line: there is a gap at {gap}; the cells of a line are next to "
        "each other, take {gap} too or fewer cells (D8)",
        cells=" ".join(n.lower() for n in names),
        gap=" ".join(missing),
    )


def notation_hint(entry: str, error: str = "", language: str = DEFAULT_LANGUAGE) -> str:
    """What was wrong with ``entry`` (``error``: the parser's message, in English) and how
    to write the decision instead, in ``language``.

    Raises:
        ValueError: an unknown ``language``.
    """
    t = messages(language)
    verb = entry.split()[0].lower() if entry.split() else ""
    reason = error.splitlines()[0] if error else ""
    if reason.startswith("cannot read action "):
        reason = reason.split(": ", 1)[1] if ": " in reason else ""
    if verb == "take" and (not error or "not a line" in reason):
        # the parser's reason is English only (a terminal in another language passes none)
        gap = _gap_reason(t, entry.split()[1:])
        if gap is not None:
            return gap
    hint = _verb_hints(t).get(verb)
    if hint is None:
        hint = t.gettext("type ? for the notation, or the number of a decision in the list")
        if verb == "noble":
            reason = t.gettext("Splendor Duel has royal cards, not nobles ('royal 1')")
    if not reason:
        return hint
    if "(D" in reason:  # the parser already said how (a line is adjacent cells, D8)
        return reason
    return f"{reason}; {hint}"


__all__ = ["cannot_afford", "notation_hint", "why_illegal"]
