"""Distilling the search's playouts into the network's value (issue 17).

Self-play with a few hundred games teaches a value network little: its one training signal
per game, the outcome, is memorised (docs/training.md). This module gives the value network
many positions with a far less noisy target instead:

1. *Positions*: games of the compiled greedy policy (:mod:`splendor.bots.greedy_compiled`,
   :mod:`splendor.bots.greedy_duel_compiled`), where each decision is uniformly random with
   probability ``eps`` (0.03, 0.1 or 0.3, by turns of games), so the positions range from
   sound play to the odd ones a search visits. Each decision with more than one legal
   choice is kept with probability ``sample``. With a teacher and ``positions="teacher"``,
   the teacher plays the games instead (its most visited decision, a random one with
   chance ``eps``): the positions are those of its own games, as in self-play.
2. *Value target*: from the observation of the seat to move (C16, D22: nothing it cannot
   see), ``playouts`` determinizations, each played on by the playouts of today's ``mcts``
   (classic: greedy to the end of the game; Duel: the heuristic for 16 decisions, then the
   evaluation of :mod:`splendor.bots.playout`), and the mean reward of each seat: what
   ``mcts`` estimates at a leaf after that many playouts, seat-relative to the mover.
3. *Policy target*: a softmax of greedy's scores of the legal decisions, temperature
   :data:`POLICY_TEMPERATURE`: the search's priors start from greedy's judgement.

With a *teacher* (a network file, ``teacher``), each kept position is instead searched by
the network bot (:class:`~splendor.bots.net_bot.NetBot`, ``iterations`` iterations, the
teacher's own ``mix`` and exploration, from the mover's observation): the mover's value
target is the root's mean reward (every iteration's, as the search's choices weigh them)
and the policy target the root's visit shares. The other seats share the rest, in the
proportions of the playouts' means (two players: the opponent takes all of it, and no
playout is run). That is expert iteration on the search: the next network learns what the
teacher found by looking ahead, not what greedy playouts say (docs/training.md).

With ``outcome`` above 0, the value target mixes in the outcome of the position's own game
(:func:`~splendor.train.selfplay.outcome_of`, seat-relative to the mover; AlphaZero's only
value target): ``(1 - outcome) * label + outcome * result``. The labels are the teacher's
(or the playouts') estimates, so they can share its mistakes; the result cannot, but it is
one noisy bit per game. Both are kept in the data parts, so the weight is chosen at the fit.

The network (optionally with the reach features of :mod:`splendor.bots.features`) is then
fitted to all of it, every ``holdout``-th game held out for the validation figures (value
loss and the share of the target's variance explained, ``val_r2``). The fit is measured on
the held-out games every 1,000 steps and the weights with the lowest held-out loss are kept
(``info["kept_steps"]``): the held-out loss wanders by a few percent from one measure to the
next, and the last weights are not always the best.

A run lives in one folder: ``config.json``, ``teacher.npz`` (a copy of the teacher, if
any), ``data/part-NNN.npz`` (the labelled positions
of ``CHUNK`` games each, kept so an interrupted run resumes at the first missing part;
ignored by git), ``log.jsonl`` and ``network.npz``. Everything is deterministic given the
config (game ``i`` uses its own seed; the fit is seeded), whatever the number of workers.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import ExitStack
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from ..bots import search as _search
from ..bots.net_bot import NetBot
from ..bots.network import PolicyValueNet
from ..bots.search import SearchPart
from ..descriptor import Game
from ..encoding import observation_size, seat_tensor
from ..game import get_game
from ..rng import seed_rng
from .runs import check_game, claim_folder, config_from_json
from .selfplay import FIELDS, Examples, outcome_of, seat_relative

CHUNK = 250
"""Games per data part (the unit of resumption)."""
POLICY_TEMPERATURE = 0.1
"""Temperature of the softmax of greedy's scores that is the policy target."""
EPSILONS = (0.03, 0.1, 0.3)
"""Chances of a uniformly random decision in the position games (game ``i`` uses
``EPSILONS[i % 3]``)."""


@dataclass(frozen=True)
class DistillConfig:
    """The settings of a distillation run (module docstring).

    Attributes:
        game: ``"classic"`` or ``"duel"``; ``players``: the player count.
        games: position games; ``sample``: the share of their decisions kept.
        playouts: determinized playouts per position (the value target's mean).
        hidden: the two hidden layers' sizes; ``features``: read the reach features.
        steps: Adam steps; ``batch``: rows per step; ``lr``: the learning rate of the
            first two thirds of the steps (a third of it after).
        holdout: every ``holdout``-th game is held out (validation).
        seed: the run's seed; ``workers``: processes labelling the games.
        mix, exploration, temperature, lookahead: how the network is played (saved in its
            ``info["play"]``: :class:`~splendor.bots.net_bot.NetBot`'s defaults for it;
            they change nothing the run computes, so a finished run can be given others).
        teacher: the path of a network file whose search labels the positions (module
            docstring); empty: the playouts and greedy label them.
        iterations: the teacher's search iterations per position.
        outcome: the weight in [0, 1] of the position's game outcome in the value target
            (module docstring); 0: the labels alone.
        positions: who plays the position games: ``"greedy"`` (module docstring) or
            ``"teacher"``: the teacher searches every decision and plays its most visited
            one (a uniformly random one with chance ``eps``, as greedy), so the positions
            are those of the teacher's own games (self-play), not greedy's.
    """

    game: str = "classic"
    players: int = 2
    games: int = 15_000
    sample: float = 0.5
    playouts: int = 8
    hidden: tuple[int, int] = (256, 128)
    features: bool = True
    steps: int = 12_000
    batch: int = 512
    lr: float = 1e-3
    holdout: int = 10
    seed: int = 0
    workers: int = 1
    mix: float = 0.5
    exploration: float = 1.5
    temperature: float = 1.0
    lookahead: int = 0
    teacher: str = ""
    iterations: int = 400
    positions: str = "greedy"
    outcome: float = 0.0

    def check(self) -> None:
        """Raises ValueError naming the first setting out of range."""
        check_game(self.game, self.players)
        for name in ("games", "playouts", "steps", "batch", "workers", "iterations"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, got {getattr(self, name)}")
        if not 0.0 < self.sample <= 1.0:
            raise ValueError(f"sample must be in (0, 1], got {self.sample}")
        if len(self.hidden) != 2 or min(self.hidden) < 1:
            raise ValueError(f"hidden must be two sizes >= 1, got {self.hidden}")
        if self.holdout < 2:
            raise ValueError(f"holdout must be 2 or more, got {self.holdout}")
        if not 0.0 <= self.mix <= 1.0 or not self.exploration >= 0.0:
            raise ValueError(
                f"mix must be in [0, 1] and exploration 0 or more, got {self.mix}, "
                f"{self.exploration}"
            )
        if not self.temperature > 0.0:
            raise ValueError(f"temperature must be above 0, got {self.temperature}")
        if self.lookahead < 0:
            raise ValueError(f"lookahead must be 0 or more, got {self.lookahead}")
        if not 0.0 <= self.outcome <= 1.0:
            raise ValueError(f"outcome must be in [0, 1], got {self.outcome}")
        if self.positions not in ("greedy", "teacher"):
            raise ValueError(f"positions must be greedy or teacher, got {self.positions!r}")
        if self.positions == "teacher" and not self.teacher:
            raise ValueError("positions teacher needs a teacher (--teacher NET)")
        if self.teacher:
            try:
                net = PolicyValueNet.load(self.teacher)
            except OSError as e:
                raise ValueError(f"the teacher {self.teacher} cannot be read ({e})") from None
            if (net.game, net.num_players) != (self.game, self.players):
                raise ValueError(
                    f"the teacher {self.teacher} plays {net.game} with {net.num_players} "
                    f"players, not {self.game} with {self.players}"
                )

    @staticmethod
    def from_json(settings: dict[str, Any]) -> DistillConfig:
        """The config saved as ``settings``.

        Raises:
            ValueError: an unknown setting.
        """
        config: DistillConfig = config_from_json(DistillConfig, settings, "distillation")
        return config


_SAME_RUN_EXEMPT = ("workers", "mix", "exploration", "temperature", "lookahead")


@dataclass(frozen=True)
class Labels:
    """Labelled positions (module docstring).

    Attributes:
        examples: the positions with the labels' value target (``z``, the teacher's or the
            playouts' estimate per seat).
        outcome: the outcome of each position's game per seat, seat-relative to the mover,
            ``float32 (N, players)`` (rows sum to 1).
    """

    examples: Examples
    outcome: np.ndarray

    def __len__(self) -> int:
        return len(self.examples)

    def blended(self, weight: float) -> Examples:
        """The examples with the value target ``(1 - weight) * z + weight * outcome``."""
        if weight == 0.0:
            return self.examples
        z = (1.0 - weight) * self.examples.z + weight * self.outcome
        return replace(self.examples, z=z.astype(np.float32))

    @staticmethod
    def concat(parts: list[Labels]) -> Labels:
        """All rows of ``parts``, in order (``parts`` must not be empty)."""
        return Labels(
            Examples.concat([p.examples for p in parts]),
            np.concatenate([p.outcome for p in parts]),
        )


def game_seed(seed: int, index: int) -> int:
    """The seed of position game ``index`` of a run seeded ``seed``."""
    return int(np.random.SeedSequence([seed, index]).generate_state(1)[0] >> 1)


def label_game(
    config: DistillConfig, index: int, teacher: PolicyValueNet | None = None
) -> Examples:
    """Play position game ``index`` of the run and label the kept positions (module
    docstring). Deterministic given ``config.seed`` and ``index``.

    Args:
        teacher: the network of ``config.teacher`` (loaded once by the caller); None loads
            it when the config names one.

    Returns:
        The kept positions: the mover's tensor, the legal mask, the policy target and the
        value target per seat (seat-relative to the mover; rows sum to 1), the outcome
        mixed in with weight ``config.outcome``.
    """
    return label_positions(config, index, teacher).blended(config.outcome)


def label_positions(
    config: DistillConfig, index: int, teacher: PolicyValueNet | None = None
) -> Labels:
    """:func:`label_game`'s positions with their labels and their game's outcome apart
    (what a data part keeps)."""
    game = get_game(config.game)
    seed = game_seed(config.seed, index)
    state = game.new_game(config.players, seed)
    rng = np.random.default_rng(seed)
    eps = EPSILONS[index % len(EPSILONS)]
    if teacher is None and config.teacher:
        teacher = PolicyValueNet.load(config.teacher)
    labeller = _Labeller(config, game, seed, teacher)
    rows = _Rows()
    decisions = 0
    by_teacher = teacher is not None and config.positions == "teacher"
    while not state.is_terminal and decisions < 400:
        mask = state.legal_mask()
        legal = np.flatnonzero(mask)
        keep = len(legal) > 1 and rng.random() < config.sample
        pi = np.zeros(0, np.float32)
        if keep or (by_teacher and len(legal) > 1):
            z, pi = labeller.targets(state, mask, legal, keep)
            if keep:
                rows.add(seat_tensor(state, state.current_player), mask, pi, z, state)
        if len(legal) == 1:
            a = int(legal[0])
        elif rng.random() < eps:
            a = int(rng.choice(legal))
        elif by_teacher:
            a = int(np.argmax(pi))
        else:
            a = labeller.greedy(state.array, mask, len(legal))
        state.apply(game.action_type.from_id(a))
        decisions += 1
    return rows.labels(game, config, state)


class _Rows:
    """The kept positions of one game (:func:`label_positions`)."""

    def __init__(self) -> None:
        self.xs: list[np.ndarray] = []
        self.masks: list[np.ndarray] = []
        self.pis: list[np.ndarray] = []
        self.zs: list[np.ndarray] = []
        self.movers: list[int] = []

    def add(
        self, x: np.ndarray, mask: np.ndarray, pi: np.ndarray, z: np.ndarray, state: Any
    ) -> None:
        """Keep the position of ``state`` (its mover's tensor ``x``) with its labels."""
        self.xs.append(x)
        self.masks.append(mask)
        self.pis.append(pi)
        self.zs.append(z.astype(np.float32))
        self.movers.append(state.current_player)

    def labels(self, game: Game, config: DistillConfig, state: Any) -> Labels:
        """The kept positions with the outcome of their game (``state``: its end)."""
        n, k, num_actions = config.players, len(self.xs), game.num_actions
        result = outcome_of(state.winners if state.is_terminal else [], n)
        examples = Examples(
            np.array(self.xs, np.float32).reshape(k, observation_size(game, n)),
            np.array(self.masks, np.bool_).reshape(k, num_actions),
            np.array(self.pis, np.float32).reshape(k, num_actions),
            np.array(self.zs, np.float32).reshape(k, n),
        )
        return Labels(examples, seat_relative(result, self.movers))


class _Labeller:
    """What labels the positions of one game (module docstring): the game's playouts
    (its ``"search"`` part) and greedy's scores, or the teacher's search.

    Args:
        config: the run's settings.
        game: its game.
        seed: the game's seed (of the playouts' generator and of the teacher's search).
        teacher: the teacher network, or None.
    """

    def __init__(
        self, config: DistillConfig, game: Game, seed: int, teacher: PolicyValueNet | None
    ) -> None:
        self.config = config
        self.part: SearchPart = game.part("search")
        self.scores = game.part("greedy_scores")
        self.num_actions = game.num_actions
        self.rng = np.zeros(1, dtype=np.uint64)
        seed_rng(self.rng, seed)
        self.searcher = (
            None
            if teacher is None
            else NetBot(teacher, iterations=config.iterations, seed=seed, early_stop=False)
        )
        seats = game.max_players
        self.work = np.zeros(1, dtype=game.state_dtype)
        self.reward = np.zeros(seats)
        self.acc = np.zeros(seats)
        self.score = np.zeros(game.num_actions)

    def targets(
        self, state: Any, mask: np.ndarray, legal: np.ndarray, keep: bool
    ) -> tuple[np.ndarray, np.ndarray]:
        """The value (seat-relative, ``(players,)``) and policy (float32,
        ``(num_actions,)``) targets of the position ``state`` (module docstring); the
        value is left even when the position is not ``keep`` (only played)."""
        n = self.config.players
        seat = state.current_player
        observation = state.observation(seat)
        z = np.full(n, 1.0 / n)
        if keep and (self.searcher is None or n > 2):  # a position only played needs no value
            z = self.playout_value(observation, seat, mask)
        if self.searcher is not None:
            return _search_targets(self.searcher, observation, z, self.num_actions)
        pi = np.zeros(self.num_actions, np.float32)
        self.score[:] = -np.inf
        self.scores(state.array, mask, self.score)
        logits = self.score[legal] / POLICY_TEMPERATURE
        p = np.exp(logits - logits.max())
        pi[legal] = p / p.sum()
        return z, pi

    def playout_value(self, observation: Any, seat: int, mask: np.ndarray) -> np.ndarray:
        """Each seat's share of the mean reward of ``config.playouts`` playouts from
        ``observation`` (seat-relative to ``seat``, summing to 1)."""
        n = self.config.players
        scratch = (observation.array, self.work, mask.copy(), self.reward)
        part = self.part
        if part.playout_mean(scratch, self.acc, self.config.playouts, part.depth, self.rng) < 0:
            raise RuntimeError("an observation of a real game could not be determinized")
        z = np.array([self.acc[(seat + k) % n] for k in range(n)], np.float64)
        return z / z.sum() if z.sum() > 0 else np.full(n, 1.0 / n)

    def greedy(self, arr: np.ndarray, mask: np.ndarray, n_legal: int) -> int:
        """Greedy's decision (compiled, with its exploration) in the state ``arr``."""
        return int(self.part.greedy(arr, mask.copy(), n_legal, True, self.rng))


def _search_targets(
    searcher: NetBot, observation: Any, z: np.ndarray, num_actions: int
) -> tuple[np.ndarray, np.ndarray]:
    """The teacher's targets at ``observation`` (module docstring): the value per seat
    (seat-relative to the mover; the mover's share the root's mean reward, the others
    splitting the rest as ``z`` does) and the root's visit shares, float32
    ``(num_actions,)``."""
    links, stats = searcher.search(observation)
    children = _search.root_children(links, stats[:3])
    visits = sum(v for _, v, _ in children)
    pi = np.zeros(num_actions, np.float32)
    if visits <= 0:
        raise RuntimeError("the teacher's search ran no iteration")
    for a, v, _ in children:
        pi[a] = v / visits
    mine = sum(v * q for _, v, q in children) / visits
    rest = float(z[1:].sum())
    value = np.empty(len(z))
    value[0] = mine
    value[1:] = (1.0 - mine) * (z[1:] / rest if rest > 0 else 1.0 / (len(z) - 1))
    return value, pi


def _label_part(task: tuple[DistillConfig, int]) -> tuple[Labels, Labels]:
    """Part ``k`` of the run's games: (fitted positions, held-out positions)."""
    config, k = task
    teacher = PolicyValueNet.load(config.teacher) if config.teacher else None
    fit_parts: list[Labels] = []
    held: list[Labels] = []
    for i in range(k * CHUNK, min(config.games, (k + 1) * CHUNK)):
        part = held if i % config.holdout == 0 else fit_parts
        part.append(label_positions(config, i, teacher))
    return _concat(fit_parts, config), _concat(held, config)


def _concat(parts: list[Labels], config: DistillConfig) -> Labels:
    parts = [p for p in parts if len(p)]
    if parts:
        return Labels.concat(parts)
    num_actions = get_game(config.game).num_actions
    width = observation_size(config.game, config.players)
    empty = Examples(
        np.zeros((0, width), np.float32),
        np.zeros((0, num_actions), np.bool_),
        np.zeros((0, num_actions), np.float32),
        np.zeros((0, config.players), np.float32),
    )
    return Labels(empty, np.zeros((0, config.players), np.float32))


def _save_part(path: Path, fitted: Labels, held: Labels) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.npz")
    arrays: dict[str, Any] = {}
    for prefix, labels in (("fit", fitted), ("val", held)):
        arrays.update({f"{prefix}_{k}": getattr(labels.examples, k) for k in FIELDS})
        arrays[f"{prefix}_outcome"] = labels.outcome
    np.savez_compressed(tmp, **arrays)
    tmp.replace(path)


def _load_part(path: Path, need_outcome: bool) -> tuple[Labels, Labels] | None:
    """A saved part, or None to label it again: cut off while written, or written before
    results were kept when ``need_outcome`` (without it, their results read as a share
    each: never used, since the fit's weight on them is 0)."""
    try:
        with np.load(path) as d:
            parts = []
            for p in ("fit", "val"):
                examples = Examples(*(d[f"{p}_{k}"] for k in FIELDS))
                if f"{p}_outcome" in d.files:
                    outcome = d[f"{p}_outcome"]
                elif need_outcome:
                    return None
                else:
                    outcome = np.full_like(examples.z, 1.0 / examples.z.shape[1])
                parts.append(Labels(examples, outcome))
    except (OSError, ValueError, KeyError):
        return None  # a part cut off while written: label it again
    return parts[0], parts[1]


def value_r2(net: PolicyValueNet, data: Examples) -> float:
    """The share of the variance of the mover's value target that ``net``'s value
    explains on ``data`` (1 - MSE / variance; 0 for a constant, negative for worse).

    Raises:
        ValueError: no data.
    """
    if len(data) == 0:
        raise ValueError("no examples")
    from .fit import predict_value

    predicted = predict_value(net, data.x)[:, 0]
    target = data.z[:, 0].astype(np.float64)
    var = float(target.var())
    return 1.0 - float(((predicted - target) ** 2).mean()) / var if var > 0 else 0.0


def distill(
    config: DistillConfig,
    out: Path,
    *,
    report: Callable[[dict[str, Any]], None] = lambda line: None,
) -> PolicyValueNet:
    """Run (or resume) the distillation of ``config`` in folder ``out`` (module docstring).

    Returns:
        The fitted network (also written to ``out/network.npz``).

    Raises:
        ValueError: a setting out of range, or ``out`` holds a run with other settings.
        ImportError: torch is not installed.
    """
    config.check()
    claim_folder(out, config, _SAME_RUN_EXEMPT)
    if config.teacher:
        _keep_teacher(Path(config.teacher), out / "teacher.npz")
    start = time.perf_counter()
    have = _labelled_parts(config, out, report, start)
    parts = len(have)
    fitted = Labels.concat([have[k][0] for k in range(parts)]).blended(config.outcome)
    held = _concat([have[k][1] for k in range(parts)], config).blended(config.outcome)
    net, log, kept = _fit_best(config, fitted, held, report, start)
    info = {
        "command": command_line(config, out),
        "config": asdict(config),
        "log": log,
        "kept_steps": kept,
        "play": {
            "mix": config.mix,
            "exploration": config.exploration,
            "temperature": config.temperature,
            "lookahead": config.lookahead,
        },
    }
    net = replace(net, info=info)
    net.save(out / "network.npz")
    (out / "log.jsonl").write_text("".join(json.dumps(line) + "\n" for line in log))
    return net


def _labelled_parts(
    config: DistillConfig, out: Path, report: Callable[[dict[str, Any]], None], start: float
) -> dict[int, tuple[Labels, Labels]]:
    """Every data part of the run, ``{k: (fitted, held out)}``: those saved in ``out``
    loaded, the others labelled (by ``config.workers`` processes) and saved."""
    parts = math.ceil(config.games / CHUNK)
    have: dict[int, tuple[Labels, Labels]] = {}
    for k in range(parts):
        loaded = _load_part(out / "data" / f"part-{k:03d}.npz", config.outcome > 0)
        if loaded is not None:
            have[k] = loaded
    missing = [k for k in range(parts) if k not in have]
    with ExitStack() as stack:
        tasks = [(config, k) for k in missing]
        labelled: Iterator[tuple[Labels, Labels]] = map(_label_part, tasks)
        if config.workers > 1 and missing:
            pool = stack.enter_context(ProcessPoolExecutor(max_workers=config.workers))
            labelled = pool.map(_label_part, tasks)
        for k, result in zip(missing, labelled, strict=True):
            _save_part(out / "data" / f"part-{k:03d}.npz", *result)
            have[k] = result
            report({"part": k, "of": parts, "seconds": round(time.perf_counter() - start, 1)})
    return have


def _fit_best(
    config: DistillConfig,
    fitted: Examples,
    held: Examples,
    report: Callable[[dict[str, Any]], None],
    start: float,
) -> tuple[PolicyValueNet, list[dict[str, Any]], int]:
    """Fit a new network to ``fitted`` in blocks of 1,000 steps, measured on ``held``
    after each; returns the weights with the lowest held-out loss (the last without
    held-out examples), the log lines and the steps of the weights kept."""
    from .fit import evaluate, fit

    net = PolicyValueNet.initial(
        config.game, config.players, config.hidden, seed=config.seed, features=config.features
    )
    log: list[dict[str, Any]] = []
    state: bytes | None = None
    done = 0
    block = 1000
    best: tuple[float, int, PolicyValueNet] | None = None  # (held-out loss, steps, net)
    while done < config.steps:
        steps = min(block, config.steps - done)
        lr = config.lr if done < 2 * config.steps // 3 else config.lr / 3
        net, state, losses = fit(
            net,
            fitted,
            steps=steps,
            batch=config.batch,
            lr=lr,
            seed=config.seed * 1_000_003 + done,
            optimizer_state=state,
        )
        done += steps
        line: dict[str, Any] = {"steps": done, "examples": len(fitted)}
        line.update({f"loss_{k}": round(v, 5) for k, v in losses.items()})
        if len(held):
            line.update({f"val_{k}": round(v, 5) for k, v in evaluate(net, held).items()})
            line["val_r2"] = round(value_r2(net, held), 4)
            if best is None or line["val_total"] < best[0]:
                best = (line["val_total"], done, net)
        line["seconds"] = round(time.perf_counter() - start, 1)
        log.append(line)
        report(line)
    if best is None:
        return net, log, done
    return best[2], log, best[1]


def _keep_teacher(teacher: Path, kept: Path) -> None:
    """Copy the teacher's file into the run's folder (``kept``), so the run can be
    reproduced after the file it names has changed (a shipped network replaced, say).

    Raises:
        ValueError: the run was started with another file of that name.
    """
    data = teacher.read_bytes()
    if not kept.exists():
        kept.write_bytes(data)
    elif kept.read_bytes() != data:
        raise ValueError(
            f"{teacher} has changed since this run began (its teacher is kept as {kept}); "
            "put the file back, or start a new run folder"
        )


def command_line(config: DistillConfig, out: Path) -> str:
    """The ``splendor distill`` command that runs ``config`` into ``out``."""
    d = DistillConfig()
    parts = ["splendor distill", f"--game {config.game}", f"--players {config.players}"]
    for name in (
        "games",
        "sample",
        "playouts",
        "steps",
        "batch",
        "lr",
        "holdout",
        "seed",
        "mix",
        "exploration",
        "temperature",
        "lookahead",
        "outcome",
    ):
        if getattr(config, name) != getattr(d, name):
            parts.append(f"--{name} {getattr(config, name)}")
    if config.hidden != d.hidden:
        parts.append(f"--hidden {config.hidden[0]},{config.hidden[1]}")
    if not config.features:
        parts.append("--no-features")
    if config.teacher:
        parts.append(f"--teacher {config.teacher}")
        if config.iterations != d.iterations:
            parts.append(f"--iterations {config.iterations}")
        if config.positions != d.positions:
            parts.append(f"--positions {config.positions}")
    parts.append(f"--out {out}")
    return " ".join(parts)


__all__ = [
    "CHUNK",
    "EPSILONS",
    "POLICY_TEMPERATURE",
    "DistillConfig",
    "Labels",
    "command_line",
    "distill",
    "game_seed",
    "label_game",
    "label_positions",
    "value_r2",
]
