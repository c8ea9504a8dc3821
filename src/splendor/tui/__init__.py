"""Terminal play (rich) of classic Splendor and Splendor Duel: the board, a person as an
agent, the game loop.

``splendor play`` calls :func:`splendor.tui.app.run_play`. Drawing (:mod:`.render` for
classic, :mod:`.render_duel` for Duel) works only from a seat's observation, never from the
full state (C16, D22); :mod:`.games` holds what differs between the games, each game's
:class:`~.games.GameUI` (:mod:`.games_classic`, :mod:`.games_duel`) being named by its
descriptor as its ``"tui"`` part. ``run_play`` runs the steps of :mod:`.options` (the
options checked), :mod:`.table` (the seats), :mod:`.loop` (the game and its log) and
:mod:`.ending` (the result and the record).

Everything is printed in one language, English, French, Dutch, German, Spanish, Italian,
Portuguese or Polish (``splendor play --lang``, else the terminal's locale): each drawing
function takes ``language=``, a :class:`~.games.GameUI` carries its language, and every
sentence comes from the catalogue ``tui`` (``locale/<lang>/LC_MESSAGES/tui.po``,
:mod:`splendor.i18n`); :mod:`.words` holds the words both games share. The notation
(``take W U G``) is the same in every language.
"""
