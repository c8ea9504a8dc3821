"""Shared helpers for the terminal-play tests."""

from __future__ import annotations

import io
from collections.abc import Callable

from rich.console import Console

from splendor import classic, duel
from splendor.bots import RandomBot


def console(width: int = 100) -> Console:
    """A plain (no colour) recording console of a fixed width."""
    return Console(
        file=io.StringIO(),
        width=width,
        color_system=None,
        force_terminal=False,
        highlight=False,
        record=True,
    )


def text_of(con: Console) -> str:
    return con.export_text()


def feeder(lines: list[str], prompts: list[str] | None = None) -> Callable[[str], str]:
    """An input function that returns ``lines`` one by one, then raises EOFError."""
    queue = list(lines)

    def read(prompt: str) -> str:
        if prompts is not None:
            prompts.append(prompt)
        if not queue:
            raise EOFError
        item = queue.pop(0)
        if isinstance(item, BaseException):
            raise item
        return item

    return read


def play_until(pred: Callable[[classic.State], bool], seeds: range = range(200)) -> classic.State:
    """A position reached by random play in which ``pred`` holds (searching seeds)."""
    for seed in seeds:
        st = classic.new_game(2 + seed % 3, seed)
        bots = [RandomBot(seed * 7 + i) for i in range(st.num_players)]
        while not st.is_terminal:
            if pred(st):
                return st
            p = st.current_player
            st.apply(bots[p].choose(st.observation(p), st.legal_actions()))
    raise AssertionError("no position found")


def duel_play_until(
    pred: Callable[[duel.State], bool], seeds: range = range(300), turn_cap: int | None = None
) -> duel.State:
    """A Splendor Duel position reached by random play in which ``pred`` holds."""
    for seed in seeds:
        st = duel.new_game(seed=seed, turn_cap=turn_cap)
        bots = [RandomBot(seed * 7 + 1), RandomBot(seed * 7 + 2)]
        while not st.is_terminal:
            if pred(st):
                return st
            p = st.current_player
            st.apply(bots[p].choose(st.observation(p), st.legal_actions()))
        if pred(st):
            return st
    raise AssertionError("no position found")
