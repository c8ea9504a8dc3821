"""Classic Splendor declared once (:class:`splendor.descriptor.Game`): its names, player
range (C1), options, action count, kernels and parts; every layer above asks this object
instead of branching on the game's name."""

from __future__ import annotations

import sys
from types import MappingProxyType

from ..colors import TOKEN_LETTERS
from ..descriptor import Game, Kernels
from . import rules
from .actions import NOTATION_HELP, NUM_ACTIONS, Action
from .cards import CARDS, NOBLES, Card
from .effects import effects_of
from .explain import notation_hint, why_illegal
from .notation import build_position
from .position import MAX_PLAYERS, MIN_PLAYERS
from .state import (
    STATE_DTYPE,
    Observation,
    State,
    check_position,
    determinize,
    new_game,
    replay,
    warm_up,
)

GAME = Game(
    name="splendor",
    package="classic",
    aliases=("classic", "splendor-classic"),
    title="Splendor",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    default_players=2,
    options=MappingProxyType({}),
    num_actions=NUM_ACTIONS,
    state_dtype=STATE_DTYPE,
    module=sys.modules[__name__.rpartition(".")[0]],
    state_type=State,
    observation_type=Observation,
    action_type=Action,
    card_type=Card,
    new_game=new_game,
    determinize=determinize,
    replay=replay,
    effects_of=effects_of,
    warm_up=warm_up,
    check_position=check_position,
    build_position=build_position,
    why_illegal=why_illegal,
    notation_hint=notation_hint,
    cards=CARDS,
    tiles=NOBLES,
    tiles_name="nobles",
    token_letters=TOKEN_LETTERS,
    notation_help=NOTATION_HELP,
    example_action="take W U G",
    kernels=Kernels.of(rules),
    parts=MappingProxyType(
        {
            "encoder": "splendor.encoding.classic:encode_classic",
            "encoding": "splendor.encoding.classic:ENCODING",
            "batch_kernels": "splendor.rl.batch_kernels:CLASSIC",
            "rl_render": "splendor.rl.render:CLASSIC",
            "openspiel": "splendor.rl.openspiel_game:CLASSIC_SIDE",
            "bench": "splendor.bench:CLASSIC_BENCH",
            "greedy_scores": "splendor.bots.greedy_compiled:classic_greedy_scores",
            "search": "splendor.bots.search:CLASSIC_SEARCH",
            "net_search": "splendor.bots.net_search:CLASSIC_NET_SEARCH",
            "reach": "splendor.bots.features:CLASSIC_REACH",
            "greedy_evaluator": "splendor.bots.greedy:ClassicEvaluator",
            "conformance_facts": "splendor.conformance.facts:CLASSIC_FACTS",
            "tui": "splendor.tui.games_classic:CLASSIC",
        }
    ),
)
"""Classic Splendor, 2-4 players (C1)."""

__all__ = ["GAME"]
