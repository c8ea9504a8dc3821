"""What a classic decision does besides its notation (:mod:`splendor.classic.effects`): a
noble visits by itself when exactly one qualifies at the end of a turn (C12)."""

from __future__ import annotations

import random

from splendor import classic
from splendor.classic.effects import effects_of
from splendor.effects import describe


def _qualifying(state: classic.State, seat: int) -> list[classic.Noble]:
    bonuses = state.player(seat).bonuses
    """The nobles of the row whose requirement ``seat``'s bonuses meet."""
    return [
        n
        for n in state.nobles
        if n is not None and all(b >= r for b, r in zip(bonuses, n.requirement, strict=True))
    ]


def test_a_noble_visit_without_a_choice_is_an_effect() -> None:
    rng = random.Random(2)
    visits = chosen = 0
    for g in range(30):
        state = classic.new_game(rng.choice((2, 3, 4)), seed=g)
        for _ in range(600):
            if state.is_terminal:
                break
            before = state.copy()
            seat = before.current_player
            action = rng.choice(state.legal_actions())
            state.apply(action)
            found = effects_of(before, action, state)
            for viewer in range(state.num_players):
                assert (
                    effects_of(before.observation(viewer), action, state.observation(viewer))
                    == found
                )
            gained = len(state.player(seat).nobles) - len(before.player(seat).nobles)
            if action.kind == "noble":
                chosen += 1
                assert found == ()
                continue
            assert len(found) == gained <= 1
            if found:
                visits += 1
                (effect,) = found
                assert effect.kind == "noble" and effect.seat == seat
                # C12: the visitor came from the noble row and its requirement is met
                assert effect.item in {n.id for n in before.nobles if n is not None}
                noble = classic.NOBLES[effect.item]
                bonuses = state.player(seat).bonuses
                assert all(b >= r for b, r in zip(bonuses, noble.requirement, strict=True))
                assert effect.item in {n.id for n in state.player(seat).nobles}
                assert effect.item not in {n.id for n in state.nobles if n is not None}
                assert "3" in describe(effect, ["a", "b", "c", "d"], "WUGRK*", "fr")
    assert visits > 0  # random games reach visits without a choice
