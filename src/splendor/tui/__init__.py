"""Terminal play of classic Splendor (rich): the board, a person as an agent, the game loop.

``splendor play`` calls :func:`splendor.tui.app.run_play`. Drawing (:mod:`.render`) works
only from a seat's observation, never from the full state (C16).
"""
