#!/usr/bin/env python3
"""Masked PPO for Splendor Duel against the random bot, on CPU with torch.

A small, self-contained example of learning with the Gymnasium environment
``splendor/SplendorDuel-v0``: one learning seat (drawn at random each game) against
:class:`splendor.bots.RandomBot`. It evaluates the untrained policy, trains for a time or
update budget, evaluates again and prints both win rates::

    python examples/train_duel_ppo.py --minutes 5
    python examples/train_duel_ppo.py --updates 20 --eval-games 50

Method
------
- Policy and value: one MLP (observation -> 256 -> 256 -> 296 logits and a value) over the
  shared observation tensor (:mod:`splendor.rl.encoding`), each value divided by its upper
  bound from ``encoding.observation_high`` (turn counters by 100).
- Masking: illegal decisions get a logit of -1e9 before the softmax, both when acting and
  when the PPO loss recomputes log-probabilities, so the policy never picks one and its
  entropy counts legal decisions only.
- PPO with clipped ratios, generalized advantage estimation, several epochs of minibatches
  per rollout, gradient clipping; ``--envs`` environments stepped side by side.
- Reward: the environment's terminal reward (+1 win, -1 loss, 0 for a game stopped by the
  turn cap, D25) plus a documented shaping term: ``--shaping`` (default 0.02) times the
  change of the learner's prestige points at each of its decisions (read from the
  ``players.points`` field of its own observation tensor). A game is capped at
  ``--turn-cap`` turns (default 200; random games last about 110).
- Evaluation: ``--eval-games`` games against the random bot, alternating seats, twice: the
  policy sampling its decisions (before training this is nearly uniform over the legal
  decisions, so about as good as the random bot), and the policy taking its most probable
  legal decision ("greedy"). The same game seeds are used before and after training. A draw
  by the turn cap counts as not won.

Everything runs on the CPU; ``--threads`` sets torch's thread count (default 1).
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

import gymnasium
import numpy as np
import torch
from torch import nn

import splendor.rl  # noqa: F401  (registers the Gymnasium ids)
from splendor.rl import encoding

GAME = "duel"
OBS_SIZE = encoding.observation_size(GAME)
NUM_ACTIONS = encoding.num_actions(GAME)
_HIGH = encoding.observation_high(GAME)
SCALE = torch.tensor(
    1.0 / np.where(np.isfinite(_HIGH), np.maximum(_HIGH, 1.0), 100.0), dtype=torch.float32
)
POINTS = next(
    f for f in encoding.layout(GAME) if f.name == "players.points"
).offset  # own row first


class Policy(nn.Module):
    """Masked actor-critic: ``forward(obs, mask) -> (logits, value)``; ``obs`` float32
    ``(B, OBS_SIZE)``, ``mask`` bool ``(B, NUM_ACTIONS)``; illegal logits are -1e9."""

    def __init__(self, hidden: int = 256) -> None:
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(OBS_SIZE, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh()
        )
        self.pi = nn.Linear(hidden, NUM_ACTIONS)
        self.v = nn.Linear(hidden, 1)
        nn.init.orthogonal_(self.pi.weight, gain=0.01)
        nn.init.zeros_(self.pi.bias)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.body(obs * SCALE)
        logits = self.pi(h).masked_fill(~mask, -1e9)
        return logits, self.v(h).squeeze(-1)


@dataclass
class Config:
    minutes: float
    updates: int | None
    envs: int
    steps: int
    epochs: int
    minibatch: int
    lr: float
    gamma: float
    lam: float
    clip: float
    ent: float
    vf: float
    shaping: float
    turn_cap: int
    eval_games: int
    seed: int


def make_env(cfg: Config, seed: int) -> tuple[gymnasium.Env, dict[str, np.ndarray]]:
    """A training environment, reset with ``seed``, and its first observation."""
    env = gymnasium.make(
        "splendor/SplendorDuel-v0", opponent="random", seat="random", turn_cap=cfg.turn_cap
    )
    obs, _ = env.reset(seed=seed)
    return env, obs


def evaluate(
    policy: Policy, cfg: Config, games: int, seed: int, sample: bool
) -> tuple[float, int, int, int]:
    """(win rate, wins, losses, draws) over ``games`` games against the random bot, seats
    alternating; the policy samples its decision (``sample``) or takes the most probable."""
    env = gymnasium.make("splendor/SplendorDuel-v0", opponent="random", turn_cap=cfg.turn_cap)
    wins = losses = draws = 0
    gen = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for g in range(games):
            obs, _ = env.reset(seed=seed + g, options={"seat": g % 2})
            while True:
                x = torch.as_tensor(obs["observation"])[None]
                m = torch.as_tensor(obs["action_mask"].astype(bool))[None]
                logits, _ = policy(x, m)
                if sample:
                    a = int(torch.multinomial(torch.softmax(logits, -1), 1, generator=gen))
                else:
                    a = int(torch.argmax(logits, -1))
                obs, r, term, trunc, _ = env.step(a)
                if term or trunc:
                    break
            if r > 0:
                wins += 1
            elif r < 0:
                losses += 1
            else:
                draws += 1
    env.close()
    return wins / games, wins, losses, draws


def train(policy: Policy, cfg: Config) -> dict[str, float]:
    """PPO until the time or update budget is spent; returns a few statistics."""
    opt = torch.optim.Adam(policy.parameters(), lr=cfg.lr, eps=1e-5)
    made = [make_env(cfg, cfg.seed * 1000 + i) for i in range(cfg.envs)]
    envs = [e for e, _ in made]
    obs = [o for _, o in made]
    points = [float(o["observation"][POINTS]) for o in obs]
    t_end = time.monotonic() + cfg.minutes * 60
    E, T = cfg.envs, cfg.steps
    update = 0
    finished: list[float] = []
    total_steps = 0
    while (cfg.updates is None or update < cfg.updates) and (
        update == 0 or time.monotonic() < t_end
    ):
        b_obs = torch.zeros(T, E, OBS_SIZE)
        b_mask = torch.zeros(T, E, NUM_ACTIONS, dtype=torch.bool)
        b_act = torch.zeros(T, E, dtype=torch.long)
        b_logp = torch.zeros(T, E)
        b_val = torch.zeros(T + 1, E)
        b_rew = torch.zeros(T, E)
        b_done = torch.zeros(T, E)
        for t in range(T):
            x = torch.as_tensor(np.stack([o["observation"] for o in obs]))
            m = torch.as_tensor(np.stack([o["action_mask"] for o in obs]).astype(bool))
            with torch.no_grad():
                logits, v = policy(x, m)
                dist = torch.distributions.Categorical(logits=logits)
                a = dist.sample()
            b_obs[t], b_mask[t], b_act[t], b_logp[t], b_val[t] = x, m, a, dist.log_prob(a), v
            for i, env in enumerate(envs):
                o, r, term, trunc, _ = env.step(int(a[i]))
                p = float(o["observation"][POINTS])
                r += cfg.shaping * (p - points[i])
                if term or trunc:
                    finished.append(1.0 if r > 0.5 else 0.0)
                    b_done[t, i] = 1.0
                    o, _ = env.reset()
                    p = float(o["observation"][POINTS])
                obs[i], points[i] = o, p
                b_rew[t, i] = r
        total_steps += T * E
        with torch.no_grad():
            x = torch.as_tensor(np.stack([o["observation"] for o in obs]))
            m = torch.as_tensor(np.stack([o["action_mask"] for o in obs]).astype(bool))
            b_val[T] = policy(x, m)[1]
        adv = torch.zeros(T, E)
        last = torch.zeros(E)
        for t in reversed(range(T)):
            nonterminal = 1.0 - b_done[t]
            delta = b_rew[t] + cfg.gamma * b_val[t + 1] * nonterminal - b_val[t]
            last = delta + cfg.gamma * cfg.lam * nonterminal * last
            adv[t] = last
        ret = adv + b_val[:T]
        f_obs, f_mask = b_obs.reshape(T * E, -1), b_mask.reshape(T * E, -1)
        f_act, f_logp, f_adv, f_ret = (
            b_act.reshape(-1),
            b_logp.reshape(-1),
            adv.reshape(-1),
            ret.reshape(-1),
        )
        n = T * E
        for _ in range(cfg.epochs):
            perm = torch.randperm(n)
            for k in range(0, n, cfg.minibatch):
                idx = perm[k : k + cfg.minibatch]
                logits, v = policy(f_obs[idx], f_mask[idx])
                dist = torch.distributions.Categorical(logits=logits)
                logp = dist.log_prob(f_act[idx])
                a_ = f_adv[idx]
                a_ = (a_ - a_.mean()) / (a_.std() + 1e-8)
                ratio = torch.exp(logp - f_logp[idx])
                pg = -torch.min(
                    ratio * a_, torch.clamp(ratio, 1 - cfg.clip, 1 + cfg.clip) * a_
                ).mean()
                vloss = ((v - f_ret[idx]) ** 2).mean()
                loss = pg + cfg.vf * vloss - cfg.ent * dist.entropy().mean()
                opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
                opt.step()
        update += 1
        recent = finished[-100:]
        if update % 5 == 0 or update == 1:
            rate = f"{np.mean(recent):.2f}" if recent else "-"
            print(f"update {update:4d}  steps {total_steps:7d}  games {len(finished):5d}  "
                  f"training win rate (last 100) {rate}", flush=True)  # fmt: skip
    for e in envs:
        e.close()
    return {"updates": update, "steps": total_steps, "games": len(finished)}


def report(policy: Policy, cfg: Config, when: str) -> None:
    """Print the win rates of the sampled and the greedy policy against random."""
    for mode, sample in (("sampled", True), ("greedy", False)):
        rate, won, lost, drawn = evaluate(policy, cfg, cfg.eval_games, seed=10**6, sample=sample)
        print(f"win rate vs random {when} training ({mode} policy): {rate:.3f} "
              f"({won} won, {lost} lost, {drawn} drawn of {cfg.eval_games})",
              flush=True)  # fmt: skip


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=5.0, help="training time budget (default 5)")
    ap.add_argument("--updates", type=int, default=None, help="stop after this many PPO updates")
    ap.add_argument("--envs", type=int, default=16, help="environments stepped side by side")
    ap.add_argument("--steps", type=int, default=128, help="steps per environment per update")
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--minibatch", type=int, default=512)
    ap.add_argument("--lr", type=float, default=3e-4)
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
        "--turn-cap", type=int, default=200, help="D25 turn cap of training and evaluation games"
    )
    ap.add_argument("--eval-games", type=int, default=100, help="evaluation games per policy mode")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=1, help="torch threads")
    ap.add_argument("--save", default=None, help="save the trained weights to this file")
    a = ap.parse_args(argv)
    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    cfg = Config(a.minutes, a.updates, a.envs, a.steps, a.epochs, a.minibatch, a.lr, a.gamma, a.lam,
                 a.clip, a.ent, a.vf, a.shaping, a.turn_cap, a.eval_games, a.seed)  # fmt: skip
    policy = Policy()
    t0 = time.monotonic()
    report(policy, cfg, "before")
    t1 = time.monotonic()
    stats = train(policy, cfg)
    t2 = time.monotonic()
    print(f"trained {stats['updates']} updates, {stats['steps']} steps, {stats['games']} games "
          f"in {t2 - t1:.0f} s ({stats['steps'] / max(t2 - t1, 1e-9):.0f} steps/s)")  # fmt: skip
    report(policy, cfg, "after")
    print(f"total time {time.monotonic() - t0:.0f} s")
    if a.save:
        torch.save(policy.state_dict(), a.save)
        print(f"saved the weights to {a.save}")


if __name__ == "__main__":
    main()
