"""The observation tensor of the research interfaces: :mod:`splendor.encoding`, under the
name ``docs/rl.md`` documents (it lives below the bots, which evaluate it in their compiled
search)."""

from ..encoding import (
    C_CARD_FEATURES,
    D_CARD_FEATURES,
    GAMES,
    Field,
    action_mask,
    game_name,
    layout,
    num_actions,
    observation_high,
    observation_size,
    observation_tensor,
)

__all__ = [
    "C_CARD_FEATURES",
    "D_CARD_FEATURES",
    "GAMES",
    "Field",
    "action_mask",
    "game_name",
    "layout",
    "num_actions",
    "observation_high",
    "observation_size",
    "observation_tensor",
]
