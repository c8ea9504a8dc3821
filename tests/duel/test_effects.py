"""What a Duel decision does besides its notation (:mod:`splendor.duel.effects`): abilities
resolved by the engine when they had one possible choice (D14, D15, D17, D19), privileges
(D6-D8, D16, D18) and extra turns (D13). Checked over random games against what the rules
say each decision must cause, from the full state and from both seats' observations."""

from __future__ import annotations

import random
from collections import Counter

from splendor import duel
from splendor.duel.effects import effects_of
from splendor.effects import Effect, describe
from splendor.i18n import LANGUAGES

LETTERS = "WUGRKP*"


def _bought(before: duel.State, action: duel.Action) -> duel.Card | None:
    """The card a buy decision takes, else None."""
    if action.kind not in ("buy", "buy_choose"):
        return None
    if action.reserved:
        return before.player(before.current_player).reserved[action.slot - 1]
    return before.pyramid[action.level - 1][action.slot - 1]


def _games(count: int, seed: int):
    """``(before, action, after, next_action_or_None)`` for every decision of random games."""
    rng = random.Random(seed)
    for g in range(count):
        state = duel.new_game(seed=g)
        moves = []
        while not state.is_terminal and len(moves) < 400:
            before = state.copy()
            action = rng.choice(state.legal_actions())
            state.apply(action)
            moves.append((before, action, state.copy()))
        for i, (before, action, after) in enumerate(moves):
            nxt = moves[i + 1][1] if i + 1 < len(moves) else None
            yield before, action, after, nxt


def test_effects_follow_the_rules_over_random_games() -> None:
    seen: Counter[str] = Counter()
    for before, action, after, nxt in _games(40, seed=5):
        seat = before.current_player
        found = effects_of(before, action, after)
        seen.update(e.kind for e in found)
        kinds = [e.kind for e in found]
        # the public views give the same effects as the full states
        for viewer in (0, 1):
            assert (
                effects_of(before.observation(viewer), action, after.observation(viewer)) == found
            )
        # a decision that is the choice itself has no effect of its kind (D14, D15, D17, D19)
        if action.kind in ("joker", "token", "steal", "royal"):
            assert action.kind not in kinds
        card = _bought(before, action)
        ability = card.ability.split("+") if card is not None else []
        pending_choice = after.phase in ("payment", "joker", "token", "steal", "royal")
        # D15: a token of the card's colour, taken by the engine when only one lies on the board
        if "token" in ability and not pending_choice:
            on_board = [c for c, v in enumerate(before.board) if v == card.color]
            token = [e for e in found if e.kind == "token"]
            assert len(token) == min(1, len(on_board))
            if token:
                assert token[0].color == card.color and token[0].seat == seat
                assert duel.board.parse_cell(token[0].cell) == on_board[0]
        elif action.kind not in ("pay", "pay_gold", "joker"):
            assert "token" not in kinds, (str(action), found)
        # D17: a steal without a choice: the opponent held gems/pearls of one colour only
        if "steal" in kinds:
            (steal,) = [e for e in found if e.kind == "steal"]
            assert steal.source == 1 - seat and steal.color != 6
            assert after.player(seat).tokens[steal.color] >= 1
        # D7, D12: replenishing gives the opponent a privilege unless they hold all 3 (D18)
        if action.kind == "replenish" and before.player(1 - seat).privileges < 3:
            gained = [e for e in found if e.kind == "privilege" and e.seat == 1 - seat]
            assert sum(e.count for e in gained) == 1
            taken = [e for e in gained if e.source == seat]
            assert bool(taken) == (before.free_privileges == 0)
        # D8: three tokens of one colour, or both pearls, give the opponent a privilege
        if action.kind == "take" and len(action.cells) >= 2:
            colors = [before.board[c] for c in action.cells]
            if (len(colors) == 3 and len(set(colors)) == 1) or colors.count(5) == 2:
                if before.player(1 - seat).privileges < 3:
                    assert any(e.kind == "privilege" and e.seat == 1 - seat for e in found)
        # D16: a privilege card gives its buyer a privilege unless they hold all 3
        if "privilege" in ability and before.player(seat).privileges < 3 and not pending_choice:
            assert any(e.kind == "privilege" and e.seat == seat for e in found)
        # D13: an extra turn begins exactly when the same seat plays the next turn
        if "again" in kinds:
            assert after.current_player == seat and after.turn == before.turn + 1
            assert nxt is not None
        elif after.turn > before.turn and not after.is_terminal:
            assert after.current_player == 1 - seat
        # every effect can be told in each language, with nothing left to fill
        for e in found:
            for language in LANGUAGES:
                text = describe(e, ["Ann", "Bob"], LETTERS, language)
                assert "{" not in text and ("Ann" in text or "Bob" in text)
            assert Effect.from_dict(e.to_dict()) == e
    # random games reach every kind of effect the rules make on their own
    assert set(seen) == {"joker", "token", "steal", "royal", "privilege", "again"}, seen


def test_effect_records_refuse_bad_json() -> None:
    good = Effect("steal", 0, source=1, color=3).to_dict()
    assert Effect.from_dict(good) == Effect("steal", 0, source=1, color=3)
    for bad in ([], {**good, "extra": 1}, {**good, "seat": "0"}, {**good, "kind": "win"}):
        try:
            Effect.from_dict(bad)
        except ValueError as e:
            assert "effect" in str(e)
        else:
            raise AssertionError(f"accepted {bad!r}")


def test_sentences_in_each_language() -> None:
    names = ["Ann", "Bob"]
    two = Effect("privilege", 1, count=2)
    assert describe(two, names, LETTERS) == "Bob takes 2 privileges"
    assert describe(Effect("privilege", 1), names, LETTERS) == "Bob takes a privilege"
    stolen = Effect("steal", 0, source=1, color=3)
    assert describe(stolen, names, LETTERS) == "Ann steals one red token from Bob"
    for language in ("fr", "nl"):
        for e in (two, stolen, Effect("token", 0, color=1, cell="c3"), Effect("again", 1)):
            text = describe(e, names, LETTERS, language)
            assert text != describe(e, names, LETTERS)
            assert "{" not in text
