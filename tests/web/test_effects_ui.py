"""Issue 16: every effect of a move shows in the game log, also when it had a single
possible choice (Duel privileges, a token or a steal the engine resolved, extra turns),
in the reader's language: the server's sentence for each effect of each log entry."""

from __future__ import annotations

import random
import time

from playwright.sync_api import expect

from .ui import rest, server_state


def _game_with_effects(server: str) -> tuple[str, dict]:
    """A Duel game of a person (playing random legal moves over HTTP) against a bot, left
    on the person's turn (the page then stays still while it is read) once at least three
    moves had effects; its state then."""
    created = rest(
        server,
        "/api/games",
        {
            "game": "duel",
            "seats": [{"type": "human", "name": "Ann"}, {"type": "bot", "bot": "random"}],
        },
    )
    gid = created["game_id"]
    token = next(s["token"] for s in created["seats"] if s["type"] == "human")
    rng = random.Random(4)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        state = server_state(server, gid, token)
        told = sum(1 for e in state["log"] if e.get("effects"))
        if state["status"] == "finished" or (state["current_player"] == 0 and told >= 3):
            return gid, state
        if state["current_player"] == 0:
            action = rng.choice(state["legal_actions"])["notation"]
            rest(
                server,
                f"/api/games/{gid}/actions",
                {"action": action, "move": state["move"]},
                token,
            )
        else:
            time.sleep(0.2)
    raise AssertionError("no three moves with effects in 120 s")


def test_the_log_shows_each_effect_in_the_readers_language(new_page, server) -> None:
    gid, final = _game_with_effects(server)
    entries = final["log"]
    assert any(x["kind"] == "privilege" for e in entries for x in e.get("effects", []))
    for language in ("fr", "en"):
        page = new_page()
        page.context.add_cookies([{"name": "lang", "value": language, "url": server}])
        page.goto(f"/games/{gid}")
        shown = page.locator("[data-testid=log-effect]")
        expect(shown.first).to_be_visible()
        want = [x["text"][language] for e in entries for x in e.get("effects", [])]
        expect(shown).to_have_count(len(want))
        # the players named as the page names them: the person by name, the bot by its
        # level in the reader's language ("aléatoire"), never the stored "random"
        bot = "random" if language == "en" else "aléatoire"
        named = [w.replace("{seat0}", "Ann").replace("{seat1}", bot) for w in want]
        assert shown.all_text_contents() == named
        assert any("Ann" in w or bot in w for w in named)
