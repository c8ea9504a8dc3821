"""Terminal play (rich) of classic Splendor and Splendor Duel: the board, a person as an
agent, the game loop.

``splendor play`` calls :func:`splendor.tui.app.run_play`. Drawing (:mod:`.render` for
classic, :mod:`.render_duel` for Duel) works only from a seat's observation, never from the
full state (C16, D22); :mod:`.games` holds what differs between the games.
"""
