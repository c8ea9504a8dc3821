"""What each viewer of a live game receives (lichess's ``JsonView``): the state message of
a seat or a spectator (:mod:`.protocol` builds it), the seats, clock and spectators, a game
list entry, and, once a game is over, its record and its replay."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from ..i18n import DEFAULT_LANGUAGE
from ..record import GameRecord
from .errors import N_, Conflict
from .hub import Hub, Subscriber
from .live import LiveGame
from .protocol import state_message, state_message_json


class JsonView:
    """The JSON views of live games.

    Args:
        hub: the WebSocket subscribers (who is connected, who watches; where to publish).
        wall: wall-clock seconds, for the game clocks.
    """

    def __init__(self, hub: Hub, wall: Callable[[], float]) -> None:
        self.hub = hub
        self._wall = wall

    def seats_json(self, live: LiveGame) -> list[dict[str, Any]]:
        """``[{"seat", "type", "name", "bot", "guest", "connected"}]`` (bots are always
        connected; ``type`` is ``"bot"`` for a bot's seat, ``guest`` true for a guest's:
        clients label both wherever the name appears)."""
        connected = self.hub.connected_seats(live.id)
        return [
            {
                "seat": s.seat,
                "type": s.type,
                "name": s.name,
                "bot": s.bot,
                "guest": s.guest,
                "connected": s.type == "bot" or s.seat in connected,
            }
            for s in live.seats
        ]

    def clock_json(self, live: LiveGame) -> dict[str, Any] | None:
        """The game's clock for clients (:meth:`.clocks.ClockState.to_json`), or None."""
        if live.clock_state is None:
            return None
        return live.clock_state.to_json(self._wall())

    def spectators_json(self, live: LiveGame) -> dict[str, Any]:
        """``{"count": n, "names": [...], "guests": [...]}``: the connections watching
        ``live`` without a seat, the names of the logged-in ones (sorted; the others are
        only counted), and which of those names are guests' (labelled so)."""
        watching = [s for s in self.hub.subscribers(live.id) if s.seat is None]
        return {
            "count": len(watching),
            "names": sorted({s.player_name for s in watching if s.player_name}),
            "guests": sorted({s.player_name for s in watching if s.player_name and s.player_guest}),
        }

    def message(
        self, live: LiveGame, seat: int | None, language: str = DEFAULT_LANGUAGE
    ) -> dict[str, Any]:
        """The state message for ``seat`` (None: spectator), see :func:`.protocol.state_message`;
        a ``log`` entry whose move has a note carries it as ``"note"``; each entry and
        ``last_move`` carry ``"text"``, the move's sentence in ``language``."""
        return state_message(
            game_id=live.id,
            game=live.game,
            state=live.state,
            seat=seat,
            moves=live.moves,
            seats=self.seats_json(live),
            result=self.result_json(live),
            notes=live.notes,
            spectators=self.spectators_json(live),
            clock=self.clock_json(live),
            effects=live.effects,
            texts=live.said(language)[0],
        )

    def message_json(
        self,
        live: LiveGame,
        seat: int | None,
        seats: Sequence[dict[str, Any]] | None = None,
        language: str = DEFAULT_LANGUAGE,
    ) -> str:
        """:meth:`message` as JSON text (:func:`.protocol.state_message_json`, with the
        game's log cached in ``language``: :meth:`.live.LiveGame.said`). ``seats``:
        :meth:`seats_json`, when the caller has it."""
        texts, log = live.said(language)
        return state_message_json(
            game_id=live.id,
            game=live.game,
            state=live.state,
            seat=seat,
            moves=live.moves,
            seats=self.seats_json(live) if seats is None else seats,
            result=self.result_json(live),
            notes=live.notes,
            log=log,
            spectators=self.spectators_json(live),
            clock=self.clock_json(live),
            effects=live.effects,
            texts=texts,
        )

    @staticmethod
    def result_json(live: LiveGame) -> dict[str, Any] | None:
        """The result a state message carries: the record's, with ``"ratings"`` (each
        seat's change, :func:`.rating_updates.seat_changes`) once a rated game's ratings
        are applied."""
        if live.result is None or not live.rating_changes:
            return live.result
        return {**live.result, "ratings": live.rating_changes}

    def publish(self, live: LiveGame, exclude: Subscriber | None = None) -> None:
        """Send every subscriber of the game (but ``exclude``) its own fresh state (each
        distinct view, a seat's or the spectators' in one language, built and serialized
        once)."""
        seats = self.seats_json(live)
        self.hub.publish_views(
            live.id, lambda seat, lang: self.message_json(live, seat, seats, lang), exclude
        )

    def forward_chat(self, game_id: str, message: dict[str, Any]) -> None:
        """Send a chat message (stored by another server process) to the game's
        WebSockets: ``{"type": "chat", "message": message}``."""
        if self.hub.has_subscribers(game_id):
            text = json.dumps({"type": "chat", "message": message}, ensure_ascii=False)
            self.hub.publish(game_id, lambda _seat: text)

    def forward_analysis(self, game_id: str, progress: dict[str, Any]) -> None:
        """Send the progress of a post-game analysis (:mod:`.analysis_jobs`) to the game's
        WebSockets: ``progress`` with ``"type": "analysis"`` and the ``"game_id"``."""
        if self.hub.has_subscribers(game_id):
            text = json.dumps({**progress, "type": "analysis", "game_id": game_id})
            self.hub.publish(game_id, lambda _seat: text)

    @staticmethod
    def summary(live: LiveGame, your_seats: Sequence[int]) -> dict[str, Any]:
        """A game list entry: ``{"game_id", "game", "status", "seats", "your_seats",
        "current_player", "turn", "moves", "result", "created_at", "updated_at"}``."""
        return {
            "game_id": live.id,
            "game": live.game,
            "status": live.status,
            "seats": [
                {"seat": s.seat, "type": s.type, "name": s.name, "bot": s.bot, "guest": s.guest}
                for s in live.seats
            ],
            "your_seats": list(your_seats),
            "current_player": live.current_player,
            "turn": int(live.state.turn),
            "moves": len(live.moves),
            "result": live.result,
            "created_at": live.created_at.isoformat(),
            "updated_at": live.updated_at.isoformat(),
        }

    # ------------------------------------------------------------------ finished games

    @staticmethod
    def record(live: LiveGame) -> GameRecord:
        """The game record (with the seed), for a finished game only.

        Raises:
            Conflict: the game is still being played.
        """
        if not live.finished:
            raise Conflict(
                N_(
                    "game {game} is still being played; "
                    "its record (with the deal seed) is available once it is over"
                ),
                game=live.id,
            )
        return GameRecord(
            game=live.game,
            num_players=live.num_players,
            players=[s.name for s in live.seats],
            seed=live.seed,
            options=dict(live.options),
            actions=[text for _, text in live.moves],
            result=live.result,
            started_at=live.created_at.isoformat(),
            effects=[
                {"action": i, **{k: v for k, v in e.items() if k != "text"}}
                for i, found in sorted(live.effects.items())
                for e in found
            ],
            metadata={
                "game_id": live.id,
                "seats": [{"seat": s.seat, "type": s.type, "bot": s.bot} for s in live.seats],
                **(
                    {"notes": {str(i): n for i, n in sorted(live.notes.items())}}
                    if live.notes
                    else {}
                ),
            },
        )

    @classmethod
    def replay(cls, live: LiveGame, language: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
        """``{"game", "num_players", "seats", "frames", "result"}`` of a finished game;
        frame ``k`` is ``{"move": k, "notation", "text", "seat", "observation"}`` after
        ``k`` moves (the full position: everything of a finished game may be shown;
        ``text``: the move's sentence in ``language``, ``{seatN}`` for the players), with
        ``"effects"`` when move ``k`` did more than its notation says
        (:func:`.protocol.move_effects`).

        Raises:
            Conflict: the game is still being played.
        """
        state = cls.record(live).new_state()
        texts = live.said(language)[0]
        frames = [
            {
                "move": 0,
                "notation": None,
                "text": None,
                "seat": None,
                "observation": state.to_dict(),
            }
        ]
        for k, (seat, text) in enumerate(live.moves, start=1):
            state.apply(text)
            frames.append(
                {
                    "move": k,
                    "notation": text,
                    "text": texts[k - 1],
                    "seat": seat,
                    "observation": state.to_dict(),
                    **({"effects": live.effects[k - 1]} if k - 1 in live.effects else {}),
                }
            )
        return {
            "game": live.game,
            "num_players": live.num_players,
            "seats": [
                {"seat": s.seat, "type": s.type, "name": s.name, "bot": s.bot, "guest": s.guest}
                for s in live.seats
            ],
            "frames": frames,
            "result": live.result,
        }


__all__ = ["JsonView"]
