"""What a game is, declared once: the frozen :class:`Game` descriptor that each engine
builds beside itself (``splendor.classic.GAME``, ``splendor.duel.GAME``) and that every
layer above asks instead of branching on a game's name.

The models are OpenSpiel's ``GameType``/``GameInfo`` (``open_spiel/python/games/
kuhn_poker.py``: a game says its names, player range, parameters and action count once)
and pgx's ``Env`` (``pgx/core.py``: an object carrying ``init``, ``step`` and the
observation shape). A descriptor holds:

- names: the canonical :attr:`Game.name` (records, the server, the bot protocol), the
  engine's :attr:`Game.package` (``"classic"``, ``"duel"``: environment ids, file names)
  and every other accepted spelling (:attr:`Game.aliases`);
- facts: titles, the player range, :attr:`Game.options` with their defaults and ranges
  (Duel's turn cap, D25), the number of distinct actions, the state dtype;
- the engine's Python API (``new_game``, ``determinize``, the ``State``, ``Observation`` and
  ``Action`` classes, explanations and notation help for people);
- the engine's compiled kernels (:class:`Kernels`);
- the per-game parts that live in upper layers (the observation encoder, the compiled
  greedy and playout policies): named as ``"module:attribute"`` in :attr:`Game.parts` and
  imported on first use (:meth:`Game.part`), so that importing an engine imports no layer
  above it (``tests/test_layers.py``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from functools import cache
from types import ModuleType
from typing import Any

import numpy as np


@dataclass(frozen=True)
class GameOption:
    """One setting of a game, fixed when it is dealt (OpenSpiel's game parameters).

    Attributes:
        name: the keyword of ``new_game`` and of the hosts' ``options`` (``"turn_cap"``).
        default: the value when a game with a person is dealt without it (None: off).
        bot_default: the value for games between bots only (the arena, self-play, the
            terminal with no person), so that every such game ends; None: as ``default``.
        minimum, maximum: the allowed integers; ``off`` (when not None) is also allowed and
            means the setting is off (``0`` for "no turn cap").
        off: the integer that switches the setting off, or None.
        rule: the rule id that defines it (``"D25"``).
        help: one line for ``--help`` and the docs.
    """

    name: str
    default: int | None
    minimum: int
    maximum: int
    rule: str
    help: str
    bot_default: int | None = None
    off: int | None = None

    def check(self, value: Any) -> int | None:
        """``value`` as an int (None when it switches the option off).

        Raises:
            ValueError: not a whole number, or out of ``minimum..maximum`` (and not ``off``);
                the message names the option, the rule and what is allowed.
        """
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise ValueError(f"{self.name} must be a whole number ({self.rule}), got {value!r}")
        v = int(value)
        if self.off is not None and v == self.off:
            return None
        if not self.minimum <= v <= self.maximum:
            extra = f" ({self.off} for none)" if self.off is not None else ""
            raise ValueError(
                f"{self.name} must be between {self.minimum} and {self.maximum}{extra} "
                f"({self.rule}), got {v}"
            )
        return v


@dataclass(frozen=True)
class Kernels:
    """An engine's compiled rules (numba dispatchers over one state array of the game's
    ``STATE_DTYPE``, shape (1,); pgx's ``step``/``legal_action_mask``/``rewards``).

    Attributes:
        legal_mask: ``legal_mask(arr, mask) -> int`` writes the legal decisions into
            ``mask`` (bool, ``num_actions``) and returns how many there are.
        is_legal: ``is_legal(arr, action_id) -> bool``.
        apply: ``apply(arr, action_id) -> int``: 0 when played, non-zero (nothing changed)
            when illegal.
        determinize_into: ``determinize_into(obs, out, rng) -> int``: a full state
            consistent with an observation array (C16, D22); negative when inconsistent.
        random_action: ``random_action(arr, mask, rng) -> int``: a uniformly random legal
            decision (``mask`` is scratch space), -1 when there is none.
        random_playout: ``random_playout(arr, rng, max_decisions) -> int`` plays random
            legal decisions to the end (or the cap) and returns how many.
        rewards: ``rewards(arr, out)`` writes each seat's reward (float64, one per seat: 1
            shared by the winners; on an unfinished state the current leaders), as a search
            backs up a playout.
    """

    legal_mask: Callable[..., Any]
    is_legal: Callable[..., Any]
    apply: Callable[..., Any]
    determinize_into: Callable[..., Any]
    random_action: Callable[..., Any]
    random_playout: Callable[..., Any]
    rewards: Callable[..., Any]

    @classmethod
    def of(cls, rules: ModuleType) -> Kernels:
        """The kernels of an engine's ``rules`` module, which defines each under the name of
        its field (``rules.legal_mask``, ``rules.apply``, ...).

        Raises:
            AttributeError: ``rules`` lacks one of them (the message names it).
        """
        return cls(**{f.name: getattr(rules, f.name) for f in fields(cls)})


@cache
def _resolve(reference: str) -> Any:
    """The object named ``"package.module:attribute"`` (imported once)."""
    module, _, attribute = reference.partition(":")
    target: Any = importlib.import_module(module)
    return getattr(target, attribute) if attribute else target


@dataclass(frozen=True, eq=False)
class Game:
    """One game of the project, declared once beside its engine (module docstring).

    Two descriptors are equal only when they are the same object (one per engine);
    ``str(game)`` is its canonical name.

    Attributes:
        name: the canonical name (``"splendor"``, ``"duel"``), used by records, the
            server, the bot protocol and :func:`splendor.game.get_game`.
        package: the engine's package (``"classic"``, ``"duel"``), used in environment ids,
            results folders and module names.
        aliases: the other accepted names (lower case).
        title: the game's title (``"Splendor"``, ``"Splendor Duel"``).
        min_players, max_players, default_players: the player range (C1, D1).
        options: the settings fixed at the deal, by name (:class:`GameOption`).
        num_actions: how many distinct decision ids there are (``0 <= id < num_actions``).
        state_dtype: the record dtype of a state array.
        module: the engine package itself.
        state_type, observation_type, action_type, card_type: the engine's classes.
        new_game: ``new_game(num_players, seed, **options) -> State``.
        determinize: ``determinize(observation, rng) -> State`` (C16, D22).
        replay: ``replay(num_players, seed, actions, **options) -> State``.
        effects_of: what a decision did besides its notation (:mod:`splendor.effects`).
        warm_up: compiles (or loads) the kernels once.
        check_position: every problem of a position dict's array (``[]`` when sound).
        build_position: a position from keyword arguments (tests, puzzles).
        why_illegal: ``why_illegal(observation, action, language) -> str``, for people.
        notation_hint: ``notation_hint(entry, error, language) -> str``, for people.
        cards: the development cards by id.
        tiles: the nobles (classic) or royal cards (Duel) by id.
        token_letters: the token letters of the notation, gold last.
        notation_help: the notation, for ``--help`` and the docs.
        example_action: one legal-looking action in notation (``"take W U G"``).
        kernels: the compiled rules (:class:`Kernels`).
        parts: the per-game parts in upper layers, by role, as ``"module:attribute"``;
            see :meth:`part`.
        turn_option: the name of the option that caps a game's length in turns, or None.
        tiles_name: the plural noun of :attr:`tiles` in data sent to programs
            (``"nobles"``, ``"royals"``: the bot protocol's tables).
    """

    name: str
    package: str
    aliases: tuple[str, ...]
    title: str
    min_players: int
    max_players: int
    default_players: int
    options: Mapping[str, GameOption]
    num_actions: int
    state_dtype: np.dtype
    module: ModuleType
    state_type: type[Any]
    observation_type: type[Any]
    action_type: type[Any]
    card_type: type[Any]
    new_game: Callable[..., Any]
    determinize: Callable[..., Any]
    replay: Callable[..., Any]
    effects_of: Callable[..., Any]
    warm_up: Callable[[], None]
    check_position: Callable[..., Any]
    build_position: Callable[..., Any]
    why_illegal: Callable[..., str]
    notation_hint: Callable[..., str]
    cards: tuple[Any, ...]
    tiles: tuple[Any, ...]
    token_letters: str
    notation_help: str
    example_action: str
    kernels: Kernels
    parts: Mapping[str, str] = field(default_factory=dict)
    turn_option: str | None = None
    tiles_name: str = "tiles"

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"<Game {self.name!r}: {self.title}, {self.players_text()} players>"

    # ------------------------------------------------------------------ names and facts

    @property
    def names(self) -> tuple[str, ...]:
        """Every accepted name: the canonical one, the package's, then the aliases."""
        seen: dict[str, None] = dict.fromkeys((self.name, self.package, *self.aliases))
        return tuple(seen)

    def players_text(self) -> str:
        """``"2-4"`` or ``"2"``: the player range in words for messages."""
        if self.min_players == self.max_players:
            return str(self.min_players)
        return f"{self.min_players}-{self.max_players}"

    @property
    def player_counts(self) -> tuple[int, ...]:
        """Every allowed number of players, smallest first."""
        return tuple(range(self.min_players, self.max_players + 1))

    def label(self, num_players: int) -> str:
        """The game's title with its player count when the game has several:
        ``"Splendor, 3 players"``, ``"Splendor Duel"`` (headings, charts, reports)."""
        if self.min_players == self.max_players:
            return self.title
        return f"{self.title}, {num_players} players"

    def check_players(self, num_players: Any) -> int:
        """``num_players`` as an int when it suits this game.

        Raises:
            ValueError: not a whole number in ``min_players..max_players``.
        """
        if (
            isinstance(num_players, bool)
            or not isinstance(num_players, (int, np.integer))
            or not self.min_players <= num_players <= self.max_players
        ):
            raise ValueError(
                f"{self.name} is for {self.min_players} to {self.max_players} players, "
                f"got {num_players!r}"
            )
        return int(num_players)

    def check_options(
        self, options: Mapping[str, Any] | None, *, bots_only: bool = False
    ) -> dict[str, int]:
        """The options of a deal, checked, with the defaults filled in and the ones that
        are off left out (what ``new_game(**options)`` takes).

        Args:
            options: by name; None or ``{}`` for the defaults.
            bots_only: use each option's ``bot_default`` (games between bots only).

        Raises:
            ValueError: not a mapping, an option this game does not have (the message lists
                the ones it has), or a value out of range.
        """
        given = {} if options is None else options
        if not isinstance(given, Mapping):
            raise ValueError(f"options must be an object of name: value, got {given!r}")
        unknown = sorted(set(given) - set(self.options))
        if unknown:
            allowed = ", ".join(sorted(self.options)) or "none"
            raise ValueError(
                f"unknown option(s) {', '.join(map(str, unknown))} for {self.name}; "
                f"allowed: {allowed}"
            )
        out: dict[str, int] = {}
        for name, option in self.options.items():
            if name in given:
                value = option.check(given[name])
            elif bots_only and option.bot_default is not None:
                value = option.bot_default
            else:
                value = option.default
            if value is not None:
                out[name] = value
        return out

    def deal(self, num_players: int | None = None, seed: int | None = None, **options: Any) -> Any:
        """A new game: :attr:`new_game` after :meth:`check_players` and
        :meth:`check_options` (``num_players`` None: :attr:`default_players`).

        Raises:
            ValueError: a bad player count, seed or option.
        """
        n = self.default_players if num_players is None else self.check_players(num_players)
        return self.new_game(n, seed, **self.check_options(options))

    # ------------------------------------------------------------------ parts above

    def part(self, role: str) -> Any:
        """The per-game part named ``role`` in :attr:`parts` (imported on first use), such
        as ``"encoder"`` (the compiled observation encoder) or ``"greedy_scores"``.

        Raises:
            KeyError: this game declares no such part; the message lists the ones it has.
        """
        try:
            reference = self.parts[role]
        except KeyError:
            raise KeyError(
                f"{self.name} has no part {role!r}; it has: {', '.join(sorted(self.parts))}"
            ) from None
        return _resolve(reference)


__all__ = ["Game", "GameOption", "Kernels"]
