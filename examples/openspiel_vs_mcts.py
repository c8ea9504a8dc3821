#!/usr/bin/env python3
"""Pit an OpenSpiel bot against the project's own MCTS bot, in either game.

The OpenSpiel side is OpenSpiel's information-set MCTS (``ISMCTSBot``, random rollouts) or
its plain MCTS (``MCTSBot``) searching one determinization per decision, so that it never
sees hidden cards (C16, D22). It plays through the registered OpenSpiel game
(``python_splendor`` / ``python_splendor_duel``, :mod:`splendor.rl.openspiel_game`); our
bot (:func:`splendor.bots.make_bot`, default ``mcts:0.2s``) plays from the engine
observation of its seat. The OpenSpiel bot takes seat ``g % players`` in game ``g`` (seat
rotation) and our bot every other seat::

    python examples/openspiel_vs_mcts.py --game classic --games 4
    python examples/openspiel_vs_mcts.py --game duel --games 2 --simulations 200 --ours mcts:500
    python examples/openspiel_vs_mcts.py --players 3 --openspiel mcts --simulations 50

A win is a positive return (a shared victory counts for each winner, C15); a game with no
winner (Duel turn cap D25, or the adapter's decision cap) is a draw.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from splendor.bots import make_bot
from splendor.rl import openspiel_game


def make_openspiel_bot(
    game: pyspiel.Game,
    kind: str,
    simulations: int,
    rollout_length: int | None,
    uct_c: float,
    seed: int,
) -> pyspiel.Bot:
    """OpenSpiel's ``ISMCTSBot`` (``kind="ismcts"``) or a determinizing ``MCTSBot``
    (``kind="mcts"``), both with a random-rollout evaluator.

    Raises:
        ValueError: an unknown ``kind``.
    """
    evaluator = mcts.RandomRolloutEvaluator(
        n_rollouts=1, random_state=np.random.RandomState(seed), max_length=rollout_length
    )
    if kind == "ismcts":
        return ismcts.ISMCTSBot(
            game, evaluator, uct_c, simulations, random_state=np.random.RandomState(seed)
        )
    if kind == "mcts":
        inner = mcts.MCTSBot(
            game, uct_c, simulations, evaluator, random_state=np.random.RandomState(seed)
        )
        return openspiel_game.DeterminizingBot(inner, seed=seed)
    raise ValueError(f"unknown OpenSpiel bot {kind!r}: use 'ismcts' or 'mcts'")


def play_game(
    game: pyspiel.Game, openspiel_bot: pyspiel.Bot, openspiel_seat: int, ours: Any, deal: int
) -> tuple[list[float], int]:
    """Play one game from deal number ``deal``; return the returns and the decisions played."""
    state = game.new_initial_state()
    state.apply_action(deal)
    actions = game.engine.Action
    while not state.is_terminal():
        seat = state.current_player()
        if seat == openspiel_seat:
            action = int(openspiel_bot.step(state))
        else:
            legal = [actions.from_id(i) for i in state.legal_actions()]
            action = ours.choose(state.engine_observation(seat), legal).id
        state.apply_action(action)
    return state.returns(), state.decisions


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    """Run the match described by ``argv`` (see ``--help``), print one line per game and a
    summary, and return ``{"openspiel": wins, "ours": wins, "draws": n, "games": n}``."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=("classic", "duel"), default="classic")
    ap.add_argument("--players", type=int, default=2, help="classic only: 2-4")
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument(
        "--openspiel", choices=("ismcts", "mcts"), default="ismcts", help="OpenSpiel bot"
    )
    ap.add_argument(
        "--simulations", type=int, default=100, help="OpenSpiel bot simulations per decision"
    )
    ap.add_argument(
        "--rollout-length",
        type=int,
        default=None,
        help="cut random rollouts after this many decisions (scored 0); default: to the end",
    )
    ap.add_argument("--uct-c", type=float, default=2.0)
    ap.add_argument("--ours", default="mcts:0.2s", help="our bot spec (splendor.bots.make_bot)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    if args.game == "duel" and args.players != 2:
        ap.error("Splendor Duel is for 2 players")
    if args.games < 1 or args.simulations < 1:
        ap.error("--games and --simulations must be positive")

    if args.game == "classic":
        game = pyspiel.load_game(openspiel_game.CLASSIC_GAME_NAME, {"players": args.players})
    else:
        game = pyspiel.load_game(openspiel_game.DUEL_GAME_NAME)
    n = game.num_players()
    rng = np.random.default_rng(args.seed)
    tally = {"openspiel": 0, "ours": 0, "draws": 0, "games": 0}
    label = f"{args.openspiel}({args.simulations})"
    for g in range(args.games):
        seat = g % n
        bot = make_openspiel_bot(
            game, args.openspiel, args.simulations, args.rollout_length, args.uct_c, args.seed + g
        )
        ours = make_bot(args.ours, seed=args.seed + g)
        deal = int(rng.integers(game.max_chance_outcomes()))
        start = time.perf_counter()
        returns, decisions = play_game(game, bot, seat, ours, deal)
        if hasattr(ours, "close"):
            ours.close()
        won = [p for p in range(n) if returns[p] > 0]
        if not won:
            tally["draws"] += 1
        if seat in won:
            tally["openspiel"] += 1
        if any(p != seat for p in won):
            tally["ours"] += 1
        tally["games"] += 1
        who = (
            ", ".join(("openspiel" if p == seat else "ours") + f"@{p}" for p in won)
            or "nobody (draw)"
        )
        print(
            f"game {g + 1}: deal {deal}, {label} at seat {seat}, {decisions} decisions, "
            f"{time.perf_counter() - start:.1f}s, won by {who}",
            flush=True,
        )
    print(
        f"{args.game}, {n} players, {tally['games']} games: OpenSpiel {label} won "
        f"{tally['openspiel']}, ours ({args.ours}) won {tally['ours']}, draws {tally['draws']}"
    )
    return tally


if __name__ == "__main__":
    main(sys.argv[1:])
