"""What moves in sentences cost (issue 33's figure), in microseconds of CPU time per move:
reading a move's facts from the position before it (:func:`splendor.move_text.move_facts`,
once per move on the server) against playing the move itself, and saying the facts in a
language (:func:`splendor.move_text.say`, once per move and reader language), over whole
random games of both games.

    .venv/bin/python benchmarks/bench_sentences.py [--games 20] [--language fr]
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from splendor import classic, duel
from splendor.move_text import MoveFacts, move_facts, say


def _new(module: Any, seed: int) -> Any:
    return module.new_game(2, seed=seed) if module is classic else module.new_game(seed=seed)


def measure(module: Any, games: int, language: str) -> dict[str, float]:
    """``{"moves", "play", "facts", "say"}``: the moves of ``games`` random games and the CPU
    microseconds per move of playing them, of reading their facts and of saying them."""
    scripts: list[list[Any]] = []
    for seed in range(games):
        st, rng, actions = _new(module, seed), random.Random(seed), []
        while not st.is_terminal:
            actions.append(rng.choice(st.legal_actions()))
            st.apply(actions[-1])
        scripts.append(actions)
    moves = sum(len(s) for s in scripts)

    def replay(with_facts: bool) -> tuple[float, list[MoveFacts]]:
        facts: list[MoveFacts] = []
        start = time.process_time()
        for seed, actions in enumerate(scripts):
            st = _new(module, seed)
            for a in actions:
                if with_facts:
                    facts.append(move_facts(st, a))
                st.apply(a)
        return time.process_time() - start, facts

    play, _ = replay(False)
    both, facts = replay(True)
    start = time.process_time()
    for f in facts:
        say(f, ["Ann", "Bob"], language)
    said = time.process_time() - start
    per = 1e6 / moves
    return {"moves": moves, "play": play * per, "facts": (both - play) * per, "say": said * per}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--language", default="fr")
    args = parser.parse_args()
    for name, module in (("splendor", classic), ("duel", duel)):
        m = measure(module, args.games, args.language)
        print(
            f"{name}: {m['moves']:.0f} moves; per move (CPU): play {m['play']:.1f} us, "
            f"facts {m['facts']:.1f} us, sentence in {args.language} {m['say']:.1f} us"
        )


if __name__ == "__main__":
    main()
