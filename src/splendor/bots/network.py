"""A policy + value network for the bots' search, evaluated in numba (issue 17).

The network reads the observation tensor of the seat to move (:mod:`splendor.encoding`:
only what that seat may see, C16 / D22) and gives

* a **policy**: a probability for each legal decision (a softmax of its logits over the legal
  mask; 0 for the illegal ones), the prior of the search;
* a **value**: for each seat, seen from the seat to move (row ``k`` is seat
  ``(seat + k) % num_players``), the expected reward of the game, 1 shared by the winners
  and 0 otherwise, as the search's rewards are: a softmax over the seats, so they sum to 1.

Shape: a multilayer perceptron, ``x / scale`` → two hidden layers with ReLU → the policy
logits (``NUM_ACTIONS``) and the value logits (``num_players``). Training is done with
torch; play needs only numpy and this compiled forward pass (:func:`forward`), so a bot
keeps thousands of evaluations per second on one core.

A network is saved as one ``.npz`` file: its arrays (``w1 b1 w2 b2 wp bp wv bv scale``)
and ``meta``, a JSON text with ``format``, ``version``, ``game``, ``num_players`` and free
``info`` (the command, seed and log that produced it). :meth:`PolicyValueNet.load` checks
every shape against the game's tensor and action count.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from ..encoding import num_actions, observation_high, observation_size, seat_tensor
from ..game import get_game
from .features import feature_size, with_features

NETWORK_FORMAT = "splendor-network"
NETWORK_VERSION = 1
WEIGHTS = ("w1", "b1", "w2", "b2", "wp", "bp", "wv", "bv", "scale")
"""The arrays of a network file, in the order :func:`forward` takes them."""


@njit(cache=True)
def forward(  # pragma: no cover - compiled
    x: np.ndarray,
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    wp: np.ndarray,
    bp: np.ndarray,
    wv: np.ndarray,
    bv: np.ndarray,
    scale: np.ndarray,
    mask: np.ndarray,
    policy: np.ndarray,
    value: np.ndarray,
) -> None:
    """Compiled: evaluate one tensor ``x`` (``float32``, ``(n_in,)``) into ``policy``
    (``float64``, ``(NUM_ACTIONS,)``: the softmax of the logits over the legal ``mask``,
    bool; 0 elsewhere, all 0 when nothing is legal) and ``value`` (``float64``,
    ``(num_players,)``: a softmax, seat-relative)."""
    n_in, n1 = w1.shape
    n2 = w2.shape[1]
    h1 = np.empty(n1)
    for j in range(n1):
        h1[j] = b1[j]
    for i in range(n_in):
        xi = x[i] / scale[i]
        if xi != 0.0:
            for j in range(n1):
                h1[j] += xi * w1[i, j]
    for j in range(n1):
        if h1[j] < 0.0:
            h1[j] = 0.0
    h2 = np.empty(n2)
    for j in range(n2):
        h2[j] = b2[j]
    for i in range(n1):
        if h1[i] != 0.0:
            for j in range(n2):
                h2[j] += h1[i] * w2[i, j]
    for j in range(n2):
        if h2[j] < 0.0:
            h2[j] = 0.0
    top = -np.inf
    for a in range(policy.shape[0]):
        if mask[a]:
            z = bp[a]
            for i in range(n2):
                z += h2[i] * wp[i, a]
            policy[a] = z
            if z > top:
                top = z
        else:
            policy[a] = 0.0
    total = 0.0
    for a in range(policy.shape[0]):
        if mask[a]:
            policy[a] = np.exp(policy[a] - top)
            total += policy[a]
    if total > 0.0:
        for a in range(policy.shape[0]):
            policy[a] /= total
    top = -np.inf
    for k in range(value.shape[0]):
        z = bv[k]
        for i in range(n2):
            z += h2[i] * wv[i, k]
        value[k] = z
        if z > top:
            top = z
    total = 0.0
    for k in range(value.shape[0]):
        value[k] = np.exp(value[k] - top)
        total += value[k]
    for k in range(value.shape[0]):
        value[k] /= total


def default_scale(game: str, num_players: int, features: bool = False) -> np.ndarray:
    """What each input is divided by: its upper bound in the tensor's layout
    (:func:`splendor.encoding.observation_high`), 100 where it has none, and 10 for each
    reach feature when ``features`` (``float32``)."""
    high = observation_high(game, num_players).astype(np.float64)
    scale = np.where(np.isfinite(high) & (high > 0), high, 100.0)
    if features:
        scale = np.concatenate([scale, np.full(feature_size(game, num_players), 10.0)])
    return scale.astype(np.float32)


@dataclass(frozen=True)
class PolicyValueNet:
    """The weights of one network (module docstring), ``float32``.

    Attributes:
        game: ``"classic"`` or ``"duel"``.
        num_players: the player count it was trained for.
        w1, b1: first hidden layer, ``(n_in, h1)`` and ``(h1,)``.
        w2, b2: second hidden layer, ``(h1, h2)`` and ``(h2,)``.
        wp, bp: policy head, ``(h2, NUM_ACTIONS)`` and ``(NUM_ACTIONS,)``.
        wv, bv: value head, ``(h2, num_players)`` and ``(num_players,)``.
        scale: the input divisors, ``(n_in,)`` (:func:`default_scale`).
        info: what produced it (command, seed, training log), JSON-able.
        features: whether the input is the observation tensor followed by its reach
            features (:mod:`splendor.bots.features`); ``n_in`` is then the tensor's size
            plus :func:`splendor.bots.features.feature_size`.
    """

    game: str
    num_players: int
    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    wp: np.ndarray
    bp: np.ndarray
    wv: np.ndarray
    bv: np.ndarray
    scale: np.ndarray
    info: dict[str, Any] = field(default_factory=dict)
    features: bool = False

    def __post_init__(self) -> None:
        _check_shapes(
            self.game, self.num_players, {k: getattr(self, k) for k in WEIGHTS}, self.features
        )

    @property
    def input_size(self) -> int:
        """``n_in``: the tensor's size, plus the reach features' when :attr:`features`."""
        return int(self.w1.shape[0])

    def inputs(self, x: np.ndarray) -> np.ndarray:
        """The network's input rows for observation tensors ``x`` (``(N, observation_size)``
        or one ``(observation_size,)``): ``x`` itself, or with the reach features appended
        when :attr:`features` (``float32``)."""
        if not self.features:
            return np.asarray(x, dtype=np.float32)
        return with_features(x, self.game, self.num_players)

    @classmethod
    def initial(
        cls,
        game: str,
        num_players: int = 2,
        hidden: tuple[int, int] = (256, 128),
        seed: int = 0,
        features: bool = False,
    ) -> PolicyValueNet:
        """A network with random weights (He initialisation, zero biases): where training
        starts; with ``features``, it reads the reach features too (:attr:`features`).

        Raises:
            ValueError: an unknown game, a player count it does not allow, or a hidden size
                below 1.
        """
        name = get_game(game).package
        n_in = observation_size(name, num_players)
        if features:
            n_in += feature_size(name, num_players)
        n_act = num_actions(name)
        h1, h2 = hidden
        if h1 < 1 or h2 < 1:
            raise ValueError(f"hidden sizes must be >= 1, got {hidden}")
        rng = np.random.default_rng(seed)

        def layer(n: int, m: int) -> np.ndarray:
            weights: np.ndarray = rng.standard_normal((n, m)) * np.sqrt(2.0 / n)
            return weights.astype(np.float32)

        return cls(
            game=name,
            num_players=num_players,
            w1=layer(n_in, h1),
            b1=np.zeros(h1, np.float32),
            w2=layer(h1, h2),
            b2=np.zeros(h2, np.float32),
            wp=layer(h2, n_act) * np.float32(0.1),
            bp=np.zeros(n_act, np.float32),
            wv=layer(h2, num_players) * np.float32(0.1),
            bv=np.zeros(num_players, np.float32),
            scale=default_scale(name, num_players, features),
            features=features,
        )

    def arrays(self) -> tuple[np.ndarray, ...]:
        """The arrays in :data:`WEIGHTS` order (as :func:`forward` takes them)."""
        return tuple(getattr(self, k) for k in WEIGHTS)

    def evaluate(self, state: Any, seat: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """``(policy, value)`` of ``state`` for ``seat`` (default: the seat to move): the
        policy over the legal decisions (``float64``, ``(NUM_ACTIONS,)``; legal decisions
        only when ``seat`` is to move) and the seat-relative value (``(num_players,)``).
        ``state`` is a full state or a determinization; only what ``seat`` may see is read.

        Raises:
            ValueError: a game or player count other than the network's, or no seat to move.
        """
        name = state.game.package
        if name != self.game or state.num_players != self.num_players:
            raise ValueError(
                f"this network plays {self.game} with {self.num_players} players, not "
                f"{name} with {state.num_players}"
            )
        if seat is None:
            seat = state.current_player
            if seat is None:
                raise ValueError("the game is over: no seat to move")
        x = self.inputs(seat_tensor(state, seat))
        mask = (
            state.legal_mask()
            if seat == state.current_player
            else np.zeros(self.bp.shape[0], dtype=np.bool_)
        )
        policy = np.zeros(self.bp.shape[0])
        value = np.zeros(self.num_players)
        forward(
            x,
            self.w1,
            self.b1,
            self.w2,
            self.b2,
            self.wp,
            self.bp,
            self.wv,
            self.bv,
            self.scale,
            mask,
            policy,
            value,
        )
        return policy, value

    def save(self, path: str | Path) -> Path:
        """Write the network to ``path`` (``.npz``; module docstring)."""
        p = Path(path)
        p.parent.mkdir(parents=True, exist_ok=True)
        meta = {
            "format": NETWORK_FORMAT,
            "version": NETWORK_VERSION,
            "game": self.game,
            "num_players": self.num_players,
            "features": self.features,
            "info": self.info,
        }
        with p.open("wb") as f:
            np.savez(f, meta=np.array(json.dumps(meta)), **{k: getattr(self, k) for k in WEIGHTS})
        return p

    @classmethod
    def load(cls, path: str | Path) -> PolicyValueNet:
        """Read a network written by :meth:`save`.

        Raises:
            ValueError: not a network file, another format or version, a missing array, or
                shapes that do not fit the game (the message names what is wrong).
            OSError: the file cannot be read.
        """
        try:
            with np.load(Path(path), allow_pickle=False) as data:
                arrays = {k: np.asarray(data[k]) for k in data.files}
        except (ValueError, EOFError, KeyError) as e:
            raise ValueError(f"{path}: not a network file ({e})") from None
        try:
            meta = json.loads(str(arrays.pop("meta")))
        except (KeyError, ValueError) as e:
            raise ValueError(f"{path}: no readable 'meta' ({e})") from None
        if not isinstance(meta, dict) or meta.get("format") != NETWORK_FORMAT:
            raise ValueError(f"{path}: not a {NETWORK_FORMAT} file")
        if meta.get("version") != NETWORK_VERSION:
            raise ValueError(
                f"{path}: network version {meta.get('version')!r}; this build reads "
                f"{NETWORK_VERSION}"
            )
        missing = [k for k in WEIGHTS if k not in arrays]
        if missing:
            raise ValueError(f"{path}: missing arrays {', '.join(missing)}")
        try:
            return cls(
                game=str(meta.get("game")),
                num_players=int(meta.get("num_players", 0)),
                info=dict(meta.get("info") or {}),
                features=bool(meta.get("features", False)),
                **{k: arrays[k].astype(np.float32) for k in WEIGHTS},
            )
        except ValueError as e:
            raise ValueError(f"{path}: {e}") from None


def _check_shapes(
    game: str, num_players: int, w: dict[str, np.ndarray], features: bool = False
) -> None:
    """Every array's shape against the game's tensor size (plus the reach features' with
    ``features``) and action count.

    Raises:
        ValueError: the first shape that does not fit, named.
    """
    name = get_game(game).package
    n_in = observation_size(name, num_players)
    if features:
        n_in += feature_size(name, num_players)
    n_act = num_actions(name)
    h1 = w["b1"].shape[0] if w["b1"].ndim == 1 else -1
    h2 = w["b2"].shape[0] if w["b2"].ndim == 1 else -1
    want = {
        "w1": (n_in, h1),
        "b1": (h1,),
        "w2": (h1, h2),
        "b2": (h2,),
        "wp": (h2, n_act),
        "bp": (n_act,),
        "wv": (h2, num_players),
        "bv": (num_players,),
        "scale": (n_in,),
    }
    for k, shape in want.items():
        if tuple(w[k].shape) != shape or min(shape) < 1:
            raise ValueError(
                f"network array {k!r} has shape {tuple(w[k].shape)}; {name} with "
                f"{num_players} players needs {shape}"
            )
        if not np.all(np.isfinite(w[k])):
            raise ValueError(f"network array {k!r} holds NaN or infinite values")
        if w[k].dtype != np.float32:
            raise ValueError(f"network array {k!r} must be float32, got {w[k].dtype}")
    if np.any(w["scale"] <= 0):
        raise ValueError("network array 'scale' must be positive")


__all__ = [
    "NETWORK_FORMAT",
    "NETWORK_VERSION",
    "WEIGHTS",
    "PolicyValueNet",
    "default_scale",
    "forward",
]
