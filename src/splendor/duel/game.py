"""Splendor Duel declared once (:class:`splendor.descriptor.Game`): its names, player
count (D1), options (the turn cap, D25), action count, kernels and parts; every layer
above asks this object instead of branching on the game's name."""

from __future__ import annotations

import sys
from types import MappingProxyType

from ..colors import DUEL_TOKEN_LETTERS
from ..descriptor import Game, GameOption, Kernels
from . import rules
from .actions import NOTATION_HELP, NUM_ACTIONS, Action
from .cards import CARDS, ROYALS, Card
from .effects import effects_of
from .explain import notation_hint, why_illegal
from .notation import build_position
from .position import position_problems
from .state import (
    NUM_PLAYERS,
    STATE_DTYPE,
    Observation,
    State,
    determinize,
    new_game,
    replay,
    warm_up,
)

BOT_TURN_CAP = 400
"""The turn cap of games between bots only (the arena, self-play, the terminal without a
person, OpenSpiel's default), so that every such game ends (D25)."""

TURN_CAP = GameOption(
    name="turn_cap",
    default=None,
    bot_default=BOT_TURN_CAP,
    minimum=1,
    maximum=(1 << 31) - 1,
    off=0,
    rule="D25",
    help="end the game with no winner after this many turns (0 or none: no cap)",
)
"""Duel's only option: the turn cap (D25), a host setting for bot and research games."""

GAME = Game(
    name="duel",
    package="duel",
    aliases=("splendor-duel", "splendor_duel"),
    title="Splendor Duel",
    min_players=NUM_PLAYERS,
    max_players=NUM_PLAYERS,
    default_players=NUM_PLAYERS,
    options=MappingProxyType({TURN_CAP.name: TURN_CAP}),
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
    check_position=position_problems,
    build_position=build_position,
    why_illegal=why_illegal,
    notation_hint=notation_hint,
    cards=CARDS,
    tiles=ROYALS,
    tiles_name="royals",
    token_letters=DUEL_TOKEN_LETTERS,
    notation_help=NOTATION_HELP,
    example_action="take c3 c4 c5",
    kernels=Kernels.of(rules),
    parts=MappingProxyType(
        {
            "encoder": "splendor.encoding.duel:encode_duel",
            "encoding": "splendor.encoding.duel:ENCODING",
            "batch_kernels": "splendor.rl.batch_kernels:DUEL",
            "rl_render": "splendor.rl.render:DUEL",
            "openspiel": "splendor.rl.openspiel_game:DUEL_SIDE",
            "bench": "splendor.bench:DUEL_BENCH",
            "greedy_scores": "splendor.bots.greedy_duel_compiled:duel_greedy_scores",
            "search": "splendor.bots.search:DUEL_SEARCH",
            "net_search": "splendor.bots.net_search:DUEL_NET_SEARCH",
            "reach": "splendor.bots.features:DUEL_REACH",
            "greedy_evaluator": "splendor.bots.greedy_duel:DuelEvaluator",
            "conformance_facts": "splendor.conformance.facts:DUEL_FACTS",
            "tui": "splendor.tui.games_duel:DUEL",
        }
    ),
    turn_option=TURN_CAP.name,
)
"""Splendor Duel, 2 players (D1)."""

__all__ = ["BOT_TURN_CAP", "GAME", "TURN_CAP"]
