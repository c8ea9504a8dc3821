"""Fit the weights of the MCTS bot's Splendor Duel evaluation on greedy self-play.

Usage::

    .venv/bin/python tools/fit_duel_evaluation.py [--positions 30000] [--seed 1] [--processes 2]

Each sample is a position of a game that two greedy players play (the compiled
:func:`splendor.bots.greedy_duel_compiled.duel_greedy_policy`, 1 decision in 16 at
random), stopped after a random number of decisions (4 to 109), with its
:func:`splendor.bots.playout.duel_features` for the seat to move and for the other seat,
labelled by whether the seat to move goes on to win (greedy self-play to the end; 1/2 for a
game without a winner). A logistic regression on the feature differences gives the weights
and the tempo that :data:`splendor.bots.playout.DUEL_EVAL_WEIGHTS` and
:data:`~splendor.bots.playout.DUEL_EVAL_TEMPO` hold; the last fifth of the samples is held
out to report the log-loss. About a minute per 15,000 positions on one core.
"""

from __future__ import annotations

import argparse
from multiprocessing import Pool

import numpy as np

from splendor.bots.greedy_duel_compiled import duel_greedy_policy
from splendor.bots.playout import DUEL_FEATURES, duel_features
from splendor.duel import rules as duel_rules
from splendor.duel import state as duel_state
from splendor.duel.actions import NUM_ACTIONS
from splendor.rng import seed_rng

NUM_FEATURES = len(DUEL_FEATURES)


def sample(positions: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``positions`` labelled samples: features ``(positions, 2, 6)`` (seat to move, other
    seat) and outcomes ``(positions,)`` for the seat to move (1 win, 0 loss, 1/2 none)."""
    rng = np.zeros(1, dtype=np.uint64)
    seed_rng(rng, seed)
    stops = np.random.default_rng(seed)
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    x = np.zeros((positions, 2, NUM_FEATURES))
    y = np.zeros(positions)
    k = game = 0
    while k < positions:
        arr = duel_state.new_game(2, seed * 1_000_003 + game).array.copy()
        game += 1
        stop = int(stops.integers(4, 110))
        n = 0
        while arr[0]["current"] >= 0 and n < stop:
            n_legal = duel_rules.legal_mask(arr, mask)
            duel_rules.apply(arr, duel_greedy_policy(arr, mask, n_legal, True, rng))
            n += 1
        if arr[0]["current"] < 0:
            continue
        seat = int(arr[0]["current"])
        duel_features(arr, seat, x[k, 0])
        duel_features(arr, 1 - seat, x[k, 1])
        while arr[0]["current"] >= 0:
            n_legal = duel_rules.legal_mask(arr, mask)
            duel_rules.apply(arr, duel_greedy_policy(arr, mask, n_legal, True, rng))
        winners = duel_state.State(arr).winners
        y[k] = 0.5 if not winners else float(winners == [seat])
        k += 1
    return x, y


def fit(design: np.ndarray, y: np.ndarray, l2: float = 1e-3, steps: int = 50) -> np.ndarray:
    """Logistic regression by Newton's method: weights ``(columns,)`` of ``design``
    ``(n, columns)`` for outcomes ``y`` in [0, 1], with a small L2 penalty."""
    w = np.zeros(design.shape[1])
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-design @ w))
        grad = design.T @ (p - y) + l2 * w
        hess = (design * (p * (1 - p))[:, None]).T @ design + l2 * np.eye(design.shape[1])
        w -= np.linalg.solve(hess, grad)
    return w


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    """Mean binary cross-entropy of predictions ``p`` for outcomes ``y``."""
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def design_matrix(x: np.ndarray) -> np.ndarray:
    """A column of ones (the tempo) beside the feature differences (seat to move minus
    the other), from samples ``(n, 2, 6)``."""
    return np.column_stack([np.ones(len(x)), x[:, 0] - x[:, 1]])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=30_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--processes", type=int, default=2)
    args = parser.parse_args()
    share = -(-args.positions // args.processes)
    with Pool(args.processes) as pool:
        parts = pool.starmap(sample, [(share, args.seed + i) for i in range(args.processes)])
    x = np.concatenate([p[0] for p in parts])[: args.positions]
    y = np.concatenate([p[1] for p in parts])[: args.positions]
    design = design_matrix(x)
    train = np.arange(len(y)) < int(0.8 * len(y))
    w = fit(design[train], y[train])
    held = ~train
    print(f"{len(y)} positions, {held.sum()} held out")
    print(
        f"held-out log-loss: fitted {log_loss(1 / (1 + np.exp(-design[held] @ w)), y[held]):.4f}, "
        f"constant {log_loss(np.full(held.sum(), y[train].mean()), y[held]):.4f}"
    )
    print(f"DUEL_EVAL_TEMPO = {w[0]:.2f}")
    print("DUEL_EVAL_WEIGHTS =", "[" + ", ".join(f"{v:.2f}" for v in w[1:]) + "]")
    for name, v in zip(DUEL_FEATURES, w[1:], strict=True):
        print(f"  {name:>16}: {v:6.2f}")


if __name__ == "__main__":
    main()
