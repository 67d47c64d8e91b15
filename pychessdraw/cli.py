"""Command line: ``pychessdraw status`` and ``pychessdraw scan``.

Standard output carries only JSON; messages and progress go to standard
error. Exit status: 0 when all went well, 1 when some input was bad (a bad
FEN or move, a broken game in a scan, a missing file), 2 for bad usage.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Callable, Iterable, Sequence, TextIO

from . import __version__
from .errors import FileError, RefereeError
from .game import Game
from .rules import dead, timeout
from .final_search import AUTO, FinalSearch
from .inputs import STDIN, TextLines, expand, open_text
from .scan import scan

BUDGETS = {"static": dead.STATIC, "page": dead.PAGE, "deep": dead.DEEP}
SCAN_SEARCH: dict[str, FinalSearch] = {**BUDGETS, AUTO: AUTO}


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


def _sources(files: Sequence[str]) -> Iterable[tuple[str, TextLines | None, RefereeError | None]]:
    """Each input as lines: files, directories of PGN files, ``-`` (also when none)."""
    for name in expand(files or [STDIN]):
        try:
            handle = open_text(name)
        except FileError as exc:
            yield name, None, exc
            continue
        lines = TextLines(name, handle)
        try:
            yield name, lines, None
        finally:
            lines.close()


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
        for report in scan(lines, number, final_search=SCAN_SEARCH[args.search], flag_rules=args.flag_rules):
            number += 1
            if len(args.files) > 1 or any(os.path.isdir(f) for f in args.files):
                report["file"] = name
            if report["error"] is not None:
                status = 1
            if report["time_forfeit"] and report["time_forfeit"]["should_be_draw"]:
                should_be_draws.append(report["game"])
            out.write(json.dumps(report) + "\n")
            out.flush()
            progress.update(report["plies"])
        if lines.error is not None:
            status = _fail(lines.error)
    progress.close()
    if should_be_draws:
        games = ", ".join(map(str, should_be_draws))
        print(f"pychessdraw: {len(should_be_draws)} game(s) lost on time should have been draws "
              f"({args.flag_rules}): {games}", file=sys.stderr)
    return status


AUDIT_EXTRA = 'pip install "pychessdraw[audit]"'


def cmd_audit(args: argparse.Namespace) -> int:
    try:
        from .audit.run import format_summary, run_audit
    except ImportError as exc:
        print(f"pychessdraw: audit needs Dask distributed, zstandard and pyarrow ({exc.name} is missing): "
              f"{AUDIT_EXTRA}", file=sys.stderr)
        return 1
    progress = sys.stderr.isatty() if args.progress is None else args.progress
    try:
        summary = run_audit(args.inputs, args.out, workers=args.workers, scheduler=args.scheduler,
                            search=args.search, flag_rules=args.flag_rules,
                            chunk_bytes=None if args.chunk_mb is None else max(1, int(args.chunk_mb * (1 << 20))),
                            progress=progress)
    except RefereeError as exc:
        return _fail(exc)
    print(format_summary(summary))
    bad = summary["errors"] or summary["verdicts"].get("error")
    return 1 if bad else 0


def _search_options(parser: argparse.ArgumentParser, what: str, final: bool = False) -> None:
    if final:
        parser.add_argument("--search", choices=SCAN_SEARCH, default=AUTO,
                            help=f"{what}: auto (default) searches ~1 s a side only where the answer can change "
                                 "the verdict (the flagged side's opponent in a loss on time, positions that "
                                 "might be dead); static, page (~15 ms) or deep (~1 s) search both sides of "
                                 "every final position")
    else:
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
    sc.add_argument("files", nargs="*", help=".pgn, .pgn.gz, .pgn.zst files, directories of them, - for standard input")
    sc.add_argument("--progress", dest="progress", action="store_true", default=None,
                    help="show progress on standard error even when it is not a terminal")
    sc.add_argument("--no-progress", dest="progress", action="store_false")
    _search_options(sc, "dead-position search for each game's final position (every ply gets the static proofs)",
                    final=True)
    sc.set_defaults(run=cmd_scan)
    au = sub.add_parser("audit", help="audit whole archives on Dask into a Parquet dataset (needs the [audit] extra)")
    au.add_argument("inputs", nargs="+", help=".pgn, .pgn.gz, .pgn.zst files and directories of them")
    au.add_argument("--out", required=True, help="output directory: one Parquet file per chunk, _manifest.json, _summary.json")
    where = au.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int, default=None,
                       help="worker processes of a local cluster (default: one per core)")
    where.add_argument("--scheduler", default=None, help="address of a running Dask scheduler, e.g. tcp://host:8786")
    au.add_argument("--chunk-mb", type=float, default=None,
                    help="about this many MB of input per chunk (default: from the input size and the workers, "
                         "4 chunks a worker, 64 KB to 64 MB)")
    au.add_argument("--progress", dest="progress", action="store_true", default=None,
                    help="show progress on standard error even when it is not a terminal")
    au.add_argument("--no-progress", dest="progress", action="store_false")
    _search_options(au, "dead-position search for each game's final position", final=True)
    au.set_defaults(run=cmd_audit)
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
