"""Training the bots' policy + value network by self-play (issue 17): :mod:`.selfplay`
(games searched by the network bot, examples), :mod:`.fit` (torch, CPU) and :mod:`.loop`
(rounds with checkpoints that resume; ``splendor train``)."""
