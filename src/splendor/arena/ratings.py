"""Elo ratings with 95% confidence intervals from arena games (numpy only).

Method:

1. **Pairwise outcomes.** Every game is split into one comparison per pair of seats held by
   *different* bots (two seats of the same bot, possible when there are fewer bots than
   seats, are not compared). Within a pair: a winner beats a non-winner; two winners (a
   shared victory) draw; between two non-winners (or in a game with no winner, such as a
   Duel game stopped by its turn cap or a classic game stopped by the arena's decision
   cap) more prestige points win and equal points draw; a
   seat that forfeited loses to every other seat. A win scores 1, a draw 1/2 to each side.
   ``S[a, b]`` is the total score of bot ``a`` against bot ``b``.
2. **Bradley-Terry fit.** Bot ``a`` has a strength ``theta[a]`` and scores against ``b``
   with probability ``1 / (1 + exp(theta[b] - theta[a]))`` (draws count as half a win and
   half a loss). The strengths maximise the log-likelihood
   ``sum_ab S[a, b] * log sigmoid(theta[a] - theta[b])`` plus a small prior: ``prior``
   virtual drawn comparisons between every pair of bots (default
   :data:`PRIOR_DRAWS`), which keeps a perfect record finite and ties every bot to the
   others. The fit is Newton's method on the mean-zero strengths, with step halving
   (the objective is strictly concave there).
3. **Elo scale.** ``elo = 1500 + 400 / ln(10) * (theta - mean(theta))``: a difference of
   400 points means 10:1 odds, and the **mean rating is 1500** (anchored on the mean, not on
   any one bot).
4. **95% confidence intervals** by bootstrap over games: ``bootstrap`` times (default 500)
   the games are resampled with replacement (whole games, so the comparisons of one game
   stay together), the ratings refitted, and the 2.5th and 97.5th percentiles of each bot's
   rating taken (widened to include the point estimate when the bootstrap distribution is
   lopsided). The resampling is seeded: the same games give the same intervals.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

ELO_SCALE = 400.0 / math.log(10.0)
"""Elo points per unit of natural-log strength."""
ELO_MEAN = 1500.0
"""The mean rating of the bots of an arena."""
PRIOR_DRAWS = 0.5
"""Virtual drawn comparisons added between every pair of bots."""
BOOTSTRAP = 500
"""Default number of bootstrap resamples."""


def game_matrix(
    bots: Sequence[int],
    scores: Sequence[int],
    winners: Sequence[int],
    num_bots: int,
    forfeit_seat: int | None = None,
) -> np.ndarray:
    """The pairwise outcomes of one game (step 1 of the module docstring).

    Args:
        bots: bot index per seat, length ``K``.
        scores: prestige points per seat, length ``K``.
        winners: winning seats (possibly empty, or several for a shared win).
        num_bots: ``B``, the number of bots of the arena.
        forfeit_seat: the seat that forfeited, if any.

    Returns:
        ``(B, B)`` float array ``S`` with ``S[a, b]`` = score of bot ``a`` against bot
        ``b`` in this game (``S[a, b] + S[b, a]`` = comparisons between them; diagonal 0).
    """
    out = np.zeros((num_bots, num_bots))
    win = set(int(w) for w in winners)
    k = len(bots)
    for i in range(k):
        for j in range(i + 1, k):
            a, b = int(bots[i]), int(bots[j])
            if a == b:
                continue
            if forfeit_seat is not None and forfeit_seat in (i, j):
                si = 0.0 if forfeit_seat == i else 1.0
            elif (i in win) != (j in win):
                si = 1.0 if i in win else 0.0
            elif i in win:
                si = 0.5
            else:
                si = 1.0 if scores[i] > scores[j] else 0.0 if scores[i] < scores[j] else 0.5
            out[a, b] += si
            out[b, a] += 1.0 - si
    return out


def games_tensor(games: Sequence[Mapping[str, Any]], num_bots: int) -> np.ndarray:
    """:func:`game_matrix` of every game summary (keys ``bots``, ``scores``, ``winners``,
    optional ``forfeit``), stacked: shape ``(G, B, B)``."""
    mats = np.zeros((len(games), num_bots, num_bots))
    for g, game in enumerate(games):
        forfeit = game.get("forfeit")
        mats[g] = game_matrix(
            game["bots"],
            game["scores"],
            game["winners"],
            num_bots,
            int(forfeit["seat"]) if forfeit else None,
        )
    return mats


def _with_prior(S: np.ndarray, prior: float) -> np.ndarray:
    b = S.shape[-1]
    off = 1.0 - np.eye(b)
    return S + 0.5 * prior * off


def _loglik(S: np.ndarray, theta: np.ndarray) -> np.ndarray:
    d = theta[..., :, None] - theta[..., None, :]
    loglik: np.ndarray = -(S * np.logaddexp(0.0, -d)).sum(axis=(-2, -1))
    return loglik


def fit_strengths(
    S: np.ndarray, prior: float = PRIOR_DRAWS, tol: float = 1e-10, max_iter: int = 100
) -> np.ndarray:
    """Maximum-likelihood Bradley-Terry strengths (natural-log scale, mean zero).

    Args:
        S: ``(B, B)`` scores, or a batch ``(R, B, B)``; ``S[a, b]`` = score of ``a`` against
            ``b`` (see :func:`game_matrix`).
        prior: virtual drawn comparisons added between every pair (must be > 0 for the
            fit to exist when a bot won or lost everything).
        tol: stop when no strength moves by more than this.
        max_iter: Newton iterations at most.

    Returns:
        ``(B,)`` (or ``(R, B)``) strengths with mean zero; ``theta[a] - theta[b]`` is the
        log-odds of ``a`` scoring against ``b``.

    Raises:
        ValueError: ``S`` not square, or negative entries or prior.
    """
    S = np.asarray(S, dtype=float)
    if S.ndim not in (2, 3) or S.shape[-1] != S.shape[-2]:
        raise ValueError(f"S must be (B, B) or (R, B, B), got shape {S.shape}")
    if prior < 0 or (S < 0).any():
        raise ValueError("scores and prior must be non-negative")
    single = S.ndim == 2
    Sb = _with_prior(S[None] if single else S, prior)
    R, B, _ = Sb.shape
    N = Sb + np.swapaxes(Sb, 1, 2)
    theta = np.zeros((R, B))
    ones = np.ones((B, B)) / B
    for _ in range(max_iter):
        d = theta[:, :, None] - theta[:, None, :]
        p = 1.0 / (1.0 + np.exp(-d))
        grad = (Sb - N * p).sum(axis=2)
        w = N * p * (1.0 - p)
        H = -w
        idx = np.arange(B)
        H[:, idx, idx] = w.sum(axis=2)  # the negative Hessian: a weighted graph Laplacian
        step = np.linalg.solve(H + ones, grad[..., None])[..., 0]
        base = _loglik(Sb, theta)
        t = np.ones(R)
        new = theta + step
        for _ in range(40):  # halve the steps that would lower the likelihood
            worse = _loglik(Sb, new) < base - 1e-12 * np.maximum(1.0, np.abs(base))
            if not worse.any():
                break
            t = np.where(worse, t / 2, t)
            new = theta + t[:, None] * step
        new -= new.mean(axis=1, keepdims=True)
        moved = np.abs(new - theta).max()
        theta = new
        if moved < tol:
            break
    strengths: np.ndarray = theta[0] if single else theta
    return strengths


def to_elo(theta: np.ndarray) -> np.ndarray:
    """Strengths to Elo ratings with mean :data:`ELO_MEAN` (same shape)."""
    theta = np.asarray(theta, dtype=float)
    elo: np.ndarray = ELO_MEAN + ELO_SCALE * (theta - theta.mean(axis=-1, keepdims=True))
    return elo


@dataclass(frozen=True)
class Ratings:
    """Elo ratings of an arena's bots.

    Attributes:
        elo: ``(B,)`` ratings, mean 1500.
        low, high: ``(B,)`` bounds of the 95% bootstrap confidence intervals.
        scores: ``(B, B)`` pairwise scores ``S`` (wins + draws/2, no prior).
        comparisons: ``(B, B)`` pairwise comparisons ``S + S.T``.
        bootstrap: resamples used (0: no intervals; then ``low == high == elo``).
        prior: virtual draws per pair used in the fit.
    """

    elo: np.ndarray
    low: np.ndarray
    high: np.ndarray
    scores: np.ndarray
    comparisons: np.ndarray
    bootstrap: int
    prior: float

    def head_to_head(self) -> np.ndarray:
        """``(B, B)`` share of the comparisons ``a`` won against ``b`` (draws count half);
        NaN where they never met and on the diagonal."""
        with np.errstate(invalid="ignore", divide="ignore"):
            h: np.ndarray = self.scores / self.comparisons
        h[self.comparisons == 0] = np.nan
        np.fill_diagonal(h, np.nan)
        return h


def rate(
    games: Sequence[Mapping[str, Any]],
    num_bots: int,
    *,
    bootstrap: int = BOOTSTRAP,
    seed: int = 0,
    prior: float = PRIOR_DRAWS,
) -> Ratings:
    """Elo ratings with 95% bootstrap intervals (the method is in the module docstring).

    Args:
        games: game summaries, each with ``bots`` (bot index per seat), ``scores``,
            ``winners`` and optionally ``forfeit`` (``{"seat": s, ...}`` or None).
        num_bots: ``B``.
        bootstrap: resamples for the intervals (0 for none).
        seed: seed of the resampling.
        prior: virtual draws per pair (see :func:`fit_strengths`).

    Raises:
        ValueError: ``num_bots < 1``, ``bootstrap < 0``, a bot index out of range.
    """
    if num_bots < 1:
        raise ValueError(f"need at least one bot, got {num_bots}")
    if bootstrap < 0:
        raise ValueError(f"bootstrap must be >= 0, got {bootstrap}")
    for g in games:
        if any(not 0 <= int(b) < num_bots for b in g["bots"]):
            raise ValueError(f"bot index out of range 0..{num_bots - 1} in {list(g['bots'])}")
    mats = games_tensor(games, num_bots)
    S = mats.sum(axis=0)
    elo = to_elo(fit_strengths(S, prior))
    low = high = elo.copy()
    n_games = len(games)
    if bootstrap and n_games:
        rng = np.random.default_rng(seed)
        flat = mats.reshape(n_games, -1)
        chunk = max(1, min(bootstrap, 4_000_000 // max(1, n_games)))
        samples = []
        done = 0
        while done < bootstrap:
            r = min(chunk, bootstrap - done)
            counts = rng.multinomial(n_games, np.full(n_games, 1.0 / n_games), size=r)
            Sr = (counts @ flat).reshape(r, num_bots, num_bots)
            samples.append(to_elo(fit_strengths(Sr, prior)))
            done += r
        boot = np.concatenate(samples)
        low = np.minimum(np.percentile(boot, 2.5, axis=0), elo)
        high = np.maximum(np.percentile(boot, 97.5, axis=0), elo)
    return Ratings(
        elo=elo,
        low=low,
        high=high,
        scores=S,
        comparisons=S + S.T,
        bootstrap=int(bootstrap) if n_games else 0,
        prior=float(prior),
    )
