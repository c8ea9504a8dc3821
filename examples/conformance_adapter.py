#!/usr/bin/env python3
"""A reference conformance adapter: it answers the conformance suite's queries with this
package's own engine, so it shows whole what another engine's adapter has to do.

    splendor conformance --engine examples/conformance_adapter.py
    splendor conformance --engine "python3 examples/conformance_adapter.py" --game duel

The protocol (docs/conformance.md): the host writes one JSON object per line on our
stdin, a query, and we write exactly one line back on stdout, flushed at once:

    {"conformance": 1, "request": 3, "game": "splendor",
     "position": "splendor players=2 turn=0 ...",       (or "new_game": {"players": 2, "seed": 7})
     "actions": ["take W U G", "return W"],              (apply these in order first)
     "want": ["legal", "position", "result", "observation"],
     "observer": 1}                                       (with "observation" only)

    {"request": 3, "legal": ["take W U G", ...],         (the legal decisions, any order)
     "position": "splendor players=2 turn=1 ...",         (the position text reached)
     "result": {"over": false, "winners": [], "scores": [0, 0]},
     "observation": "splendor players=2 observer=1 ..."}  (what that seat may see)

When an action cannot be applied (illegal or unreadable), or the position cannot be read,
answer {"request": 3, "error": "why", "action": INDEX} (INDEX of the refused action, or
null for the position). An engine that does not model what a query asks (a rule it leaves
out, a modelling choice such as an observation in the middle of a payment) answers
{"request": 3, "unsupported": "why"}: counted apart, neither a pass nor a failure. stdout is
only for answers; logs go to stderr. When stdin closes,
exit. To wrap another engine, keep main() and rewrite answer().
"""

from __future__ import annotations

import json
import sys
from typing import Any

from splendor import get_game


def answer(query: dict[str, Any]) -> dict[str, Any]:
    """The answer to one query (a dict read from one line)."""
    out: dict[str, Any] = {"request": query.get("request")}
    try:
        game = get_game(str(query.get("game", "")))
    except ValueError:
        return {**out, "error": f"unknown game {query.get('game')!r}", "action": None}
    try:
        if "position" in query:
            state = game.state_type.from_text(query["position"])
        else:
            spec = query.get("new_game", {})
            state = game.new_game(spec.get("players", 2), spec.get("seed"))
    except ValueError as e:
        return {**out, "error": str(e), "action": None}
    for i, text in enumerate(query.get("actions", [])):
        try:
            state.apply(text)  # parses the notation; raises ValueError when illegal
        except ValueError as e:
            return {**out, "error": str(e), "action": i}
    want = query.get("want", [])
    if "position" in want:
        out["position"] = state.to_text()
    if "legal" in want:
        out["legal"] = [str(a) for a in state.legal_actions()]
    if "result" in want:
        out["result"] = {
            "over": state.is_terminal,
            "winners": state.winners,
            "scores": state.scores,
        }
    if "observation" in want:
        out["observation"] = state.observation(query.get("observer", 0)).to_text()
    return out


def main() -> None:
    """Answer each query line until stdin closes."""
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            query = json.loads(line)
        except json.JSONDecodeError as e:
            print(f"[adapter] not JSON: {e}", file=sys.stderr, flush=True)
            continue
        print(json.dumps(answer(query)), flush=True)


if __name__ == "__main__":
    main()
