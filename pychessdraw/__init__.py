"""pychessdraw: a chess referee for draws under the FIDE Laws of Chess.

>>> from pychessdraw import Game
>>> game = Game()
>>> for move in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]:
...     _ = game.play(move)
>>> [(c.rule.value, c.san) for c in game.status().claims]
[('threefold_repetition', 'Ng8')]

The public API is what this module exports, plus the modules
:mod:`pychessdraw.pgn` (reading and writing PGN), :mod:`pychessdraw.contract`
(the JSON shapes), :mod:`pychessdraw.errors` (the stable error codes) and
:mod:`pychessdraw.rules.dead` (search budgets). Other modules are internal.
"""

from .errors import RefereeError
from .game import Game, HistoryEntry, board_from_fen
from .outcome import Outcome, Termination
from .position import PositionKey
from .status import Claim, ClaimResult, Status

__version__ = "0.2.0"
__all__ = [
    "Game",
    "Status",
    "Claim",
    "ClaimResult",
    "Outcome",
    "Termination",
    "RefereeError",
    "HistoryEntry",
    "PositionKey",
    "board_from_fen",
    "__version__",
]
