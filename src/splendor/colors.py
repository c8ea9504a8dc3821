"""Colour order and token vectors shared by both games.

Canonical order everywhere (data files, vectors, notation), from ``../shared/rules``:
white (``W``), blue (``U``), green (``G``), red (``R``), black (``K``); then gold (``*``)
as a token colour only (C1). Splendor Duel adds pearl (``P``) before gold (D1).
"""

from __future__ import annotations

GEM_COLORS: tuple[str, ...] = ("white", "blue", "green", "red", "black")
"""The five gem colours, index 0..4 in every vector of the project."""

GEM_LETTERS: str = "WUGRK"
"""One-letter codes of the gem colours, same order as :data:`GEM_COLORS`."""

NUM_GEMS: int = 5

GOLD: int = 5
"""Index of gold in a classic token vector ``[W, U, G, R, K, *]``."""

GOLD_LETTER: str = "*"

TOKEN_LETTERS: str = GEM_LETTERS + GOLD_LETTER
"""Letters of a classic token vector of length 6 (gems then gold)."""

TOKEN_NAMES: tuple[str, ...] = GEM_COLORS + ("gold",)


def color_index(name: str) -> int:
    """Return the gem colour index 0..4 of a colour name or letter (case-insensitive).

    Raises:
        ValueError: ``name`` is not one of white/blue/green/red/black or W/U/G/R/K.
    """
    key = name.strip().lower()
    for i, (full, letter) in enumerate(zip(GEM_COLORS, GEM_LETTERS, strict=True)):
        if key in (full, letter.lower()):
            return i
    raise ValueError(
        f"unknown gem colour {name!r}: expected one of {', '.join(GEM_COLORS)} "
        f"or a letter of {GEM_LETTERS}"
    )


def token_index(letter: str) -> int:
    """Return the classic token index 0..5 of a token letter (``W U G R K *``).

    Raises:
        ValueError: ``letter`` is not a token letter.
    """
    key = letter.strip().upper()
    if len(key) == 1 and key in TOKEN_LETTERS:
        return TOKEN_LETTERS.index(key)
    if key.lower() == "gold":
        return GOLD
    try:
        return color_index(letter)
    except ValueError:
        raise ValueError(
            f"unknown token {letter!r}: expected one of {' '.join(TOKEN_LETTERS)}"
        ) from None


# --------------------------------------------------------------------------- Splendor Duel

PEARL: int = 5
"""Index of pearl in a Duel token vector ``[W, U, G, R, K, P, *]`` (D1)."""

DUEL_GOLD: int = 6
"""Index of gold in a Duel token vector (D1)."""

PEARL_LETTER: str = "P"

DUEL_TOKEN_LETTERS: str = GEM_LETTERS + PEARL_LETTER + GOLD_LETTER
"""Letters of a Duel token vector of length 7 (gems, pearl, gold)."""

DUEL_TOKEN_NAMES: tuple[str, ...] = GEM_COLORS + ("pearl", "gold")


def duel_token_index(letter: str) -> int:
    """Return the Duel token index 0..6 of a token letter or name (``W U G R K P *``).

    Raises:
        ValueError: not a Duel token letter or name.
    """
    key = letter.strip()
    if len(key) == 1 and key.upper() in DUEL_TOKEN_LETTERS:
        return DUEL_TOKEN_LETTERS.index(key.upper())
    if key.lower() in DUEL_TOKEN_NAMES:
        return DUEL_TOKEN_NAMES.index(key.lower())
    raise ValueError(f"unknown token {letter!r}: expected one of {' '.join(DUEL_TOKEN_LETTERS)}")
