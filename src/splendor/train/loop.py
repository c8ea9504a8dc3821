"""The training loop of the policy + value network: rounds of self-play and fitting, with
checkpoints that resume after an interruption (issue 17).

A training run lives in one folder:

- ``config.json``: the :class:`TrainConfig` (a resumed run must be given the same one);
- ``network.npz``: the latest network (:mod:`splendor.bots.network`), whose ``info`` holds
  the config and the round reached;
- ``optimizer.pt``: Adam's state; ``buffer.npz``: the latest self-play examples;
- ``log.jsonl``: one JSON object per round: ``round``, ``examples``, ``games``, mean
  ``decisions`` per game, the training losses (``loss_*``), the losses on held-out games
  (``val_*``: every ``holdout``-th game is kept out of fitting, so the value loss shows
  whether the network generalises or memorises), ``seconds``, and every ``eval_every``
  rounds the win rates (``score``: wins plus half the shared games) of the new network
  against the previous one and against ``mcts`` at the same number of iterations, and
  with ``eval_seconds`` against ``mcts`` at the same time per decision.

The first ``teacher_rounds`` rounds are played by the ``teacher`` (an ``mcts`` bot spec:
expert iteration starts by learning today's search), the others by the network itself,
with Dirichlet ``noise`` at the root. Games are played by ``workers`` processes: local
ones, or Ray tasks.

Each round is deterministic given the config's seed, whatever the number of workers
(only the ``eval_seconds`` score depends on the machine's speed): round ``r``'s games use
seeds ``seed * 1_000_003 + r * games + k``, and the fit uses ``seed + r``. A round is
written (network, optimizer, buffers, then the log line) only once it is complete, so a run
stopped at any moment resumes at the first round that is not in the log.
"""

from __future__ import annotations

import importlib.util
import json
import multiprocessing
import os
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from ..arena.runner import check_backend
from ..bots import make_bot, parse_bot_spec
from ..bots.mcts import MCTSBot
from ..bots.net_bot import NetBot
from ..bots.network import WEIGHTS, PolicyValueNet
from ..game import get_game
from ..match import play_game
from .fit import evaluate, fit
from .runs import check_game, claim_folder, config_from_json
from .selfplay import FIELDS, Examples, Searcher, self_play


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
        teacher: an ``mcts`` bot spec with an iteration budget (``"mcts:800"``) playing
            the first ``teacher_rounds`` rounds; ``""``: none.
        noise: the share of Dirichlet noise at the root in self-play (:class:`NetBot`).
        explore: decisions of each game sampled from the visit shares.
        holdout: every ``holdout``-th game is held out for the ``val_*`` losses (0: none).
        workers: processes playing the games.
        backend: where they run: ``serial`` (this process), ``local`` (a process pool),
            ``ray`` (Ray tasks; ``RAY_ADDRESS`` names a cluster) or ``auto`` (Ray when it
            is installed and ``workers > 1``, else local processes). The games and so the
            run are the same on every backend.
        eval_seconds: with ``eval_every``, also score the network against ``mcts`` at
            this time per decision (0: not).
        search_value: the weight of the search's value in the value target (the rest:
            the game's outcome; :func:`~splendor.train.selfplay.self_play`).
        init: a network file the run starts from (its game, player count and hidden sizes
            must be the run's); ``""``: random weights from ``seed``.
        mix: the weight of playouts in the search's evaluation (:class:`NetBot`), in
            self-play and evaluations; ``exploration``: the PUCT constant. Both are saved in
            the network's ``info["play"]``, so a bot plays it as it was trained.
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
    teacher: str = ""
    teacher_rounds: int = 0
    noise: float = 0.25
    explore: int = 20
    holdout: int = 8
    workers: int = 1
    eval_seconds: float = 0.0
    search_value: float = 0.5
    init: str = ""
    mix: float = 0.0
    exploration: float = 1.5
    backend: str = "auto"

    def check(self) -> None:
        """Raises ValueError naming the first setting out of range."""
        check_game(self.game, self.players)
        for name in ("rounds", "games", "search", "steps", "batch", "buffer", "max_decisions"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, got {getattr(self, name)}")
        if min(self.hidden) < 1 or len(self.hidden) != 2:
            raise ValueError(f"hidden must be two sizes >= 1, got {self.hidden}")
        if self.eval_every < 0 or self.eval_games < 0:
            raise ValueError("eval_every and eval_games must be 0 or more")
        for name in ("teacher_rounds", "explore", "holdout", "eval_seconds"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be 0 or more, got {getattr(self, name)}")
        if not 1 <= self.workers <= 256:
            raise ValueError(f"workers must be 1 to 256, got {self.workers}")
        if self.backend != "auto":
            check_backend(self.backend, workers=self.workers)
        if not 0.0 <= self.mix <= 1.0 or not self.exploration >= 0.0:
            raise ValueError(
                f"mix must be in [0, 1] and exploration 0 or more, got {self.mix}, "
                f"{self.exploration}"
            )
        if not 0.0 <= self.search_value <= 1.0:
            raise ValueError(f"search_value must be in [0, 1], got {self.search_value}")
        if not 0.0 <= self.noise < 1.0:
            raise ValueError(f"noise must be in [0, 1), got {self.noise}")
        if self.teacher_rounds and not self.teacher:
            raise ValueError("teacher_rounds needs a teacher, such as --teacher mcts:800")
        if self.teacher:
            spec = parse_bot_spec(self.teacher)
            if spec.kind != "mcts" or spec.iterations is None:
                raise ValueError(
                    f"the teacher must be mcts with an iteration budget (mcts:800), "
                    f"got {self.teacher!r}"
                )

    @staticmethod
    def from_json(settings: dict[str, Any]) -> TrainConfig:
        """The config saved as ``settings`` (``config.json``); settings added since it was
        written take their defaults.

        Raises:
            ValueError: an unknown setting.
        """
        config: TrainConfig = config_from_json(TrainConfig, settings, "training")
        return config


_SAME_RUN_EXEMPT = ("rounds", "workers", "backend", "eval_every", "eval_games", "eval_seconds")
"""Settings a resumed run may change: they do not change what the rounds learn."""


def _game(config: TrainConfig) -> str:
    """The canonical name of the run's game (its config names the package)."""
    return get_game(config.game).name


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


def _first_network(config: TrainConfig) -> PolicyValueNet:
    """The network a new run starts from: ``init``, or random weights.

    Raises:
        ValueError: an ``init`` network of another game, player count or shape.
    """
    if not config.init:
        return PolicyValueNet.initial(config.game, config.players, config.hidden, config.seed)
    net = PolicyValueNet.load(config.init)
    shape = (net.game, net.num_players, (net.w1.shape[1], net.w2.shape[1]))
    if shape != (config.game, config.players, tuple(config.hidden)):
        raise ValueError(
            f"{config.init} is a network for {shape[0]} with {shape[1]} players and hidden "
            f"sizes {shape[2]}, not {config.game} with {config.players} and {config.hidden}"
        )
    return net


def _searcher(config: TrainConfig, net: PolicyValueNet, r: int, seed: int) -> Searcher:
    """Round ``r``'s searcher of the game of ``seed``: the teacher, or the network."""
    if r < config.teacher_rounds:
        bot: Searcher = make_bot(config.teacher, seed=seed)  # type: ignore[assignment]
        return bot
    return NetBot(
        net,
        iterations=config.search,
        seed=seed,
        noise=config.noise,
        mix=config.mix,
        exploration=config.exploration,
    )


def _play(task: tuple[TrainConfig, PolicyValueNet, int, int]) -> tuple[Examples, int]:
    """One training game (a worker's task): its examples and decision count."""
    config, net, r, seed = task
    # Ray hands numpy arrays over read-only, a type the compiled search has no cache for
    copies: dict[str, Any] = {k: np.array(getattr(net, k)) for k in WEIGHTS}
    net = replace(net, **copies)
    examples, actions, _winners = self_play(
        _searcher(config, net, r, seed),
        config.game,
        config.players,
        seed=seed,
        explore_decisions=config.explore,
        max_decisions=config.max_decisions,
        search_value=config.search_value,
    )
    return examples, len(actions)


def _backend(config: TrainConfig) -> str:
    """The backend that plays the games: ``auto`` is Ray when it is installed and there is
    more than one worker, else local processes (one worker: this process)."""
    if config.backend != "auto":
        return config.backend
    if config.workers <= 1:
        return "serial"
    return "ray" if importlib.util.find_spec("ray") is not None else "local"


@contextmanager
def _games_runner(
    config: TrainConfig,
) -> Iterator[Callable[[list[Any]], list[tuple[Examples, int]]]]:
    """A function playing a list of :func:`_play` tasks and returning their results in
    order: in this process, on ``workers`` local processes (started once for the whole
    run), or as Ray tasks (``ray.init()``: the cluster of ``RAY_ADDRESS`` if set, else a
    local instance of ``workers`` CPUs)."""
    backend = _backend(config)
    if backend == "serial":
        yield lambda tasks: [_play(t) for t in tasks]
        return
    if backend == "ray":
        import ray

        if not ray.is_initialized():
            kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
            if not os.environ.get("RAY_ADDRESS"):
                kwargs["num_cpus"] = config.workers
            ray.init(**kwargs)
        remote = ray.remote(num_cpus=1)(_play)
        yield lambda tasks: list(ray.get([remote.remote(t) for t in tasks]))
        return
    context = multiprocessing.get_context("spawn")  # no fork of torch's threads
    with ProcessPoolExecutor(max_workers=config.workers, mp_context=context) as pool:
        yield lambda tasks: list(pool.map(_play, tasks))


def _load_examples(path: Path) -> Examples | None:
    if not path.exists():
        return None
    with np.load(path) as data:
        return Examples(*(data[k] for k in FIELDS))


def _save_examples(path: Path, examples: Examples | None) -> None:
    if examples is None:
        return
    with path.open("wb") as f:
        np.savez(f, **{k: getattr(examples, k) for k in FIELDS})


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
    claim_folder(folder, config, _SAME_RUN_EXEMPT)
    run = _RunState.load(config, folder)
    with _games_runner(config) as play:
        for r in range(run.done_rounds, config.rounds):
            start = time.perf_counter()
            seeds = [config.seed * 1_000_003 + r * config.games + k for k in range(config.games)]
            results = play([(config, run.net, r, seed) for seed in seeds])
            fresh, decisions = run.add_games(config, seeds, results)
            assert run.buffer is not None  # add_games fills it
            previous = run.net
            run.net, run.opt_state, losses = fit(
                run.net,
                run.buffer,
                steps=config.steps,
                batch=config.batch,
                lr=config.lr,
                seed=config.seed + r,
                optimizer_state=run.opt_state,
            )
            line: dict[str, Any] = {
                "round": r + 1,
                "examples": len(fresh),
                "buffer": len(run.buffer),
                "games": config.games,
                "decisions": decisions / config.games,
                "teacher": r < config.teacher_rounds,
                **{f"loss_{k}": round(v, 6) for k, v in losses.items()},
            }
            if run.held is not None and len(run.held):
                line.update(
                    {f"val_{k}": round(v, 6) for k, v in evaluate(run.net, run.held).items()}
                )
            if config.eval_every and (r + 1) % config.eval_every == 0 and config.eval_games:
                line.update(_evaluations(config, run.net, previous, r))
            line["seconds"] = round(time.perf_counter() - start, 3)
            run.save(config, r, line)
            if report is not None:
                report(line)
    return run.net


@dataclass
class _RunState:
    """What a training run carries from round to round, saved in its folder after each
    (:func:`train`): the network, the optimizer's state, the replay buffer and the
    held-out examples."""

    folder: Path
    net: PolicyValueNet
    opt_state: bytes | None
    buffer: Examples | None
    held: Examples | None
    done_rounds: int

    @staticmethod
    def load(config: TrainConfig, folder: Path) -> _RunState:
        """The state saved in ``folder`` (a new run's when it holds no finished round)."""
        log_path = folder / "log.jsonl"
        done_rounds = 0
        if log_path.exists():
            done_rounds = sum(1 for line in log_path.read_text().splitlines() if line.strip())
        net_path = folder / "network.npz"
        if done_rounds and net_path.exists():
            net = PolicyValueNet.load(net_path)
        else:
            net = _first_network(config)
            done_rounds = 0
        opt_path = folder / "optimizer.pt"
        return _RunState(
            folder=folder,
            net=net,
            opt_state=opt_path.read_bytes() if done_rounds and opt_path.exists() else None,
            buffer=_load_examples(folder / "buffer.npz") if done_rounds else None,
            held=_load_examples(folder / "validation.npz") if done_rounds else None,
            done_rounds=done_rounds,
        )

    def add_games(
        self, config: TrainConfig, seeds: list[int], results: list[tuple[Examples, int]]
    ) -> tuple[Examples, int]:
        """Add a round's games (one per seed) to the buffer, or to the held-out examples
        (every ``holdout``-th game); returns ``(the games kept, decisions played)``."""
        held_out = [
            bool(config.holdout) and seed % config.holdout == config.holdout - 1 for seed in seeds
        ]
        kept = [ex for (ex, _n), h in zip(results, held_out, strict=True) if not h]
        out_of = [ex for (ex, _n), h in zip(results, held_out, strict=True) if h]
        decisions = sum(n for _ex, n in results)
        fresh = Examples.concat(kept or [results[0][0].tail(0)])
        buffer = fresh if self.buffer is None else Examples.concat([self.buffer, fresh])
        self.buffer = buffer.tail(config.buffer)
        if out_of:
            new_held = Examples.concat(out_of)
            held = new_held if self.held is None else Examples.concat([self.held, new_held])
            self.held = held.tail(max(1, config.buffer // max(1, config.holdout)))
        return fresh, decisions

    def save(self, config: TrainConfig, r: int, line: dict[str, Any]) -> None:
        """Save the state after round ``r`` and append its ``line`` to the log."""
        how = {"mix": config.mix, "exploration": config.exploration}
        info = {"config": asdict(config), "round": r + 1, "play": how}
        self.net = PolicyValueNet(**{**self.net.__dict__, "info": info})
        self.net.save(self.folder / "network.npz")
        assert self.opt_state is not None  # set by the round's fit
        (self.folder / "optimizer.pt").write_bytes(self.opt_state)
        _save_examples(self.folder / "buffer.npz", self.buffer)
        _save_examples(self.folder / "validation.npz", self.held)
        with (self.folder / "log.jsonl").open("a") as f:
            f.write(json.dumps(line) + "\n")


def _evaluations(
    config: TrainConfig, net: PolicyValueNet, previous: PolicyValueNet, r: int
) -> dict[str, float]:
    """The scores of round ``r``'s network (module docstring)."""
    eval_seed = 7_000_000 + r * config.eval_games
    mix, c = config.mix, config.exploration
    new_bot = NetBot(net, iterations=config.search, seed=1, name="new", mix=mix, exploration=c)
    old_bot = NetBot(previous, iterations=config.search, seed=2, mix=mix, exploration=c)
    scores = {
        "score_vs_previous": _score(new_bot, old_bot, config, eval_seed),
        "score_vs_mcts": _score(
            new_bot, MCTSBot(iterations=config.search, seed=3), config, eval_seed
        ),
    }
    if config.eval_seconds:
        t = config.eval_seconds
        scores["score_vs_mcts_same_time"] = _score(
            NetBot(net, seconds=t, seed=1, mix=mix, exploration=c),
            MCTSBot(seconds=t, seed=3),
            config,
            eval_seed,
        )
    return scores


__all__ = ["TrainConfig", "train"]
