"""The training loop of the policy + value network: rounds of self-play and fitting, with
checkpoints that resume after an interruption (issue 17).

A training run lives in one folder:

- ``config.json``: the :class:`TrainConfig` (a resumed run must be given the same one);
- ``network.npz``: the latest network (:mod:`splendor.bots.network`), whose ``info`` holds
  the config and the round reached;
- ``optimizer.pt``: Adam's state; ``buffer.npz``: the latest self-play examples;
- ``log.jsonl``: one JSON object per round: ``round``, ``examples``, ``games``, mean
  ``decisions`` per game, the losses, ``seconds``, and every ``eval_every`` rounds the
  win rates (``score``: wins plus half the shared games) of the new network against the
  previous one and against ``mcts`` at the same number of iterations.

Each round is deterministic given the config's seed: round ``r``'s games use seeds
``seed * 1_000_003 + r * games + k``, and the fit uses ``seed + r``. A round is written
(network, optimizer, buffer, then the log line) only once it is complete, so a run stopped
at any moment resumes at the first round that is not in the log.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..bots.mcts import MCTSBot
from ..bots.net_bot import NetBot
from ..bots.network import PolicyValueNet
from ..match import play_game
from .fit import fit
from .selfplay import FIELDS, Examples, self_play


@dataclass(frozen=True)
class TrainConfig:
    """The settings of a training run.

    Attributes:
        game: ``"classic"`` or ``"duel"``.
        players: the player count.
        hidden: the two hidden layers' sizes.
        rounds: rounds to reach (a resumed run plays the missing ones).
        games: self-play games per round.
        search: search iterations per self-play decision.
        steps: Adam steps per round; ``batch``: rows per step; ``lr``: learning rate.
        buffer: the most recent examples kept for fitting.
        max_decisions: a self-play game still going after this many decisions stops.
        eval_every: rounds between evaluations (0: none); ``eval_games``: games of each.
        seed: the run's seed.
    """

    game: str = "classic"
    players: int = 2
    hidden: tuple[int, int] = (256, 128)
    rounds: int = 100
    games: int = 16
    search: int = 200
    steps: int = 200
    batch: int = 256
    lr: float = 1e-3
    buffer: int = 100_000
    max_decisions: int = 400
    eval_every: int = 10
    eval_games: int = 20
    seed: int = 0

    def check(self) -> None:
        """Raises ValueError naming the first setting out of range."""
        if self.game not in ("classic", "duel"):
            raise ValueError(f"game must be classic or duel, got {self.game!r}")
        if self.game == "duel" and self.players != 2:
            raise ValueError("Splendor Duel has 2 players")
        if not 2 <= self.players <= 4:
            raise ValueError(f"players must be 2 to 4, got {self.players}")
        for name in ("rounds", "games", "search", "steps", "batch", "buffer", "max_decisions"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, got {getattr(self, name)}")
        if min(self.hidden) < 1 or len(self.hidden) != 2:
            raise ValueError(f"hidden must be two sizes >= 1, got {self.hidden}")
        if self.eval_every < 0 or self.eval_games < 0:
            raise ValueError("eval_every and eval_games must be 0 or more")


def _game(config: TrainConfig) -> str:
    return "duel" if config.game == "duel" else "splendor"


def _score(a: Any, b: Any, config: TrainConfig, seed: int) -> float:
    """Bot ``a``'s score against ``b`` over ``config.eval_games`` games, seats swapped in
    turn (a win 1, a shared win or no winner 1/2)."""
    total = 0.0
    for k in range(config.eval_games):
        seat = k % config.players
        agents = [b] * config.players
        agents[seat] = a
        final, record = play_game(
            agents,
            game=_game(config),
            seed=seed + k,
            max_decisions=config.max_decisions,
        )
        winners = final.winners if final.is_terminal else []
        if seat in winners:
            total += 1.0 / len(winners) if len(winners) > 1 else 1.0
        elif not winners:
            total += 0.5
    return total / max(1, config.eval_games)


def train(
    config: TrainConfig,
    out: str | Path,
    *,
    report: Callable[[dict[str, Any]], None] | None = None,
) -> PolicyValueNet:
    """Run (or resume) the training run of ``config`` in the folder ``out`` (module
    docstring) and return the latest network.

    Raises:
        ValueError: a bad config, or a folder holding a run of another config.
        ImportError: torch is not installed.
    """
    config.check()
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    settings = asdict(config)
    saved = folder / "config.json"
    if saved.exists():
        before = json.loads(saved.read_text())
        before["hidden"] = tuple(before["hidden"])
        mine = {k: v for k, v in settings.items() if k != "rounds"}
        theirs = {k: v for k, v in before.items() if k != "rounds"}
        if mine != theirs:
            changed = sorted(k for k in mine if mine[k] != theirs.get(k))
            raise ValueError(
                f"{folder} holds a run with other settings ({', '.join(changed)}); "
                "use another folder or the same settings"
            )
    saved.write_text(json.dumps(settings, indent=2) + "\n")
    log_path = folder / "log.jsonl"
    done_rounds = 0
    if log_path.exists():
        done_rounds = sum(1 for line in log_path.read_text().splitlines() if line.strip())
    net_path = folder / "network.npz"
    if done_rounds and net_path.exists():
        net = PolicyValueNet.load(net_path)
    else:
        net = PolicyValueNet.initial(config.game, config.players, config.hidden, config.seed)
        done_rounds = 0
    opt_path = folder / "optimizer.pt"
    opt_state = opt_path.read_bytes() if done_rounds and opt_path.exists() else None
    buf_path = folder / "buffer.npz"
    buffer: Examples | None = None
    if done_rounds and buf_path.exists():
        with np.load(buf_path) as data:
            buffer = Examples(*(data[k] for k in FIELDS))
    for r in range(done_rounds, config.rounds):
        start = time.perf_counter()
        parts, decisions = [], 0
        for k in range(config.games):
            seed = config.seed * 1_000_003 + r * config.games + k
            examples, actions, _winners = self_play(
                net, iterations=config.search, seed=seed, max_decisions=config.max_decisions
            )
            parts.append(examples)
            decisions += len(actions)
        fresh = Examples.concat(parts)
        buffer = fresh if buffer is None else Examples.concat([buffer, fresh])
        buffer = buffer.tail(config.buffer)
        previous = net
        net, opt_state, losses = fit(
            net,
            buffer,
            steps=config.steps,
            batch=config.batch,
            lr=config.lr,
            seed=config.seed + r,
            optimizer_state=opt_state,
        )
        line: dict[str, Any] = {
            "round": r + 1,
            "examples": len(fresh),
            "buffer": len(buffer),
            "games": config.games,
            "decisions": decisions / config.games,
            **{f"loss_{k}": round(v, 6) for k, v in losses.items()},
        }
        if config.eval_every and (r + 1) % config.eval_every == 0 and config.eval_games:
            eval_seed = 7_000_000 + r * config.eval_games
            new_bot = NetBot(net, iterations=config.search, seed=1, name="new")
            line["score_vs_previous"] = _score(
                new_bot, NetBot(previous, iterations=config.search, seed=2), config, eval_seed
            )
            line["score_vs_mcts"] = _score(
                new_bot, MCTSBot(iterations=config.search, seed=3), config, eval_seed
            )
        line["seconds"] = round(time.perf_counter() - start, 3)
        net = PolicyValueNet(**{**net.__dict__, "info": {"config": settings, "round": r + 1}})
        net.save(net_path)
        opt_path.write_bytes(opt_state)
        with buf_path.open("wb") as f:
            np.savez(f, **{k: getattr(buffer, k) for k in FIELDS})
        with log_path.open("a") as f:
            f.write(json.dumps(line) + "\n")
        if report is not None:
            report(line)
    return net


__all__ = ["TrainConfig", "train"]
