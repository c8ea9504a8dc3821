"""Why a classic Splendor entry is not a usable decision, in words for a person: the
terminal and the web server both take them from here (best effort: the rules engine,
:mod:`splendor.classic.rules`, is the authority).

:func:`why_illegal` explains a well-formed action that is not legal now; :func:`notation_hint`
explains an entry that is not an action at all. Both speak the reader's language
(``language``: ``"en"``, ``"fr"`` or ``"nl"``, :mod:`splendor.i18n`); the notation itself
(``take W U G``) is the same in every language.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..colors import GEM_LETTERS, NUM_GEMS
from ..explain import cannot_afford, no_reserved_card
from ..i18n import DEFAULT_LANGUAGE, Messages, messages
from .actions import Action
from .state import HiddenCard, Observation


def _verb_hints(t: Messages) -> dict[str, str]:
    return {
        "take": t.gettext(
            "take 3 different colours ('take W U G') or 2 of one colour ('take R R'); "
            "colours are W U G R K"
        ),
        "reserve": t.gettext(
            "reserve a face-up card by level.slot ('reserve 2.3') or a deck's top card "
            "('reserve d1')"
        ),
        "buy": t.gettext(
            "buy a face-up card by level.slot ('buy 2.3') or your reserved card ('buy r1')"
        ),
        "return": t.gettext("return one token: 'return W' ('return *' for gold)"),
        "gold": t.gettext("spend a gold for a colour: 'gold W'"),
        "noble": t.gettext("choose a noble by its slot: 'noble 1'"),
    }


def notation_hint(entry: str, error: str = "", language: str = DEFAULT_LANGUAGE) -> str:
    """How to write the decision ``entry`` meant (``error``, the parser's message, is not
    shown: the hint per verb says more).

    Raises:
        ValueError: an unknown ``language``.
    """
    t = messages(language)
    verb = entry.split()[0].lower() if entry.split() else ""
    hint = _verb_hints(t).get(verb)
    if hint is None:
        return t.gettext("type ? for the notation, or the number of a decision in the list")
    return hint


_MAIN_KINDS = {
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


def why_illegal(obs: Observation, action: Action, language: str = DEFAULT_LANGUAGE) -> str:
    """A short reason why ``action`` is not legal for the seat to play in ``obs`` (best
    effort: the rules engine is the authority), in ``language``.

    Raises:
        ValueError: an unknown ``language``.
    """
    t = messages(language)
    seat = obs.current_player
    if seat is None:
        return t.gettext("the game is over")
    phase = obs.phase
    if phase != "main":
        if phase == "payment":
            return t.gettext("finish the payment first ('gold W' or 'pay')")
        if phase == "return tokens":
            return t.gettext("return tokens first, one at a time ('return W', 'return *')")
        if phase == "choose noble":
            return t.gettext("choose a noble first ('noble 1', ...)")
        return t.gettext("the decision now is: {phase}", phase=phase)
    if action.kind not in _MAIN_KINDS:
        return t.gettext(
            "that is only asked after a main action (paying, returning tokens, nobles)"
        )
    me = obs.player(seat)
    supply = obs.supply
    if action.kind in ("take3", "take2_different", "take1"):
        empty = [GEM_LETTERS[c] for c in action.colors if supply[c] == 0]
        if empty:
            return t.ngettext(
                "no {colours} token left in the supply",
                "no {colours} tokens left in the supply",
                len(empty),
                colours=" ".join(empty),
            )
        available = sum(1 for c in range(NUM_GEMS) if supply[c] > 0)
        if len(action.colors) < 3 and available >= 3:
            return t.gettext(
                "{available} gem colours are available, so take 3 different ones "
                "(or 2 of one colour from a pile of 4 or more)",
                available=available,
            )
        return t.gettext("not a legal take now")
    if action.kind == "take2_same":
        c = action.colors[0]
        return t.ngettext(
            "taking 2 {colour} needs 4 or more in the pile; there is {n}",
            "taking 2 {colour} needs 4 or more in the pile; there are {n}",
            supply[c],
            colour=GEM_LETTERS[c],
            n=supply[c],
        )
    if action.kind in ("reserve_faceup", "reserve_deck"):
        if len(me.reserved) >= 3:
            return t.gettext("you already hold 3 reserved cards (buy one to free a slot)")
        if action.kind == "reserve_deck":
            assert action.level is not None
            return t.gettext("the level-{level} deck is empty", level=action.level)
        return t.gettext("slot {slot} is empty", slot=f"{action.level}.{action.slot}")
    if action.kind in ("buy_faceup", "buy_choose") and action.level is not None:
        assert action.slot is not None
        card = obs.faceup[action.level - 1][action.slot - 1]
        if card is None:
            return t.gettext("slot {slot} is empty", slot=f"{action.level}.{action.slot}")
        return _buy_reason(t, action, card.cost, me.bonuses, me.tokens)
    if action.kind in ("buy_reserved", "buy_choose"):
        assert action.slot is not None
        if action.slot > len(me.reserved):
            return no_reserved_card(t, action.slot, len(me.reserved))
        reserved = me.reserved[action.slot - 1]
        if isinstance(reserved, HiddenCard):  # never for one's own seat (C16)
            return t.gettext("not legal now")
        return _buy_reason(t, action, reserved.cost, me.bonuses, me.tokens)
    if action.kind == "pass":
        return t.gettext("passing is allowed only when no other action is legal (C17)")
    return t.gettext("not legal now")


def _buy_reason(
    t: Messages,
    action: Action,
    cost: Sequence[int],
    bonuses: Sequence[int],
    tokens: Sequence[int],
) -> str:
    why = cannot_afford(t, cost, bonuses, tokens, GEM_LETTERS)
    if why is not None:
        return why
    if action.kind == "buy_choose":
        plain = str(action).removesuffix(" choose")
        return t.gettext(
            "there is only one way to pay for it, nothing to choose: type '{plain}'",
            plain=plain,
        )
    return t.gettext("not legal now")


__all__ = ["notation_hint", "why_illegal"]
