#!/usr/bin/env python3
"""A complete external bot for splendor: buys a card when it can, else plays at random.

It speaks the JSON-lines bot protocol, version 2 (docs/protocol.md), and plays both
games, classic Splendor and Splendor Duel. It needs nothing but the Python standard library,
so it is also a template for a bot in any language:

    splendor play --seats human,external:./examples/external_bot.py
    splendor play --game duel --seats human,external:./examples/external_bot.py

The host writes one JSON object per line on our stdin:

    {"type": "start", ...}     once, before the first decision: game, seat, seed, timeout
    {"type": "decision", ...}  our turn to decide: a "request" number, the observation and
                               the legal actions; we must answer exactly one line that
                               echoes the number, {"request": N, "action": ID}
    {"type": "end", ...}       the game is over (its result, or null); then stdin closes

Rules of the road: stdout is only for answers (one line per decision, flushed at once);
anything else, logs included, goes to stderr. Answer within "timeout" seconds.
"""

import json
import random
import sys


def log(*parts):
    """Write a line to stderr: the host keeps the last lines and shows them if we crash."""
    print("[example bot]", *parts, file=sys.stderr, flush=True)


def choose(message, rng):
    """Pick one legal action of a "decision" message and return its id.

    message["legal_actions"] is a list of {"id": int, "notation": str}, never empty, for
    example {"id": 30, "notation": "buy 1.2"}. message["observation"] holds the whole
    position this seat may see (its layout is that of Observation.to_dict()): a real bot
    would look at it; this one only prefers buying, which works in both games.
    """
    legal = message["legal_actions"]
    buys = [a for a in legal if a["notation"].startswith("buy")]
    return rng.choice(buys or legal)["id"]


def main():
    rng = random.Random()
    for line in sys.stdin:  # one message per line; the loop ends when the host closes stdin
        line = line.strip()
        if not line:
            continue
        message = json.loads(line)
        kind = message.get("type")
        if kind == "start":
            # The seed makes our choices repeatable: the same host seed, the same game.
            rng.seed(message.get("seed"))
            log(f"playing {message['game']} as seat {message['seat']} of {message['num_players']}")
        elif kind == "decision":
            action_id = choose(message, rng)
            # Echo the decision's "request" number, so that the host knows which decision
            # this answers. An id from legal_actions; {"action": "buy 1.2"} (a notation)
            # works too.
            answer = {"request": message["request"], "action": action_id}
            sys.stdout.write(json.dumps(answer) + "\n")
            sys.stdout.flush()  # the host waits for this line: never leave it in a buffer
        elif kind == "end":
            log("game over:", json.dumps(message.get("result")))
            break
        # Unknown message types are ignored, so that a newer host stays compatible.


if __name__ == "__main__":
    main()
