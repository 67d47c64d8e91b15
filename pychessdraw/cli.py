"""Command line: ``pychessdraw status`` and ``pychessdraw scan``.

Standard output carries only JSON; messages and progress go to standard
error. Exit status: 0 when all went well, 1 when some input was bad (a bad
FEN or move, a broken game in a scan, a missing file), 2 for bad usage.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import time
from typing import Callable, Iterable, Sequence, TextIO

from . import __version__
from .errors import FileError, RefereeError
from .game import Game
from .rules import dead, timeout
from .scan import scan

BUDGETS = {"static": dead.STATIC, "page": dead.PAGE, "deep": dead.DEEP}


def _fail(error: RefereeError) -> int:
    print(f"pychessdraw: {error.code}: {error.message}", file=sys.stderr)
    return 1


def cmd_status(args: argparse.Namespace) -> int:
    try:
        game = Game(args.fen, chess960=args.chess960, flag_rules=args.flag_rules)
        for number, text in enumerate(args.moves, 1):
            try:
                game.play(text)
            except RefereeError as exc:
                raise type(exc)(f"move {number} ({text[:40]!r}): {exc.message}", **exc.details) from None
    except RefereeError as exc:
        return _fail(exc)
    status = game.status(legal_moves=args.legal_moves, search=BUDGETS[args.search])
    print(json.dumps(status.to_dict(), indent=args.indent))
    return 0


class _Progress:
    """Games and plies per second on standard error, only on a terminal."""

    def __init__(self, stream: TextIO, enabled: bool) -> None:
        self.stream, self.enabled = stream, enabled
        self.games = self.plies = 0
        self.start = self.last = time.perf_counter()

    def update(self, plies: int) -> None:
        self.games += 1
        self.plies += plies
        now = time.perf_counter()
        if self.enabled and now - self.last >= 0.5:
            self.last = now
            rate = self.plies / (now - self.start)
            self.stream.write(f"\r{self.games} games, {self.plies} plies, {rate:,.0f} plies/s")
            self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write(f"\r{self.games} games, {self.plies} plies, done.{' ' * 20}\n")


def _sources(files: Sequence[str]) -> Iterable[tuple[str, Iterable[str] | None, RefereeError | None]]:
    if not files:
        yield "-", io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace"), None
        return
    for name in files:
        try:
            handle = open(name, encoding="utf-8", errors="replace")
        except OSError as exc:
            yield name, None, FileError(f"cannot read {name!r}: {exc.strerror}", file=name)
            continue
        with handle:
            yield name, handle, None


def cmd_scan(args: argparse.Namespace) -> int:
    progress = _Progress(sys.stderr, sys.stderr.isatty() if args.progress is None else args.progress)
    status = 0
    number = 1
    out = sys.stdout
    should_be_draws = []
    for name, lines, error in _sources(args.files):
        if error is not None:
            status = _fail(error)
            continue
        assert lines is not None
        for report in scan(lines, number, final_search=BUDGETS[args.search], flag_rules=args.flag_rules):
            number += 1
            if len(args.files) > 1:
                report["file"] = name
            if report["error"] is not None:
                status = 1
            if report["time_forfeit"] and report["time_forfeit"]["should_be_draw"]:
                should_be_draws.append(report["game"])
            out.write(json.dumps(report) + "\n")
            out.flush()
            progress.update(report["plies"])
    progress.close()
    if should_be_draws:
        games = ", ".join(map(str, should_be_draws))
        print(f"pychessdraw: {len(should_be_draws)} game(s) lost on time should have been draws "
              f"({args.flag_rules}): {games}", file=sys.stderr)
    return status


def _search_options(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument("--search", choices=BUDGETS, default="deep",
                        help=f"{what}: static proofs only, ~15 ms or ~1 s per side (default: deep)")
    parser.add_argument("--flag-rules", choices=timeout.RULES, default=timeout.FIDE,
                        help="flag-fall rules: FIDE 6.9 or US Chess (default: fide)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pychessdraw", description="A chess referee for draws (FIDE Laws).")
    parser.add_argument("--version", action="version", version=f"pychessdraw {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    st = sub.add_parser("status", help="status of the position after some moves, as JSON")
    st.add_argument("--fen", help="start position (default: the initial position)")
    st.add_argument("--chess960", action="store_true", help="Chess960 castling rules")
    st.add_argument("--legal-moves", action="store_true", help="include the legal moves")
    st.add_argument("--indent", type=int, default=None, help="pretty-print JSON")
    st.add_argument("moves", nargs="*", help="moves in SAN or UCI")
    _search_options(st, "dead-position search for the position")
    st.set_defaults(run=cmd_status)
    sc = sub.add_parser("scan", help="audit every game of PGN files (standard input when none)")
    sc.add_argument("files", nargs="*")
    sc.add_argument("--progress", dest="progress", action="store_true", default=None,
                    help="show progress on standard error even when it is not a terminal")
    sc.add_argument("--no-progress", dest="progress", action="store_false")
    _search_options(sc, "dead-position search for each game's final position (every ply gets the static proofs)")
    sc.set_defaults(run=cmd_scan)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        run: Callable[[argparse.Namespace], int] = args.run
        return run(args)
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
