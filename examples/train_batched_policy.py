#!/usr/bin/env python3
"""Masked PPO on the compiled batched environment, on CPU with torch.

An example of learning with :class:`splendor.rl.vector_env.SplendorVectorEnv`, where one
compiled call steps hundreds of games at once (the learning seat's decision, the bots'
replies, the end of a game and the next deal): the policy sees ``(envs, D)`` observation
arrays and answers ``(envs,)`` decisions, so the time goes into torch, not into the games.
It evaluates the untrained policy against the ``random`` and ``greedy`` bots, trains for a
time or update budget, evaluates again and prints the win rates::

    python examples/train_batched_policy.py --minutes 5                # classic, 2 players
    python examples/train_batched_policy.py --game duel --minutes 5
    python examples/train_batched_policy.py --updates 2 --envs 32 --eval-games 8

Method
------
- Policy and value: one MLP (observation -> 256 -> 256 -> logits over every decision id, and
  a value) over the shared observation tensor (:mod:`splendor.rl.encoding`), each value
  divided by its upper bound from ``encoding.observation_high`` (unbounded turn counters by
  100).
- Masking: illegal decisions get a logit of -1e9 before the softmax, both when acting and
  when the PPO loss recomputes log-probabilities, so the policy never picks one and its
  entropy counts legal decisions only.
- PPO with clipped ratios and generalized advantage estimation (GAE): each update collects
  ``--steps`` steps of ``--envs`` games (256 x 64 = 16384 decisions by default), then runs
  ``--epochs`` epochs of ``--minibatch`` minibatches, with gradient clipping and a learning
  rate decaying linearly to a tenth of ``--lr`` over the budget.
- Auto-reset: the environment resets *at the next step* (Gymnasium's ``NEXT_STEP`` mode).
  The step that ends a game returns its final observation (no legal decision) and terminal
  reward; the next step ignores that game's action and deals the next game. Such a "reset
  step" is no decision of the policy: a per-game ``pending_reset`` flag marks it, and it is
  left out of the loss (and GAE does not bootstrap across the end of a game).
- Endless games: a policy can keep a game going for ever (taking and returning tokens), so
  the environment cuts a game short after ``--max-turns`` turns (default 400, all seats
  together; games between random players last about 100). Such a truncated game is no
  loss: its last step bootstraps from the value of its final observation. Duel games
  also end by the D25 turn cap, ``--turn-cap`` (default 200, reward 0).
- Opponents, a two-stage curriculum: every game of the first ``--curriculum`` share of the
  budget (default 0.5) is played against the ``random`` bot; afterwards ``--greedy-share``
  of the games (default 0.5) are played against the ``greedy`` bot and the rest against
  ``random``. The learning seat is drawn at random for every game (``seat="random"``).
- Reward: the environment's terminal reward (+1 win, -1 loss, ``1/k`` for a win shared by
  ``k`` players, 0 for a Duel game stopped by the turn cap) plus a documented shaping term:
  ``--shaping`` (default 0.02) times the change of the learner's prestige points at each of
  its decisions, read from the ``players.points`` field of its own observation (index 0 is
  the observer). ``--shaping 0`` learns from the terminal reward only.
- Evaluation, before and after training: ``--eval-games`` games against each bot, one game
  per environment (only the first game of each environment counts), with the seat drawn at
  random and a fixed seed, so both evaluations play the same deals and seats. The policy
  takes its most probable legal decision (``argmax``, the headline figure) and, as a second
  figure, samples its decision. A win is a reward of 1: shared wins, draws (Duel turn cap,
  games cut short) and losses count as not won.

Printed: the win rates (wins/games, with the losses and draws) before and after training,
progress lines during training (environment steps per second and the win rate of the last
200 training games against each bot), and a final line ``summary {...}`` holding one JSON
object: the game, player count, time, updates, environment steps (learning-seat steps of
all games, reset steps included), steps per second and the argmax and sampled win rates
before and after training against ``random`` and ``greedy``.

Everything runs on the CPU; ``--threads`` sets torch's thread count (default 1).
"""

from __future__ import annotations

import argparse
import json
import time
from collections import deque
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

from splendor.rl import encoding
from splendor.rl.vector_env import SplendorVectorEnv

EVAL_SEED = 10**6
"""The seed of the evaluation games: the same deals and seats before and after training."""
BOTS = ("random", "greedy")


@dataclass
class Config:
    """The command-line settings (see ``main``)."""

    game: str
    players: int
    minutes: float
    updates: int | None
    envs: int
    steps: int
    epochs: int
    minibatch: int
    hidden: int
    lr: float
    gamma: float
    lam: float
    clip: float
    ent: float
    vf: float
    shaping: float
    curriculum: float
    greedy_share: float
    turn_cap: int | None
    max_turns: int
    eval_games: int
    seed: int


class Policy(nn.Module):
    """Masked actor-critic: ``forward(obs, mask) -> (logits, value)``; ``obs`` float32
    ``(B, D)``, ``mask`` bool ``(B, A)``; illegal logits are -1e9."""

    def __init__(self, game: str, players: int, hidden: int = 256) -> None:
        super().__init__()
        high = encoding.observation_high(game, players)
        scale = 1.0 / np.where(np.isfinite(high), np.maximum(high, 1.0), 100.0)
        self.register_buffer("scale", torch.tensor(scale, dtype=torch.float32))
        size, actions = encoding.observation_size(game, players), encoding.num_actions(game)
        self.body = nn.Sequential(
            nn.Linear(size, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh()
        )
        self.pi = nn.Linear(hidden, actions)
        self.v = nn.Linear(hidden, 1)
        nn.init.orthogonal_(self.pi.weight, gain=0.01)
        nn.init.zeros_(self.pi.bias)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.body(obs * self.scale)
        logits = self.pi(h).masked_fill(~mask, -1e9)
        return logits, self.v(h).squeeze(-1)


def act(logits: torch.Tensor, sample: bool, gen: torch.Generator | None = None) -> torch.Tensor:
    """One decision per row: a sample of the softmax (Gumbel-max trick) or the argmax.

    A row with no legal decision (a game's final observation) gets an arbitrary id, which
    the environment ignores at its reset step."""
    if not sample:
        return torch.argmax(logits, -1)
    u = torch.rand(logits.shape, generator=gen).clamp_(1e-12, 1.0)
    return torch.argmax(logits - torch.log(-torch.log(u)), -1)


def points_offset(game: str, players: int) -> int:
    """Index of the observer's prestige points in the observation tensor."""
    return next(f for f in encoding.layout(game, players) if f.name == "players.points").offset


class OpponentMix:
    """``n_random`` games against the random bot and ``n_greedy`` against the greedy bot,
    stepped together as one batch (random games first); one :class:`SplendorVectorEnv` per
    bot, concatenated."""

    def __init__(self, cfg: Config, n_random: int, n_greedy: int, seed: int) -> None:
        self.envs = [
            SplendorVectorEnv(cfg.game, num_envs=n, opponent=bot, num_players=cfg.players,
                              seat="random", turn_cap=cfg.turn_cap,
                              max_turns=cfg.max_turns, copy=False)
            for bot, n in (("random", n_random), ("greedy", n_greedy))
            if n > 0
        ]  # fmt: skip
        self.bot = np.array([0] * n_random + [1] * n_greedy)  # index into BOTS
        self.seed = seed

    def reset(self) -> tuple[np.ndarray, np.ndarray]:
        """Deal every game: ``(observations float32 (N, D), masks bool (N, A))``."""
        outs = [env.reset(seed=self.seed + 7919 * k)[0] for k, env in enumerate(self.envs)]
        return self._join(outs)

    def step(
        self, actions: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Play ``actions``: ``(observations, masks, rewards, terminations, truncations)``."""
        outs, rewards, terms, truncs = [], [], [], []
        k = 0
        for env in self.envs:
            obs, r, term, trunc, _ = env.step(actions[k : k + env.num_envs])
            k += env.num_envs
            outs.append(obs)
            rewards.append(r.copy())
            terms.append(term.copy())
            truncs.append(trunc.copy())
        obs, mask = self._join(outs)
        return obs, mask, np.concatenate(rewards), np.concatenate(terms), np.concatenate(truncs)

    @staticmethod
    def _join(outs: list[dict[str, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
        obs = np.concatenate([o["observation"] for o in outs])
        mask = np.concatenate([o["action_mask"] for o in outs]).view(np.bool_)
        return obs, mask


def evaluate(policy: Policy, cfg: Config, opponent: str, sample: bool) -> tuple[int, int, int]:
    """(wins, losses, draws) of the first game of each of ``cfg.eval_games`` environments
    against ``opponent``, seats drawn at random, deals from ``EVAL_SEED``; the policy
    samples its decisions (``sample``) or takes the most probable legal one."""
    n = cfg.eval_games
    env = SplendorVectorEnv(cfg.game, num_envs=n, opponent=opponent, num_players=cfg.players,
                            seat="random", turn_cap=cfg.turn_cap, max_turns=cfg.max_turns,
                            copy=False)  # fmt: skip
    obs, _ = env.reset(seed=EVAL_SEED)
    result = np.full(n, np.nan, dtype=np.float32)
    gen = torch.Generator().manual_seed(EVAL_SEED)
    with torch.no_grad():
        while np.isnan(result).any():
            x = torch.from_numpy(obs["observation"])
            m = torch.from_numpy(obs["action_mask"].view(np.bool_))
            a = act(policy(x, m)[0], sample, gen)
            obs, r, term, trunc, _ = env.step(a.numpy())
            first = (term | trunc) & np.isnan(result)
            result[first] = r[first]
    return (
        int((result >= 0.999).sum()),
        int((result < 0).sum()),
        int(((result >= 0) & (result < 0.999)).sum()),
    )


def report(policy: Policy, cfg: Config, when: str) -> dict[str, float]:
    """Print and return the win rates against both bots, argmax and sampled policy."""
    rates: dict[str, float] = {}
    for bot in BOTS:
        for mode, sample in (("argmax", False), ("sampled", True)):
            won, lost, drawn = evaluate(policy, cfg, bot, sample)
            rate = won / cfg.eval_games
            key = f"win_rate_{when}_vs_{bot}" + ("_sampled" if sample else "")
            rates[key] = rate
            print(f"win rate vs {bot:6s} {when:6s} training ({mode:7s} policy): {rate:.3f} "
                  f"({won} won, {lost} lost, {drawn} drawn of {cfg.eval_games})",
                  flush=True)  # fmt: skip
    return rates


def gae(
    rew: torch.Tensor, val: torch.Tensor, done: torch.Tensor, gamma: float, lam: float
) -> torch.Tensor:
    """Generalized advantage estimates ``(T, N)`` from rewards ``(T, N)``, values
    ``(T + 1, N)`` (the last row bootstraps) and ends of games ``(T, N)``."""
    steps = rew.shape[0]
    adv = torch.zeros_like(rew)
    last = torch.zeros_like(rew[0])
    for t in reversed(range(steps)):
        live = 1.0 - done[t]
        delta = rew[t] + gamma * val[t + 1] * live - val[t]
        last = delta + gamma * lam * live * last
        adv[t] = last
    return adv


def train(policy: Policy, cfg: Config) -> dict[str, float]:
    """PPO until the time or update budget is spent; returns a few statistics."""
    opt = torch.optim.Adam(policy.parameters(), lr=cfg.lr, eps=1e-5)
    points = points_offset(cfg.game, cfg.players)
    size = encoding.observation_size(cfg.game, cfg.players)
    actions = encoding.num_actions(cfg.game)
    N, T = cfg.envs, cfg.steps
    b_obs = torch.zeros(T, N, size)
    b_mask = torch.zeros(T, N, actions, dtype=torch.bool)
    b_act = torch.zeros(T, N, dtype=torch.long)
    b_logp = torch.zeros(T, N)
    b_val = torch.zeros(T + 1, N)
    b_rew = torch.zeros(T, N)
    b_done = torch.zeros(T, N)
    b_valid = torch.zeros(T, N, dtype=torch.bool)

    t_start = time.monotonic()
    budget = cfg.minutes * 60

    def progress(update: int) -> float:
        done = (time.monotonic() - t_start) / budget if budget > 0 else 1.0
        if cfg.updates is not None:
            done = max(done, update / cfg.updates) if budget > 0 else update / cfg.updates
        return min(done, 1.0)

    stage = 0
    n_greedy = 0
    env = OpponentMix(cfg, N, 0, cfg.seed)
    obs, mask = env.reset()
    pending = np.zeros(N, dtype=np.bool_)
    pts = obs[:, points].copy()
    recent = {bot: deque(maxlen=200) for bot in BOTS}
    update = env_steps = games = 0
    rollout_time = 0.0
    entropy = torch.tensor(float("nan"))
    while (cfg.updates is None or update < cfg.updates) and (
        update == 0 or time.monotonic() - t_start < budget
    ):
        frac = progress(update)
        if stage == 0 and frac >= cfg.curriculum and cfg.greedy_share > 0:
            # second stage: part of the games against the greedy bot (fresh games for all)
            stage, n_greedy = 1, min(N, max(1, round(cfg.greedy_share * N)))
            env = OpponentMix(cfg, N - n_greedy, n_greedy, cfg.seed + 1)
            obs, mask = env.reset()
            pending[:] = False
            pts = obs[:, points].copy()
            print(f"update {update:4d}  curriculum: {n_greedy} of {N} games now against greedy",
                  flush=True)  # fmt: skip
        for group in opt.param_groups:
            group["lr"] = cfg.lr * (1.0 - 0.9 * frac)

        t0 = time.monotonic()
        with torch.no_grad():
            for t in range(T):
                x = torch.from_numpy(obs)
                m = torch.from_numpy(mask)
                logits, v = policy(x, m)
                a = act(logits, sample=True)
                b_obs[t], b_mask[t], b_act[t], b_val[t] = x, m, a, v
                b_logp[t] = torch.log_softmax(logits, -1).gather(1, a[:, None]).squeeze(1)
                obs, mask, r, term, trunc = env.step(a.numpy())
                done = term | trunc
                new_pts = obs[:, points]
                valid = ~pending
                b_rew[t] = torch.from_numpy(r + cfg.shaping * (new_pts - pts) * valid)
                if trunc.any():  # cut short, not lost: bootstrap from the last observation
                    cut = torch.from_numpy(np.flatnonzero(trunc))
                    last = policy(torch.from_numpy(obs[trunc]), torch.from_numpy(mask[trunc]))[1]
                    b_rew[t, cut] += cfg.gamma * last
                b_done[t] = torch.from_numpy(done.astype(np.float32))
                b_valid[t] = torch.from_numpy(valid)
                for i in np.flatnonzero(done):
                    recent[BOTS[env.bot[i]]].append(1.0 if r[i] >= 0.999 else 0.0)
                games += int(done.sum())
                pts = new_pts.copy()
                pending = done
            b_val[T] = policy(torch.from_numpy(obs), torch.from_numpy(mask))[1]
        rollout_time += time.monotonic() - t0
        env_steps += T * N

        adv = gae(b_rew, b_val, b_done, cfg.gamma, cfg.lam)
        ret = adv + b_val[:T]
        keep = b_valid.reshape(-1)
        f_obs, f_mask = b_obs.reshape(T * N, -1)[keep], b_mask.reshape(T * N, -1)[keep]
        f_act, f_logp = b_act.reshape(-1)[keep], b_logp.reshape(-1)[keep]
        f_adv, f_ret = adv.reshape(-1)[keep], ret.reshape(-1)[keep]
        n = f_act.shape[0]
        for _ in range(cfg.epochs):
            perm = torch.randperm(n)
            for k in range(0, n, cfg.minibatch):
                idx = perm[k : k + cfg.minibatch]
                logits, v = policy(f_obs[idx], f_mask[idx])
                logp_all = torch.log_softmax(logits, -1)
                logp = logp_all.gather(1, f_act[idx, None]).squeeze(1)
                entropy = -(logp_all.exp() * logp_all).sum(-1).mean()
                a_ = f_adv[idx]
                a_ = (a_ - a_.mean()) / (a_.std() + 1e-8)
                ratio = torch.exp(logp - f_logp[idx])
                pg = -torch.min(
                    ratio * a_, torch.clamp(ratio, 1 - cfg.clip, 1 + cfg.clip) * a_
                ).mean()
                vloss = ((v - f_ret[idx]) ** 2).mean()
                loss = pg + cfg.vf * vloss - cfg.ent * entropy
                opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
                opt.step()
        update += 1
        if update % 5 == 0 or update == 1:
            elapsed = time.monotonic() - t_start
            rates = "  ".join(f"vs {bot} {np.mean(recent[bot]):.2f}" for bot in BOTS if recent[bot])
            print(f"update {update:4d}  {elapsed:5.0f} s  steps {env_steps:9d}  "
                  f"({env_steps / elapsed:6.0f}/s)  games {games:7d}  "
                  f"training win rate (last 200) {rates or '-'}  entropy {entropy:.2f}",
                  flush=True)  # fmt: skip
    seconds = time.monotonic() - t_start
    return {
        "updates": update,
        "env_steps": env_steps,
        "games": games,
        "seconds": seconds,
        "rollout_seconds": rollout_time,
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="classic", choices=["classic", "duel"])
    ap.add_argument("--players", type=int, default=2, help="classic: 2-4 players (default 2)")
    ap.add_argument("--minutes", type=float, default=5.0, help="training time budget (default 5)")
    ap.add_argument("--updates", type=int, default=None, help="stop after this many PPO updates")
    ap.add_argument("--envs", type=int, default=256, help="games stepped side by side")
    ap.add_argument("--steps", type=int, default=64, help="steps per game per update")
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--minibatch", type=int, default=2048)
    ap.add_argument("--hidden", type=int, default=256, help="width of the two hidden layers")
    ap.add_argument("--lr", type=float, default=1e-3, help="initial learning rate")
    ap.add_argument("--gamma", type=float, default=0.99)
    ap.add_argument("--lam", type=float, default=0.95)
    ap.add_argument("--clip", type=float, default=0.2)
    ap.add_argument("--ent", type=float, default=0.01, help="entropy bonus")
    ap.add_argument("--vf", type=float, default=0.5, help="value loss weight")
    ap.add_argument(
        "--shaping",
        type=float,
        default=0.02,
        help="reward per prestige point gained (0: terminal only)",
    )
    ap.add_argument(
        "--curriculum",
        type=float,
        default=0.5,
        help="share of the budget played against random only (default 0.5)",
    )
    ap.add_argument(
        "--greedy-share",
        type=float,
        default=0.5,
        help="share of the games against greedy after the first stage (default 0.5)",
    )
    ap.add_argument(
        "--turn-cap", type=int, default=None, help="Duel only: D25 turn cap (default 200)"
    )
    ap.add_argument(
        "--max-turns",
        type=int,
        default=400,
        help="cut a game short (truncated, not won) after this many turns (default 400)",
    )
    ap.add_argument("--eval-games", type=int, default=200, help="evaluation games per bot")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=1, help="torch threads")
    ap.add_argument("--save", default=None, help="save the trained weights to this file")
    a = ap.parse_args(argv)
    if a.game == "duel":
        turn_cap = a.turn_cap if a.turn_cap is not None else 200
    else:
        if a.turn_cap is not None:
            ap.error("--turn-cap is a Splendor Duel setting")
        turn_cap = None
    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    cfg = Config(a.game, a.players, a.minutes, a.updates, a.envs, a.steps, a.epochs, a.minibatch,
                 a.hidden, a.lr, a.gamma, a.lam, a.clip, a.ent, a.vf, a.shaping, a.curriculum,
                 a.greedy_share, turn_cap, a.max_turns, a.eval_games, a.seed)  # fmt: skip
    policy = Policy(cfg.game, cfg.players, cfg.hidden)
    t0 = time.monotonic()
    before = report(policy, cfg, "before")
    stats = train(policy, cfg)
    steps_per_s = stats["env_steps"] / max(stats["seconds"], 1e-9)
    print(f"trained {stats['updates']} updates, {stats['env_steps']} steps, {stats['games']} "
          f"games in {stats['seconds']:.0f} s ({steps_per_s:.0f} steps/s; collecting the "
          f"rollouts took {stats['rollout_seconds']:.0f} s)", flush=True)  # fmt: skip
    after = report(policy, cfg, "after")
    print(f"total time {time.monotonic() - t0:.0f} s")
    if a.save:
        torch.save(policy.state_dict(), a.save)
        print(f"saved the weights to {a.save}")
    summary = {
        "game": cfg.game,
        "players": cfg.players,
        "minutes": round(stats["seconds"] / 60, 2),
        "updates": stats["updates"],
        "env_steps": stats["env_steps"],
        "games": stats["games"],
        "steps_per_s": round(steps_per_s),
        "eval_games": cfg.eval_games,
        **before,
        **after,
    }
    print("summary " + json.dumps(summary), flush=True)


if __name__ == "__main__":
    main()
