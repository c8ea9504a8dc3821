"""Why a Splendor Duel entry is not a usable decision, in words for a person: the
terminal and the web server both take them from here (best effort: the rules engine,
:mod:`splendor.duel.rules`, is the authority).

:func:`why_illegal` explains a well-formed action that is not legal now (a line with a gap
or a gold, a card out of reach, no gold to reserve with, the reserve limit, a privilege
after replenishing, a decision of another phase, ...); :func:`notation_hint` explains an
entry that is not an action at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..colors import DUEL_GOLD, DUEL_TOKEN_LETTERS, GEM_LETTERS, NUM_GEMS, PEARL
from .actions import Action
from .board import cell_name
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

_PHASE_WANTS = {
    "reserve": "you took a gold: choose the card to reserve first ('reserve 2.3' or "
    "'reserve d1', D9)",
    "payment": "finish the payment first ('gold W' spends a gold for a W, 'pay' ends it, D10)",
    "joker": "attach the joker you bought first ('joker W', D14)",
    "token": "take the token of the card's ability first ('token c3', D15)",
    "steal": "choose the token to steal first ('steal W', D17)",
    "royal": "choose a royal card first ('royal 1', D19)",
    "return tokens": "return tokens first, one at a time ('return W', 'return *', D20)",
}

_TOKEN_NAMES = ("W", "U", "G", "R", "K", "pearl", "gold")


def _what(v: int | None) -> str:
    """What a cell holds, in words."""
    if v is None:
        return "nothing (it is empty)"
    if v == DUEL_GOLD:
        return "a gold"
    if v == PEARL:
        return "a pearl"
    return f"a {GEM_LETTERS[v]}"


def _gold_cells(obs: Observation) -> list[str]:
    return [cell_name(i) for i, v in enumerate(obs.board) if v == DUEL_GOLD]


def _reserve_blocker(obs: Observation, me: Any) -> str | None:
    """Why no gold can be taken to reserve (D9), or None."""
    if len(me.reserved) >= MAX_RESERVED:
        return f"you already hold {MAX_RESERVED} reserved cards, the limit (D9)"
    if not _gold_cells(obs):
        return "there is no gold on the board, and reserving needs one (D9)"
    if not any(c is not None for lvl in obs.pyramid for c in lvl) and not any(obs.deck_sizes):
        return "no card is left to reserve"
    return None


def cannot_afford(cost: Sequence[int], bonuses: Sequence[int], tokens: Sequence[int]) -> str | None:
    """Why ``cost`` (W U G R K pearl) is out of reach (D10), or None when the tokens and
    gold cover it. Bonuses reduce gem costs, never pearls."""
    short = []
    for c in range(6):
        owed = cost[c] - (bonuses[c] if c < NUM_GEMS else 0)
        owed = max(0, owed)
        if owed > tokens[c]:
            short.append((c, owed - tokens[c]))
    missing = sum(n for _, n in short)
    gold = tokens[DUEL_GOLD]
    if missing <= gold:
        return None
    detail = " ".join(f"{n}{DUEL_TOKEN_LETTERS[c]}" for c, n in short)
    return f"you cannot afford it: {missing} short ({detail}) and you hold {gold} gold"


def _buy_reason(obs: Observation, action: Action, me: Any) -> str:
    assert action.slot is not None
    if action.reserved:
        if action.slot > len(me.reserved):
            held = len(me.reserved)
            return f"you have no reserved card {action.slot} (you hold {held})"
        card = me.reserved[action.slot - 1]
        if isinstance(card, HiddenCard):  # never for one's own seat (D22)
            return "not legal now"
        where = f"r{action.slot}"
    else:
        assert action.level is not None
        card = obs.pyramid[action.level - 1][action.slot - 1]
        where = f"{action.level}.{action.slot}"
        if card is None:
            return f"slot {where} is empty"
    if card.is_joker and not any(me.bonuses):
        return (
            "a joker card needs one of your cards with a coloured bonus to attach to, and "
            "you have none yet (D14)"
        )
    why = cannot_afford(card.cost, me.bonuses, me.tokens)
    if why is not None:
        return why
    if action.kind == "buy_choose":
        return (
            "there is no payment to choose (that needs spare gold beyond what the card "
            f"requires): type 'buy {where}'"
        )
    return "not legal now"


def _main_reason(obs: Observation, action: Action, me: Any) -> str:
    kind = action.kind
    board = obs.board
    if kind == "privilege":
        cell = action.cells[0]
        name = cell_name(cell)
        if me.privileges == 0:
            return (
                "you hold no privilege (you get one when your opponent replenishes the "
                "board or takes 3 tokens of a colour or both pearls, D6-D8)"
            )
        if obs.replenished:
            return (
                "privileges are used before replenishing, and the board was replenished "
                "this turn (D6, D7)"
            )
        if board[cell] is None:
            return f"{name} is empty"
        if board[cell] == DUEL_GOLD:
            return f"{name} holds a gold: a privilege takes a gem or a pearl, never gold (D6)"
        return "not legal now"
    if kind == "replenish":
        if obs.replenished:
            return "the board was already replenished this turn (D7)"
        if not sum(obs.bag):
            return "the bag is empty: there is nothing to replenish with (D7)"
        return "not legal now"
    if kind == "take":
        for cell in action.cells:
            v = board[cell]
            name = cell_name(cell)
            if v is None:
                if len(action.cells) == 1:
                    return f"{name} is empty"
                return f"{name} is empty: a line may have no gap (D8)"
            if v == DUEL_GOLD:
                return (
                    f"{name} holds a gold: gold is never taken in a line, only with "
                    f"'gold {name}' to reserve a card (D8, D9)"
                )
        return "not legal now"
    if kind == "take_gold":
        cell = action.cells[0]
        name = cell_name(cell)
        blocker = _reserve_blocker(obs, me)
        if blocker is not None:
            return blocker
        if board[cell] != DUEL_GOLD:
            golds = " ".join(_gold_cells(obs))
            held = "is empty" if board[cell] is None else f"holds {_what(board[cell])}"
            return f"{name} {held}, not a gold: the gold is on {golds}"
        return "not legal now"
    if kind in ("buy", "buy_choose"):
        return _buy_reason(obs, action, me)
    if kind == "pass":
        return "passing is allowed only when nothing else is possible"
    return "not legal now"


def _later_reason(obs: Observation, action: Action, me: Any) -> str:
    """An action of the phase being played that is not legal."""
    kind = action.kind
    if kind == "reserve_pyramid":
        return f"slot {action.level}.{action.slot} is empty"
    if kind == "reserve_deck":
        return f"the level-{action.level} deck is empty"
    if kind == "pay_gold" and obs.payment is not None:
        _, need, spent = obs.payment
        c = action.colors[0]
        if need[c] <= 0:
            return f"nothing more is owed in {_TOKEN_NAMES[c]}"
        if me.tokens[DUEL_GOLD] - spent <= 0:
            return "you have no gold left to spend"
        return "that would leave the rest of the payment short: spend the gold elsewhere"
    if kind == "pay" and obs.payment is not None:
        _, need, spent = obs.payment
        lacking = [
            f"{need[c] - me.tokens[c]}{DUEL_TOKEN_LETTERS[c]}"
            for c in range(6)
            if need[c] > me.tokens[c]
        ]
        return f"you still lack {' '.join(lacking)}: spend gold for it ('gold W')"
    if kind == "joker":
        c = action.colors[0]
        have = " ".join(GEM_LETTERS[k] for k in range(NUM_GEMS) if me.bonuses[k])
        return (
            f"you have no card with a {GEM_LETTERS[c]} bonus to attach the joker to "
            f"(you have: {have or 'none'}) (D14)"
        )
    if kind == "token":
        card = obs.pending_card
        cell = action.cells[0]
        if card is None or not 0 <= card.color < NUM_GEMS:
            return "not legal now"
        want = GEM_LETTERS[card.color]
        cells = [cell_name(i) for i, v in enumerate(obs.board) if v == card.color]
        return (
            f"{cell_name(cell)} holds {_what(obs.board[cell])}; the ability takes a {want} "
            f"token (on {' '.join(cells) or 'no cell'}) (D15)"
        )
    if kind == "steal":
        c = action.colors[0]
        return f"your opponent holds no {_TOKEN_NAMES[c]} token to steal (D17)"
    if kind == "royal":
        return f"royal card {action.slot} was already taken (D19)"
    if kind == "return":
        c = action.colors[0]
        return f"you hold no {_TOKEN_NAMES[c]} token"
    return "not legal now"


def why_illegal(obs: Observation, action: Action) -> str:
    """A short reason why ``action`` is not legal for the seat to play in ``obs``."""
    seat = obs.current_player
    if seat is None:
        return "the game is over"
    me = obs.player(seat)
    phase = obs.phase
    kind = action.kind
    if kind not in _PHASE_KINDS.get(phase, set()):
        if phase == "main" and kind in ("reserve_pyramid", "reserve_deck"):
            blocker = _reserve_blocker(obs, me)
            if blocker is not None:
                return blocker
            golds = _gold_cells(obs)
            return (
                f"to reserve, first take a gold from the board ('gold {golds[0]}'; gold on "
                f"{' '.join(golds)}), then choose the card ('{action}') (D9)"
            )
        if phase == "main":
            return (
                "that is only asked later in a turn (a payment, a joker, a token, a steal, "
                "a royal card or returning tokens)"
            )
        return _PHASE_WANTS.get(phase, f"the decision now is: {phase}")
    if phase == "main":
        return _main_reason(obs, action, me)
    return _later_reason(obs, action, me)


_VERB_HINTS = {
    "take": "take names 1-3 adjacent cells of the board, like 'take c3 c4 c5' (columns a-e, "
    "rows 1-5 from the top)",
    "privilege": "spend a privilege on one cell: 'privilege c3'",
    "gold": "take the gold on a cell to reserve ('gold a1'), or while paying spend a gold "
    "for a colour ('gold W', 'gold P')",
    "reserve": "after 'gold a1', reserve a pyramid card ('reserve 2.3') or a deck's top card "
    "('reserve d1')",
    "buy": "buy a pyramid card by level.slot ('buy 2.3': level 1 has slots 1-5, level 2 1-4, "
    "level 3 1-3) or your reserved card ('buy r1')",
    "joker": "attach the joker to a colour: 'joker W'",
    "token": "take the token on a cell: 'token c3'",
    "steal": "steal a gem or pearl: 'steal W', 'steal P'",
    "royal": "choose a royal card by its number: 'royal 1'",
    "return": "return one token: 'return W' ('return P' pearl, 'return *' gold)",
}


def notation_hint(entry: str, error: str = "") -> str:
    """What was wrong with ``entry`` (``error``: the parser's message) and how to write
    the decision instead."""
    verb = entry.split()[0].lower() if entry.split() else ""
    reason = error.splitlines()[0] if error else ""
    if reason.startswith("cannot read action "):
        reason = reason.split(": ", 1)[1] if ": " in reason else ""
    hint = _VERB_HINTS.get(verb)
    if hint is None:
        hint = "type ? for the notation, or the number of a decision in the list"
        if verb == "noble":
            reason = "Splendor Duel has royal cards, not nobles ('royal 1')"
    if not reason:
        return hint
    if "(D" in reason:  # the parser already said how (a line is adjacent cells, D8)
        return reason
    return f"{reason}; {hint}"


__all__ = ["cannot_afford", "notation_hint", "why_illegal"]
