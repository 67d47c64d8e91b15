"""pychessdraw: a chess referee for draws under the FIDE Laws of Chess.

>>> from pychessdraw import Game
>>> game = Game()
>>> for move in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]:
...     _ = game.play(move)
>>> [(c.rule.value, c.san) for c in game.status().claims]
[('threefold_repetition', 'Ng8')]
"""

from .errors import RefereeError
from .game import Game, board_from_fen
from .outcome import Outcome, Termination
from .status import Claim, ClaimResult, Status

__version__ = "0.1.0"
__all__ = ["Game", "Status", "Claim", "ClaimResult", "Outcome", "Termination", "RefereeError",
           "board_from_fen", "__version__"]
