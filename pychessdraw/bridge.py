"""The one Python entry point of the browser worker: JSON in, JSON out.

``Bridge().handle(request)`` takes ``{"op": str, "args": {...}}`` as a JSON
string and returns a JSON string: ``{"ok": true, "state": STATE, ...}`` or
``{"ok": false, "error": {"code", "message"}, "state": STATE}``. Only strings
cross the JS/Python boundary, so the worker holds no Python objects but the
bridge itself. A failed operation leaves the game exactly as it was.

STATE is ``{"status": STATUS (with legal_moves), "moves": [{"ply", "san",
"uci", "fen", "repetition_count"}], "start_fen", "chess960", "headers"}``.
Operations: new, play, undo, load_pgn, claim, agree, resign, flag,
status_at, export_pgn, state, analyse.

Moves are answered at once with the cheap dead-position proofs; ``analyse``
then searches the current position with the page budget (about 30 ms) and
may end the game as a dead position. The UI sends it after each change, so
the board never waits for the search.
"""

from __future__ import annotations

import json
from typing import Any, Callable

import chess

from . import pgn
from .errors import BadRequestError, RefereeError
from .game import Game
from .rules import dead

_COLORS = {"white": chess.WHITE, "black": chess.BLACK}


class Bridge:
    def __init__(self) -> None:
        self.game = Game()
        self.headers: dict[str, str] = {}
        # Per-ply (san, uci, fen, repetition_count), kept in step with the game
        # so that a move costs the same at ply 10 and ply 400.
        self._rows: list[dict[str, Any]] = []
        self._ops: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
            "new": self._new, "play": self._play, "undo": self._undo, "load_pgn": self._load_pgn,
            "claim": self._claim, "agree": self._agree, "resign": self._resign, "flag": self._flag,
            "status_at": self._status_at, "export_pgn": self._export_pgn, "state": lambda a: {},
            "analyse": self._analyse,
        }

    def handle(self, request: str) -> str:
        return json.dumps(self.call(request))

    def call(self, request: str | dict[str, Any]) -> dict[str, Any]:
        try:
            req = json.loads(request) if isinstance(request, str) else request
            if not isinstance(req, dict) or req.get("op") not in self._ops:
                raise BadRequestError(f"unknown operation {req.get('op') if isinstance(req, dict) else req!r}")
            args = req.get("args") or {}
            if not isinstance(args, dict):
                raise BadRequestError("args must be an object")
            extra = self._ops[req["op"]](args)
        except RefereeError as exc:
            return {"ok": False, "error": exc.to_dict(), "state": self.state()}
        except (ValueError, KeyError, TypeError) as exc:
            return {"ok": False, "error": {"code": "bad_request", "message": str(exc)}, "state": self.state()}
        if "status" in extra or "pgn" in extra or "state" in extra:
            return {"ok": True, **extra}
        return {"ok": True, **extra, "state": self.state()}

    def state(self, search: dead.SearchBudget | None = None) -> dict[str, Any]:
        return {
            "status": self.game.status(legal_moves=True, search=search).to_dict(),
            "moves": self._rows,
            "start_fen": self.game.start_fen,
            "chess960": self.game.chess960,
            "headers": self.headers,
        }

    # -- operations --------------------------------------------------------
    def _adopt(self, game: Game, headers: dict[str, str]) -> None:
        rows = []
        replay = Game(game.start_fen, chess960=game.chess960)
        for move in game.moves:
            rows.append(self._row(replay, move))
        self.game, self.headers, self._rows = game, headers, rows

    @staticmethod
    def _row(game: Game, move: chess.Move) -> dict[str, Any]:
        san, uci = game.san(move), game.uci(move)
        game.push(move)
        return {"ply": game.ply, "san": san, "uci": uci, "fen": game.fen(),
                "repetition_count": game.repetition_count()}

    def _new(self, args: dict[str, Any]) -> dict[str, Any]:
        game = Game(args.get("fen") or None, chess960=bool(args.get("chess960")),
                    flag_rules=args.get("flag_rules") or self.game.flag_rules)
        self._adopt(game, {})
        return {}

    def _play(self, args: dict[str, Any]) -> dict[str, Any]:
        text = _text(args, "move")
        if self.game.outcome() is not None:
            self.game.play(text)  # raises GameOverError with the reason
        move = self.game.parse_move(text)
        self._rows.append(self._row(self.game, move))
        return {}

    def _undo(self, args: dict[str, Any]) -> dict[str, Any]:
        if self.game.undo() is not None:
            self._rows.pop()
        return {}

    def _load_pgn(self, args: dict[str, Any]) -> dict[str, Any]:
        game, parsed = pgn.parse_one(_text(args, "pgn"), flag_rules=self.game.flag_rules)
        self._adopt(game, parsed.headers)
        return {}

    def _claim(self, args: dict[str, Any]) -> dict[str, Any]:
        move = args.get("move") or None
        before = self.game.ply
        if move is not None:
            parsed = self.game.parse_move(str(move))
            san, uci = self.game.san(parsed), self.game.uci(parsed)
        result = self.game.claim_draw(parsed if move is not None else None)
        if self.game.ply > before:  # the intended move was recorded
            self._rows.append({"ply": self.game.ply, "san": san, "uci": uci,
                               "fen": self.game.fen(), "repetition_count": self.game.repetition_count()})
        return {"claim": result.to_dict()}

    def _agree(self, args: dict[str, Any]) -> dict[str, Any]:
        self.game.agree_draw()
        return {}

    def _resign(self, args: dict[str, Any]) -> dict[str, Any]:
        self.game.resign(_color(args))
        return {}

    def _flag(self, args: dict[str, Any]) -> dict[str, Any]:
        self.game.flag(_color(args))
        return {}

    def _status_at(self, args: dict[str, Any]) -> dict[str, Any]:
        ply = args.get("ply")
        if not isinstance(ply, int) or not 0 <= ply <= self.game.ply:
            raise BadRequestError(f"ply must be a whole number from 0 to {self.game.ply}")
        game = Game(self.game.start_fen, chess960=self.game.chess960)
        for move in self.game.moves[:ply]:
            game.push(move)
        if ply == self.game.ply and self.game.declared_outcome() is not None:
            return {"status": self.game.status(legal_moves=True).to_dict()}
        return {"status": game.status(legal_moves=True).to_dict()}

    def _analyse(self, args: dict[str, Any]) -> dict[str, Any]:
        return {"state": self.state(search=dead.PAGE), "analysed": True}

    def _export_pgn(self, args: dict[str, Any]) -> dict[str, Any]:
        return {"pgn": pgn.export(self.game, self.headers)}


def _text(args: dict[str, Any], name: str) -> str:
    value = args.get(name)
    if not isinstance(value, str):
        raise BadRequestError(f"'{name}' must be a string")
    return value


def _color(args: dict[str, Any]) -> chess.Color:
    name = args.get("color")
    if name not in _COLORS:
        raise BadRequestError("'color' must be 'white' or 'black'")
    return _COLORS[name]
