"""Ratings of rated games: the arithmetic only, per game kind, as pure functions.

Three kinds are rated separately (:func:`game_kind`):

- ``"splendor-2"``: classic Splendor with 2 players, and ``"duel"``: Splendor Duel (always 2
  players). Glicko-2 (Glickman, *Example of the Glicko-2 system*, glicko.net/glicko/glicko2.pdf),
  computed by the ``glicko2`` package: each finished game is one rating period in which each
  player met the other once, scored 1 (won), 0.5 (shared victory, C15) or 0 (lost), against the
  other's rating from before the game (both players are updated simultaneously). The system
  constant is the package's, tau = 0.5. Known quirk of glicko2 2.1.0: in step 5 its ``_f``
  uses the player's squared rating mu^2 where the paper has the squared deviation phi^2. Over
  one game (ratings 800-2400, deviations 40-350, volatilities 0.03-0.2) this moves the new
  volatility by at most 2e-4 (0.059993 instead of 0.059996 in the paper's example) and the new
  rating and deviation by at most 0.03 point. It is left as the package computes it.
- ``"splendor-multi"``: classic Splendor with 3 or 4 players. OpenSkill's Plackett-Luce model
  (Weng & Lin, *A Bayesian Approximation Method for Online Ranking*, JMLR 12, 2011, algorithm
  4), computed by the ``openskill`` package with its default parameters (mu0 = 25,
  sigma0 = 25/3, beta = 25/6, tau = 25/300): each seat is a one-player team; the winners share
  rank 1 and every other seat shares rank 2, unless the caller gives explicit ranks.

A player's rating of one kind is a :class:`Rating`. Both systems are kept on the same display
scale, so that one number reads the same way everywhere:

- Glicko-2: ``value`` is the Glicko rating r (1500 for a newcomer) and ``deviation`` its RD
  (350 for a newcomer), the package's own units; ``volatility`` is sigma (0.06 for a newcomer).
- OpenSkill: ``value = 1500 + 42 * (mu - 25)`` and ``deviation = 42 * sigma``, no volatility.
  42 rating points per unit of mu is the one scale on which a newcomer's sigma (25/3) is the
  Glicko newcomer's RD (350), and on which OpenSkill's performance spread beta (25/6 -> 175
  points) is about Glicko-2's logistic unit (173.7178 points), so a difference of rating means
  roughly the same odds in both systems. The displayed value is the *mean* mu, like Glicko's r,
  and not the conservative ``ordinal()`` (mu - 3 sigma): the ordinal rises with every game
  played as sigma shrinks (a loser's ordinal can go up in a player's first games), and would not
  compare with the 2-player kinds' means. A conservative figure, where one is wanted (a
  leaderboard), is ``value - k * deviation`` for any kind; ``k = 3`` is ``1500 - 1050 + 42 *
  ordinal()`` here.

A game without a winner (a game stopped by a turn cap, an aborted game) is not rated: the caller
must not pass it to :func:`update`, which refuses an empty list of winners.

Everything here is deterministic and free of I/O: the server stores :meth:`Rating.to_dict` in a
JSON column and reads it back through :meth:`Rating.from_dict`, which refuses corrupt data.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

import glicko2
from openskill.models import PlackettLuce, PlackettLuceRating

from ..game import game_names, get_game

__all__ = [
    "DUEL",
    "GLICKO2",
    "KINDS",
    "OPENSKILL_PL",
    "SPLENDOR_2",
    "SPLENDOR_MULTI",
    "Rating",
    "game_kind",
    "glicko2_period",
    "initial_rating",
    "update",
]

SPLENDOR_2: Final = "splendor-2"
"""Classic Splendor with 2 players (Glicko-2)."""
SPLENDOR_MULTI: Final = "splendor-multi"
"""Classic Splendor with 3 or 4 players (OpenSkill Plackett-Luce)."""
DUEL: Final = "duel"
"""Splendor Duel, 2 players (Glicko-2)."""
KINDS: Final = (SPLENDOR_2, SPLENDOR_MULTI, DUEL)
"""Every game kind, in a fixed order."""

GLICKO2: Final = "glicko2"
"""``Rating.system`` of the 2-player kinds."""
OPENSKILL_PL: Final = "openskill-pl"
"""``Rating.system`` of the multiplayer kind."""

_SYSTEM: Final[Mapping[str, str]] = {
    SPLENDOR_2: GLICKO2,
    DUEL: GLICKO2,
    SPLENDOR_MULTI: OPENSKILL_PL,
}
_SEATS: Final[Mapping[str, tuple[int, ...]]] = {
    SPLENDOR_2: (2,),
    DUEL: (2,),
    SPLENDOR_MULTI: (3, 4),
}

# Glicko-2 newcomer (Glickman's recommended values; those of glicko2.Player's defaults).
GLICKO2_RATING: Final = 1500.0
GLICKO2_DEVIATION: Final = 350.0
GLICKO2_VOLATILITY: Final = 0.06

# OpenSkill on the display scale: value = DISPLAY_CENTER + OPENSKILL_SCALE * (mu - mu0).
DISPLAY_CENTER: Final = 1500.0
OPENSKILL_SCALE: Final = 42.0
_MODEL: Final = PlackettLuce()  # mu0 = 25, sigma0 = 25/3, beta = 25/6, tau = 25/300

# Sanity bounds for stored values: far outside what a real player reaches, they only refuse
# corrupt data (and keep the libraries' exponentials finite).
MAX_ABS_VALUE: Final = 10_000.0
MAX_DEVIATION: Final = 1_000.0
MAX_VOLATILITY: Final = 1.0
_FIELDS: Final = ("system", "value", "deviation", "volatility", "games")


@dataclass(frozen=True, slots=True)
class Rating:
    """One player's rating of one game kind, as stored (see the module's docstring for units).

    Attributes:
        system: ``"glicko2"`` (kinds ``"splendor-2"`` and ``"duel"``) or ``"openskill-pl"``
            (kind ``"splendor-multi"``).
        value: the displayed rating, in rating points (1500 for a newcomer): Glicko-2's r, or
            ``1500 + 42 * (mu - 25)`` for OpenSkill. Finite, within +-10000.
        deviation: the uncertainty of ``value`` in rating points, > 0 and <= 1000 (350 for a
            newcomer): Glicko-2's RD, or ``42 * sigma`` for OpenSkill.
        volatility: Glicko-2's sigma, in (0, 1] (0.06 for a newcomer); None for OpenSkill.
        games: rated games played, >= 0.

    Raises:
        ValueError: on construction, when a value is out of range or the volatility does not
            suit the system.
    """

    system: str
    value: float
    deviation: float
    volatility: float | None
    games: int

    def __post_init__(self) -> None:
        if self.system not in (GLICKO2, OPENSKILL_PL):
            raise ValueError(f"rating field 'system' must be {GLICKO2!r} or {OPENSKILL_PL!r}")
        if not (math.isfinite(self.value) and abs(self.value) <= MAX_ABS_VALUE):
            raise ValueError(f"rating field 'value' must be finite and within +-{MAX_ABS_VALUE:g}")
        if not (math.isfinite(self.deviation) and 0.0 < self.deviation <= MAX_DEVIATION):
            raise ValueError(f"rating field 'deviation' must be > 0 and <= {MAX_DEVIATION:g}")
        if self.system == GLICKO2:
            vol = self.volatility
            if vol is None or not (math.isfinite(vol) and 0.0 < vol <= MAX_VOLATILITY):
                raise ValueError(
                    f"rating field 'volatility' must be > 0 and <= {MAX_VOLATILITY:g} "
                    f"for {GLICKO2!r}"
                )
        elif self.volatility is not None:
            raise ValueError(f"rating field 'volatility' must be null for {OPENSKILL_PL!r}")
        if self.games < 0:
            raise ValueError("rating field 'games' must be >= 0")

    def to_dict(self) -> dict[str, object]:
        """The rating as JSON-ready data: ``{"system": str, "value": float, "deviation":
        float, "volatility": float | None, "games": int}``."""
        return {
            "system": self.system,
            "value": self.value,
            "deviation": self.deviation,
            "volatility": self.volatility,
            "games": self.games,
        }

    @classmethod
    def from_dict(cls, data: object) -> Rating:
        """The rating that :meth:`to_dict` wrote, read back from (possibly corrupt) JSON data.

        Numbers may be JSON integers (``1500``); booleans are not numbers here.

        Raises:
            ValueError: ``data`` is not a mapping with exactly the keys of :meth:`to_dict`, or
                a field has the wrong type or is out of range; the message names the field.
        """
        if not isinstance(data, Mapping):
            raise ValueError(f"a rating must be a JSON object, not {type(data).__name__}")
        missing = [name for name in _FIELDS if name not in data]
        if missing:
            raise ValueError(f"rating field {missing[0]!r} is missing")
        extra = sorted(str(key) for key in data if key not in _FIELDS)
        if extra:
            raise ValueError(f"unknown rating field {extra[0]!r}")
        system = data["system"]
        if not isinstance(system, str):
            raise ValueError("rating field 'system' must be a string")
        games = data["games"]
        if isinstance(games, bool) or not isinstance(games, int):
            raise ValueError("rating field 'games' must be an integer")
        value = _number(data["value"], "value")
        deviation = _number(data["deviation"], "deviation")
        raw_volatility = data["volatility"]
        volatility = None if raw_volatility is None else _number(raw_volatility, "volatility")
        return cls(system, value, deviation, volatility, games)

    @classmethod
    def _openskill(cls, player: PlackettLuceRating, games: int) -> Rating:
        value = DISPLAY_CENTER + OPENSKILL_SCALE * (player.mu - _MODEL.mu)
        return cls(OPENSKILL_PL, value, OPENSKILL_SCALE * player.sigma, None, games)

    def _to_openskill(self) -> PlackettLuceRating:
        mu = _MODEL.mu + (self.value - DISPLAY_CENTER) / OPENSKILL_SCALE
        return _MODEL.rating(mu=mu, sigma=self.deviation / OPENSKILL_SCALE)


def _number(raw: object, name: str) -> float:
    if isinstance(raw, bool) or not isinstance(raw, (int, float)):
        raise ValueError(f"rating field {name!r} must be a number")
    return float(raw)


def game_kind(game: str, num_players: int) -> str:
    """The rated kind of a game: ``"splendor-2"``, ``"splendor-multi"`` or ``"duel"``.

    A game played by one number of players is one kind, named as the game (``"duel"``);
    a game with a player range is rated apart with 2 players (``"<name>-2"``) and with
    more (``"<name>-multi"``): the kinds come from the game's descriptor
    (:func:`splendor.game.get_game`), never from its name.

    Args:
        game: the game's name as stored, ``"splendor"`` or ``"duel"`` (the descriptors'
            :attr:`~splendor.descriptor.Game.name`; any other name of the game, such as
            ``"classic"`` or ``"splendor-duel"``, is accepted).
        num_players: the number of seats: 2 to 4 for Splendor, 2 for Duel.

    Raises:
        ValueError: an unknown game, or a number of players that game is not played with.
    """
    try:
        descriptor = get_game(game)
    except ValueError:
        rated = " and ".join(map(repr, game_names()))
        raise ValueError(f"unknown game {game!r}; rated games are {rated}") from None
    if num_players not in descriptor.player_counts:
        low, high = descriptor.min_players, descriptor.max_players
        players = str(low) if low == high else f"{low} to {high}"
        raise ValueError(f"{descriptor.name} is played by {players} players, not {num_players}")
    if descriptor.min_players == descriptor.max_players:
        kind = descriptor.name
    else:
        kind = f"{descriptor.name}-{2 if num_players == 2 else 'multi'}"
    _check_kind(kind)
    return kind


def _check_kind(kind: str) -> str:
    if kind not in _SYSTEM:
        raise ValueError(f"unknown game kind {kind!r}; kinds are {', '.join(KINDS)}")
    return _SYSTEM[kind]


def initial_rating(kind: str) -> Rating:
    """A newcomer's rating of ``kind``: 1500, deviation 350, no game; Glicko-2 volatility
    0.06 for the 2-player kinds, OpenSkill's mu = 25, sigma = 25/3 for ``"splendor-multi"``.

    Raises:
        ValueError: an unknown kind.
    """
    if _check_kind(kind) == GLICKO2:
        return Rating(GLICKO2, GLICKO2_RATING, GLICKO2_DEVIATION, GLICKO2_VOLATILITY, 0)
    return Rating._openskill(_MODEL.rating(), 0)


def glicko2_period(player: Rating, opponents: Sequence[Rating], scores: Sequence[float]) -> Rating:
    """One Glicko-2 rating period (Glickman's steps 2-8) for ``player``, by ``glicko2.Player``.

    Args:
        player: a ``"glicko2"`` rating before the period.
        opponents: the ratings of the opponents met in the period, one per game, as they were
            before it (only their ``value`` and ``deviation`` count).
        scores: ``player``'s score in each game, in [0, 1]: 1 win, 0.5 draw, 0 loss.

    Returns:
        ``player``'s rating after the period, ``games`` increased by ``len(scores)``.

    Raises:
        ValueError: a rating of another system, no game, lengths that differ, or a score
            outside [0, 1].
    """
    for rating in (player, *opponents):
        if rating.system != GLICKO2:
            raise ValueError(f"a Glicko-2 period needs {GLICKO2!r} ratings, not {rating.system!r}")
    if not scores or len(scores) != len(opponents):
        raise ValueError("a Glicko-2 period needs one score per opponent, and at least one")
    if not all(0.0 <= s <= 1.0 for s in scores):
        raise ValueError("Glicko-2 scores must be within [0, 1]")
    state = glicko2.Player(rating=player.value, rd=player.deviation, vol=player.volatility)
    state.update_player(
        [o.value for o in opponents], [o.deviation for o in opponents], [float(s) for s in scores]
    )
    return Rating(
        GLICKO2, float(state.rating), float(state.rd), float(state.vol), player.games + len(scores)
    )


def update(
    kind: str,
    ratings: Sequence[Rating],
    winners: Sequence[int],
    ranks: Sequence[int] | None = None,
) -> list[Rating]:
    """The players' ratings after one finished, rated game of ``kind``.

    Args:
        kind: the game's kind (:func:`game_kind`).
        ratings: ``ratings[i]`` is the rating of kind ``kind`` of seat i's player before the
            game; 2 seats for ``"splendor-2"`` and ``"duel"``, 3 or 4 for ``"splendor-multi"``.
        winners: the seats that won (the game record's ``result["winners"]``). Several winners
            are a shared victory (C15), a draw between them: in a 2-player game each scores
            0.5; in a multiplayer game they share the first rank.
        ranks: optional finishing ranks, ``ranks[i]`` for seat i, lower is better, ties
            allowed (e.g. to rank a timed-out player last). Without it, the winners rank 1
            and every other seat ranks 2. With it, the seats of the best rank must be exactly
            ``winners``.

    Returns:
        The new ratings, seat by seat, each with ``games`` increased by one: Glicko-2, one
        game per rating period, for 2 seats; OpenSkill Plackett-Luce for 3-4 seats.

    Raises:
        ValueError: an unknown kind; a number of seats the kind is not played with; a rating
            of the other system; no winner (a game without a winner, such as one stopped by a
            turn cap, is not rated and must not be passed here); a winner out of range or
            listed twice; ranks of the wrong length, not integers, or whose best rank is not
            exactly the winners.
    """
    system = _check_kind(kind)
    n = len(ratings)
    if n not in _SEATS[kind]:
        seats = " or ".join(str(s) for s in _SEATS[kind])
        raise ValueError(f"a {kind} game has {seats} seats, not {n}")
    for seat, rating in enumerate(ratings):
        if rating.system != system:
            raise ValueError(f"seat {seat}'s rating is {rating.system!r}, {kind} needs {system!r}")
    if not winners:
        raise ValueError("a game without a winner is not rated")
    for seat in winners:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"winner {seat!r} is not a seat of this {n}-player game")
    if len(set(winners)) != len(winners):
        raise ValueError(f"winners {list(winners)} list a seat twice")
    if ranks is None:
        ranks = [1 if seat in winners else 2 for seat in range(n)]
    else:
        if len(ranks) != n:
            raise ValueError(f"ranks has {len(ranks)} entries for {n} seats")
        if any(isinstance(r, bool) or not isinstance(r, int) for r in ranks):
            raise ValueError("ranks must be integers")
        best = min(ranks)
        if {seat for seat in range(n) if ranks[seat] == best} != set(winners):
            raise ValueError(f"the best-ranked seats of {list(ranks)} are not winners {winners}")

    if system == GLICKO2:
        first, second = ratings
        score = 0.5 if len(winners) == 2 else (1.0 if winners[0] == 0 else 0.0)
        return [
            glicko2_period(first, [second], [score]),
            glicko2_period(second, [first], [1.0 - score]),
        ]
    teams = [[rating._to_openskill()] for rating in ratings]
    rated = _MODEL.rate(teams, ranks=[float(r) for r in ranks])
    return [
        Rating._openskill(team[0], rating.games + 1)
        for team, rating in zip(rated, ratings, strict=True)
    ]
