"""Fitting the policy + value network to self-play examples, with torch on the CPU
(issue 17). torch is needed for training only (the ``train`` extra); playing needs the
numpy weights and the compiled forward pass of :mod:`splendor.bots.network`.

The loss of a batch: the cross-entropy of the search's visit shares ``pi`` against the
policy over the legal decisions, plus the cross-entropy of the outcome ``z`` against the
value softmax, plus ``weight_decay`` times the squared weights (Adam's L2 term).
"""

from __future__ import annotations

import io
from dataclasses import replace
from typing import Any

import numpy as np

from ..bots.network import PolicyValueNet
from .selfplay import Examples


def _modules() -> Any:
    import torch
    from torch import nn

    return torch, nn


def _torch_net(net: PolicyValueNet) -> Any:
    """A torch module with ``net``'s weights (``nn.Linear`` stores ``(out, in)``)."""
    torch, nn = _modules()
    n_in, h1 = net.w1.shape
    h2 = net.w2.shape[1]
    module = nn.ModuleDict(
        {
            "l1": nn.Linear(n_in, h1),
            "l2": nn.Linear(h1, h2),
            "policy": nn.Linear(h2, net.wp.shape[1]),
            "value": nn.Linear(h2, net.num_players),
        }
    )
    with torch.no_grad():
        for name, w, b in (
            ("l1", net.w1, net.b1),
            ("l2", net.w2, net.b2),
            ("policy", net.wp, net.bp),
            ("value", net.wv, net.bv),
        ):
            module[name].weight.copy_(torch.from_numpy(np.ascontiguousarray(w.T)))
            module[name].bias.copy_(torch.from_numpy(b))
    return module


def _numpy_net(module: Any, like: PolicyValueNet, info: dict[str, Any]) -> PolicyValueNet:
    def w(name: str) -> np.ndarray:
        out: np.ndarray = module[name].weight.detach().numpy().T.astype(np.float32).copy()
        return out

    def b(name: str) -> np.ndarray:
        out: np.ndarray = module[name].bias.detach().numpy().astype(np.float32).copy()
        return out

    return replace(
        like,
        w1=w("l1"),
        b1=b("l1"),
        w2=w("l2"),
        b2=b("l2"),
        wp=w("policy"),
        bp=b("policy"),
        wv=w("value"),
        bv=b("value"),
        info=info,
    )


def _losses(module: Any, x: Any, mask: Any, pi: Any, z: Any) -> tuple[Any, Any]:
    """The batch's policy and value cross-entropies (module docstring), as torch scalars."""
    torch, _nn = _modules()
    h = torch.relu(module["l2"](torch.relu(module["l1"](x))))
    logits = module["policy"](h).masked_fill(~mask, -1e9)
    policy_loss = -(pi * torch.log_softmax(logits, dim=1)).sum(dim=1).mean()
    value_loss = -(z * torch.log_softmax(module["value"](h), dim=1)).sum(dim=1).mean()
    return policy_loss, value_loss


def evaluate(net: PolicyValueNet, data: Examples) -> dict[str, float]:
    """The mean ``policy``, ``value`` and ``total`` losses of ``net`` on ``data`` (the
    losses the fit minimises, without the weight decay): on held-out games they tell
    learning from memorising.

    Raises:
        ValueError: no data.
        ImportError: torch is not installed.
    """
    if len(data) == 0:
        raise ValueError("no examples to evaluate")
    torch, _nn = _modules()
    module = _torch_net(net)
    with torch.no_grad():
        x = torch.from_numpy(net.inputs(data.x)) / torch.from_numpy(net.scale)
        p, v = _losses(
            module,
            x,
            torch.from_numpy(data.mask),
            torch.from_numpy(data.pi),
            torch.from_numpy(data.z),
        )
    return {"policy": float(p), "value": float(v), "total": float(p + v)}


def predict_value(net: PolicyValueNet, x: np.ndarray) -> np.ndarray:
    """The value of ``net`` for observation tensors ``x`` (``(N, observation_size)``):
    ``float64 (N, num_players)``, seat-relative rows that sum to 1.

    Raises:
        ImportError: torch is not installed.
    """
    torch, _nn = _modules()
    module = _torch_net(net)
    with torch.no_grad():
        h = torch.from_numpy(net.inputs(x)) / torch.from_numpy(net.scale)
        h = torch.relu(module["l2"](torch.relu(module["l1"](h))))
        out: np.ndarray = torch.softmax(module["value"](h), dim=1).numpy().astype(np.float64)
    return out


def fit(
    net: PolicyValueNet,
    data: Examples,
    *,
    steps: int,
    batch: int = 256,
    lr: float = 1e-3,
    weight_decay: float = 1e-4,
    seed: int = 0,
    optimizer_state: bytes | None = None,
) -> tuple[PolicyValueNet, bytes, dict[str, float]]:
    """Train ``net`` on ``data`` for ``steps`` Adam steps of ``batch`` random rows.

    Deterministic for a given ``seed`` (one torch thread). ``optimizer_state`` resumes
    Adam's moments (as returned by an earlier call).

    Returns:
        ``(network, optimizer_state, losses)``: the new weights (``net``'s ``info`` kept),
        Adam's state to pass on, and the mean ``policy``, ``value`` and ``total`` loss of
        the steps.

    Raises:
        ValueError: no data, or ``steps``/``batch`` below 1.
        ImportError: torch is not installed (``pip install -e '.[train]'``).
    """
    if len(data) == 0:
        raise ValueError("no examples to fit")
    if steps < 1 or batch < 1:
        raise ValueError(f"steps and batch must be >= 1, got {steps} and {batch}")
    torch, _nn = _modules()
    torch.set_num_threads(1)
    torch.manual_seed(seed)
    module = _torch_net(net)
    opt = torch.optim.Adam(module.parameters(), lr=lr, weight_decay=weight_decay)
    if optimizer_state:
        opt.load_state_dict(torch.load(io.BytesIO(optimizer_state), weights_only=True))
    scale = torch.from_numpy(net.scale)
    x_all = torch.from_numpy(net.inputs(data.x)) / scale
    mask_all = torch.from_numpy(data.mask)
    pi_all = torch.from_numpy(data.pi)
    z_all = torch.from_numpy(data.z)
    gen = np.random.default_rng(seed)
    sums = {"policy": 0.0, "value": 0.0, "total": 0.0}
    for _ in range(steps):
        rows = torch.from_numpy(gen.integers(0, len(data), size=min(batch, len(data))))
        x, mask, pi, z = x_all[rows], mask_all[rows], pi_all[rows], z_all[rows]
        policy_loss, value_loss = _losses(module, x, mask, pi, z)
        loss = policy_loss + value_loss
        opt.zero_grad()
        loss.backward()
        opt.step()
        sums["policy"] += float(policy_loss.detach())
        sums["value"] += float(value_loss.detach())
        sums["total"] += float(loss.detach())
    buffer = io.BytesIO()
    torch.save(opt.state_dict(), buffer)
    losses = {k: v / steps for k, v in sums.items()}
    return _numpy_net(module, net, net.info), buffer.getvalue(), losses


__all__ = ["evaluate", "fit", "predict_value"]
