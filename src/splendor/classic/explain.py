"""Why a classic Splendor entry is not a usable decision, in words for a person: the
terminal and the web server both take them from here (best effort: the rules engine,
:mod:`splendor.classic.rules`, is the authority).

:func:`why_illegal` explains a well-formed action that is not legal now; :func:`notation_hint`
explains an entry that is not an action at all.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..colors import GEM_LETTERS, NUM_GEMS
from .actions import Action
from .state import HiddenCard, Observation


def notation_hint(entry: str, error: str = "") -> str:
    """How to write the decision ``entry`` meant (``error``, the parser's message, is not
    shown: the hint per verb says more)."""
    verb = entry.split()[0].lower()
    hints = {
        "take": "take 3 different colours ('take W U G') or 2 of one colour ('take R R'); "
        "colours are W U G R K",
        "reserve": "reserve a face-up card by level.slot ('reserve 2.3') or a deck's top "
        "card ('reserve d1')",
        "buy": "buy a face-up card by level.slot ('buy 2.3') or your reserved card ('buy r1')",
        "return": "return one token: 'return W' ('return *' for gold)",
        "gold": "spend a gold for a colour: 'gold W'",
        "noble": "choose a noble by its slot: 'noble 1'",
    }
    return hints.get(verb, "type ? for the notation, or the number of a decision in the list")


def why_illegal(obs: Observation, action: Action) -> str:
    """A short reason why ``action`` is not legal for the seat to play in ``obs`` (best
    effort: the rules engine is the authority)."""
    seat = obs.current_player
    if seat is None:
        return "the game is over"
    phase = obs.phase
    main_kinds = {
        "take3",
        "take2_different",
        "take1",
        "take2_same",
        "reserve_faceup",
        "reserve_deck",
        "buy_faceup",
        "buy_reserved",
        "buy_choose",
        "pass",
    }
    if phase != "main":
        wanted = {
            "payment": "finish the payment first ('gold W' or 'pay')",
            "return tokens": "return tokens first, one at a time ('return W', 'return *')",
            "choose noble": "choose a noble first ('noble 1', ...)",
        }.get(phase, f"the decision now is: {phase}")
        return wanted
    if action.kind not in main_kinds:
        return "that is only asked after a main action (paying, returning tokens, nobles)"
    me = obs.player(seat)
    supply = obs.supply
    if action.kind in ("take3", "take2_different", "take1"):
        empty = [GEM_LETTERS[c] for c in action.colors if supply[c] == 0]
        if empty:
            return f"no {' '.join(empty)} token left in the supply"
        available = sum(1 for c in range(NUM_GEMS) if supply[c] > 0)
        if len(action.colors) < 3 and available >= 3:
            return (
                f"{available} gem colours are available, so take 3 different ones "
                "(or 2 of one colour from a pile of 4 or more)"
            )
        return "not a legal take now"
    if action.kind == "take2_same":
        c = action.colors[0]
        return (
            f"taking 2 {GEM_LETTERS[c]} needs 4 or more in the pile; "
            f"there {'is' if supply[c] == 1 else 'are'} {supply[c]}"
        )
    if action.kind in ("reserve_faceup", "reserve_deck"):
        if len(me.reserved) >= 3:
            return "you already hold 3 reserved cards (buy one to free a slot)"
        if action.kind == "reserve_deck":
            assert action.level is not None
            return f"the level-{action.level} deck is empty"
        return f"slot {action.level}.{action.slot} is empty"
    if action.kind in ("buy_faceup", "buy_choose") and action.level is not None:
        assert action.slot is not None
        card = obs.faceup[action.level - 1][action.slot - 1]
        if card is None:
            return f"slot {action.level}.{action.slot} is empty"
        return _buy_reason(action, card.cost, me.bonuses, me.tokens)
    if action.kind in ("buy_reserved", "buy_choose"):
        assert action.slot is not None
        if action.slot > len(me.reserved):
            held = len(me.reserved)
            return f"you have no reserved card {action.slot} (you hold {held})"
        reserved = me.reserved[action.slot - 1]
        if isinstance(reserved, HiddenCard):  # never for one's own seat (C16)
            return "not legal now"
        return _buy_reason(action, reserved.cost, me.bonuses, me.tokens)
    if action.kind == "pass":
        return "passing is allowed only when no other action is legal (C17)"
    return "not legal now"


def _cannot_afford(
    cost: Sequence[int], bonuses: Sequence[int], tokens: Sequence[int]
) -> str | None:
    """Why ``cost`` is out of reach (C9), or None when the tokens and gold cover it."""
    short = []
    for c in range(NUM_GEMS):
        owed = max(0, cost[c] - bonuses[c])
        if owed > tokens[c]:
            short.append((c, owed - tokens[c]))
    missing = sum(n for _, n in short)
    gold = tokens[5]
    if missing <= gold:
        return None
    detail = " ".join(f"{n}{GEM_LETTERS[c]}" for c, n in short)
    return f"you cannot afford it: {missing} short ({detail}) and you hold {gold} gold"


def _buy_reason(
    action: Action, cost: Sequence[int], bonuses: Sequence[int], tokens: Sequence[int]
) -> str:
    why = _cannot_afford(cost, bonuses, tokens)
    if why is not None:
        return why
    if action.kind == "buy_choose":
        plain = str(action).removesuffix(" choose")
        return f"there is only one way to pay for it, nothing to choose: type '{plain}'"
    return "not legal now"


__all__ = ["notation_hint", "why_illegal"]
