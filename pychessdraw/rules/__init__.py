"""One module per rule. Rules never print and never parse: each takes a board
(and, where history matters, the game's per-ply keys and clocks) and returns
facts."""
