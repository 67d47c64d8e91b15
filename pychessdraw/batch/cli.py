"""Command line: ``pychessdraw status``, ``scan``, ``audit`` and ``watch``.

Standard output carries only JSON; messages and progress go to standard
error. Exit status: 0 when all went well, 1 when some input was bad (a bad
FEN or move, a broken game in a scan, a missing or unreadable file or
directory) or an output cannot be written (standard output closed or full,
``--out`` not a writable directory, a scheduler that does not answer), 2 for
bad usage (a bad option or an option out of its range), 130 on Ctrl-C (0 for
``watch``, which only Ctrl-C ends), 141
when standard output is a pipe its reader closed (``| head``), as the shell
reports a command killed by SIGPIPE. Never a traceback for any of these:
one line ``pychessdraw: CODE: message`` on standard error.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import re
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from types import FrameType
from typing import TYPE_CHECKING

from .. import __version__, i18n, laws
from ..errors import FileError, InternalError, RefereeError
from ..game import Game
from ..records.final_search import AUTO, FinalSearch
from ..records.scan import scan
from ..records.tracker import DEFAULT_MAX_BYTES, Tracker, describe
from ..rules import dead, timeout
from .inputs import STDIN, TextLines, inputs, open_text
from .progress import Progress
from .watch import DEFAULT_INTERVAL, open_source, ticks

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

BUDGETS = {"static": dead.STATIC, "page": dead.PAGE, "deep": dead.DEEP}
SCAN_SEARCH: dict[str, FinalSearch] = {**BUDGETS, AUTO: AUTO}


EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report it
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE: what `cat file | head` reports for cat
INDENT_MAX = 16
INTERVAL_RANGE = (0.1, 3600.0)  # seconds between reads of a watched source
MAX_MB_RANGE = (0.001, 1024.0)  # size limit of a watched source
CHUNK_MB_RANGE = (0.001, 1_000_000.0)  # 1 kB (tests cut small files); 1 byte meant millions of chunks
WORKERS_PER_CORE = 4  # more local processes than this only share the cores
# The end of the PGN reader's message when it gives up on an input (no game
# ends within its character limit, as on /dev/zero): the scan's one fatal
# input error that a game's report carries.
READING_STOPPED = "reading stopped"


def _say(line: str) -> None:
    try:
        print(line, file=sys.stderr, flush=True)
    except OSError:
        pass  # standard error is gone too: the exit status still tells


def _fail(error: RefereeError) -> int:
    _say(f"pychessdraw: {error.code}: {error.message}")
    return 1


def _write(text: str) -> None:
    """Write to standard output at once; a failed write other than a closed
    pipe (a full disk, /dev/full) becomes a FileError saying so."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise FileError(f"cannot write standard output: {exc.strerror or exc}", file=STDIN) from None


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
    _write(json.dumps(status.to_dict(), indent=args.indent) + "\n")
    return 0


def _sources(files: Sequence[str]) -> Iterable[tuple[str, TextLines | None, RefereeError | None]]:
    """Each input as lines: files, directories of PGN files, ``-`` (also when none)."""
    for name, problem in inputs(files or [STDIN]):
        if name == STDIN and sys.stdin is not None and sys.stdin.isatty():  # else it looks like a hang
            _say("pychessdraw: reading PGN from standard input (end it with Ctrl-D)")
        if problem is None:
            try:
                handle = open_text(name)
            except FileError as exc:
                problem = exc
        if problem is not None:
            yield name, None, problem
            continue
        lines = TextLines(name, handle)
        try:
            yield name, lines, None
        finally:
            lines.close()


def cmd_scan(args: argparse.Namespace) -> int:
    progress = Progress(sys.stderr, sys.stderr.isatty() if args.progress is None else args.progress)
    status = 0
    number = 1
    should_be_draws = []
    named = len(args.files) > 1 or any(os.path.isdir(f) for f in args.files)
    for name, lines, error in _sources(args.files):
        if error is not None:
            status = _fail(error)
            continue
        assert lines is not None
        first, stopped = number, None
        for report in scan(lines, number, final_search=SCAN_SEARCH[args.search], flag_rules=args.flag_rules):
            number += 1
            if named:
                report["file"] = name
            if report["error"] is not None:
                status = 1
                if report["error"]["code"] == "bad_pgn":
                    report["error"].setdefault("file", name)  # text that is not PGN: which file
                stopped = report["error"] if report["error"]["message"].endswith(READING_STOPPED) else None
            if report["time_forfeit"] and report["time_forfeit"]["should_be_draw"]:
                should_be_draws.append(report["game"])
            _write(json.dumps(report) + "\n")
            progress.add(1, report["plies"])
        if lines.error is not None:  # the games before the fault were reported; the fault is a row too
            _write(json.dumps({"game": None, "file": name, "error": lines.error.to_dict(), "verdict": "error"}) + "\n")
            status = _fail(lines.error)
        elif number == first:  # not a success: a wrong file, an empty pipe
            where = i18n.gettext("standard input") if name == STDIN else repr(name)
            status = _fail(FileError(i18n.gettext("no PGN game in {where}").format(where=where), file=name))
        elif stopped is not None:  # in the report, and said here too: a piped report is not a silent failure
            _say(f"pychessdraw: {stopped['code']}: {name}: game {number - 1}: {stopped['message']}")
    progress.close()
    if should_be_draws:
        games = ", ".join(map(str, should_be_draws))
        count = len(should_be_draws)
        _say(
            i18n.ngettext(
                # English says "game(s)" whatever the count, as it always has
                "pychessdraw: {count} game(s) lost on time should have been draws ({rules}): {games}",
                "pychessdraw: {count} game(s) lost on time should have been draws ({rules}): {games}",
                count,
            ).format(count=count, rules=args.flag_rules, games=games)
        )
    return status


AUDIT_EXTRA = 'pip install "pychessdraw[audit]"'


def _check_audit_paths(names: Sequence[str], out: str) -> None:
    """Before any work, refuse an input that exists but is neither a regular
    file nor a directory (workers read byte ranges: a device or a pipe has no
    size and was audited as 0 games, exit 0), a name that is not UTF-8 (the
    Parquet ``file`` column cannot hold it: the chunk failed in the worker)
    and an ``--out`` that is not a directory this process can write in (made
    when missing). Limits: a missing input is the audit's own error, reported
    with the others; so are names found in a directory, and a disk that
    fills up later."""
    for name in names:
        if name != STDIN and os.path.exists(name) and not (os.path.isfile(name) or os.path.isdir(name)):
            raise FileError(
                f"audit reads regular files and directories: {name!r} is neither (a device or a "
                "pipe); save it to a file first",
                file=name,
            )
        if not _is_utf8(name):
            raise FileError(
                f"audit writes file names in UTF-8 (the Parquet column file): {name!r} is not UTF-8; rename it",
                file=name,
            )
    if os.path.exists(out) and not os.path.isdir(out):
        raise FileError(f"--out {out!r} is not a directory", file=out)
    try:
        os.makedirs(out, exist_ok=True)
        with tempfile.TemporaryFile(dir=out):  # the only sure test of writing, also for root
            pass
    except OSError as exc:
        raise FileError(f"cannot write in --out {out!r}: {exc.strerror or exc}", file=out) from None


def _is_utf8(name: str) -> bool:
    try:
        name.encode("utf-8")  # bytes that were not UTF-8 came in as lone surrogates (PEP 383)
    except UnicodeEncodeError:
        return False
    return True


def cmd_audit(args: argparse.Namespace) -> int:
    try:
        from .audit.run import format_summary, run_audit
    except ImportError as exc:
        _say(f"pychessdraw: audit needs Dask distributed, zstandard and pyarrow ({exc.name} is missing): {AUDIT_EXTRA}")
        return 1
    _check_audit_paths(args.inputs, args.out)
    progress = sys.stderr.isatty() if args.progress is None else args.progress
    try:
        summary = run_audit(
            args.inputs,
            args.out,
            workers=args.workers,
            scheduler=args.scheduler,
            search=args.search,
            flag_rules=args.flag_rules,
            chunk_bytes=None if args.chunk_mb is None else max(1, int(args.chunk_mb * (1 << 20))),
            progress=progress,
        )
    except RefereeError as exc:
        return _fail(exc)
    except Exception as exc:  # a fault of Dask (a scheduler lost, a cluster that cannot start): no traceback
        return _fail(
            InternalError(f"the audit stopped: {type(exc).__name__}: {str(exc)[:300]}; run it again to resume")
        )
    _write(format_summary(summary) + "\n")
    for error in summary["errors"]:  # on standard error too: a cut archive must not pass unseen
        _say(f"pychessdraw: file_error: {error}")
    bad = summary["errors"] or summary["verdicts"].get("error")
    return 1 if bad else 0


def cmd_watch(args: argparse.Namespace) -> int:
    """Follow a source until Ctrl-C, which is the normal end: exit 0."""
    readable = sys.stderr.isatty() if args.readable is None else args.readable
    try:
        with _ctrl_c_remembered() as sleep:
            source = open_source(args.source, max(1, int(args.max_mb * (1 << 20))))
            tracker = Tracker(flag_rules=args.flag_rules)
            for text in ticks(source, args.interval, _say_watch, sleep=sleep):
                for event in tracker.update(text, source.cut):
                    _write(json.dumps(event) + "\n")
                    if readable:
                        _say(describe(event))
    except KeyboardInterrupt:
        return 0
    return 0  # not reached: only Ctrl-C or an error ends the watch


def _say_watch(message: str) -> None:
    _say(f"pychessdraw: watch: {message}")


@contextlib.contextmanager
def _ctrl_c_remembered() -> Iterator[Callable[[float], None]]:
    """A ``sleep`` for the watch's ticks that raises KeyboardInterrupt once
    Ctrl-C has come, meanwhile SIGINT is remembered as well as raised.
    Python drops an exception raised while a finalizer runs (a closed HTTP
    response's ``__del__`` during a read), so a Ctrl-C that lands there
    would be lost and the watch would go on; the next tick ends it instead.
    Off the main thread (no signal handler can be set there) it is
    ``time.sleep``."""
    if threading.current_thread() is not threading.main_thread():
        yield time.sleep
        return
    came = threading.Event()

    def on_ctrl_c(signum: int, frame: FrameType | None) -> None:
        came.set()
        raise KeyboardInterrupt

    def sleep(seconds: float) -> None:
        if came.is_set():
            raise KeyboardInterrupt
        time.sleep(seconds)

    previous = signal.signal(signal.SIGINT, on_ctrl_c)
    try:
        yield sleep
    finally:
        signal.signal(signal.SIGINT, previous)


def _number_in(kind: Callable[[str], float], low: float, high: float) -> Callable[[str], float]:
    """An argparse type: a number of ``kind`` from ``low`` to ``high``; argparse
    names the option in its message and exits with status 2."""
    what = "a whole number" if kind is int else "a number"

    def parse(text: str) -> float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {what} from {low:g} to {high:g}, got {text!r}") from None
        if not (math.isfinite(value) and low <= value <= high):  # NaN compares false: refused too
            raise argparse.ArgumentTypeError(f"must be from {low:g} to {high:g}, got {text!r}")
        return value

    return parse


def _language(text: str) -> str:
    """An argparse type: a shipped language (:func:`pychessdraw.i18n.check_language`)."""
    try:
        return i18n.check_language(text)
    except RefereeError as exc:
        raise argparse.ArgumentTypeError(exc.message) from None


def _lang_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--lang",
        type=_language,
        default=i18n.ENGLISH,
        help=f"the language of the sentences ({', '.join(i18n.LANGUAGES)}; default en); codes and tags stay English",
    )


_ADDRESS = re.compile(r"(?:(?:tcp|tls|ucx|ws|wss)://)?(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+):([0-9]{1,5})")


def _scheduler_address(text: str) -> str:
    """An argparse type: ``[tcp://]host:port`` (or tls, ucx, ws, wss), port 1 to 65535.
    Only the form is checked: whether anyone listens is the connection's error."""
    match = _ADDRESS.fullmatch(text)
    if match is None or not 0 < int(match.group(1)) < 65536:
        raise argparse.ArgumentTypeError(f"expected an address such as tcp://host:8786, got {text!r}")
    return text


def _watch_source(text: str) -> str:
    """An argparse type: a file name or an http(s) URL (no other scheme)."""
    try:
        open_source(text)
    except RefereeError as exc:
        raise argparse.ArgumentTypeError(exc.message) from None
    return text


def _search_options(parser: argparse.ArgumentParser, what: str, final: bool = False) -> None:
    if final:
        parser.add_argument(
            "--search",
            choices=SCAN_SEARCH,
            default=AUTO,
            help=f"{what}: auto (default) searches ~1 s a side only where the answer can change "
            "the verdict (the flagged side's opponent in a loss on time, positions that "
            "might be dead); static, page (~15 ms) or deep (~1 s) search both sides of "
            "every final position",
        )
    else:
        parser.add_argument(
            "--search",
            choices=BUDGETS,
            default="deep",
            help=f"{what}: static proofs only, ~15 ms or ~1 s per side (default: deep)",
        )
    parser.add_argument(
        "--flag-rules",
        choices=timeout.RULES,
        default=timeout.FIDE,
        help=f"flag-fall rules: {laws.fide(laws.FLAG_FALL)} or US Chess (default: fide)",
    )


class _Parser(argparse.ArgumentParser):
    """argparse, except that a failed write of ``--help`` or ``--version`` to
    standard output is an error (argparse drops it: ``--help > /dev/full``
    exited 0 in silence). A failed write to standard error is still dropped
    (a usage error keeps its status 2)."""

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        if not message:
            return
        if file is not None and file is sys.stdout:
            _write(message)
            return
        try:
            (file or sys.stderr).write(message)
        except OSError:
            pass


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="pychessdraw", description="A chess referee for draws (FIDE Laws).")
    parser.add_argument("--version", action="version", version=f"pychessdraw {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    _add_status(sub.add_parser)
    _add_scan(sub.add_parser)
    _add_audit(sub.add_parser)
    _add_watch(sub.add_parser)
    return parser


def _on_off(p: argparse.ArgumentParser, name: str, help: str) -> None:
    """``--NAME`` and ``--no-NAME``; None (decided by the terminal) when neither is given."""
    p.add_argument(f"--{name}", dest=name, action="store_true", default=None, help=help)
    p.add_argument(f"--no-{name}", dest=name, action="store_false")


def _progress_options(p: argparse.ArgumentParser) -> None:
    _on_off(p, "progress", "show progress on standard error even when it is not a terminal")


def _add_status(add_parser: Callable[..., _Parser]) -> None:
    st = add_parser("status", help="status of the position after some moves, as JSON")
    st.add_argument("--fen", help="start position (default: the initial position)")
    st.add_argument("--chess960", action="store_true", help="Chess960 castling rules")
    st.add_argument("--legal-moves", action="store_true", help="include the legal moves")
    st.add_argument(
        "--indent",
        type=_number_in(int, 0, INDENT_MAX),
        default=None,
        help=f"pretty-print JSON with this many spaces (0 to {INDENT_MAX})",
    )
    st.add_argument("moves", nargs="*", help="moves in SAN or UCI")
    _lang_option(st)
    _search_options(st, "dead-position search for the position")
    st.set_defaults(run=cmd_status)


def _add_scan(add_parser: Callable[..., _Parser]) -> None:
    sc = add_parser("scan", help="audit every game of PGN files (standard input when none)")
    sc.add_argument("files", nargs="*", help=".pgn, .pgn.gz, .pgn.zst files, directories of them, - for standard input")
    _progress_options(sc)
    _search_options(
        sc, "dead-position search for each game's final position (every ply gets the static proofs)", final=True
    )
    _lang_option(sc)
    sc.set_defaults(run=cmd_scan)


def _add_audit(add_parser: Callable[..., _Parser]) -> None:
    au = add_parser("audit", help="audit whole archives on Dask into a Parquet dataset (needs the [audit] extra)")
    au.add_argument("inputs", nargs="+", help=".pgn, .pgn.gz, .pgn.zst files and directories of them")
    au.add_argument(
        "--out", required=True, help="output directory: one Parquet file per chunk, _manifest.json, _summary.json"
    )
    where = au.add_mutually_exclusive_group()
    most = WORKERS_PER_CORE * (os.cpu_count() or 1)
    where.add_argument(
        "--workers",
        type=_number_in(int, 1, most),
        default=None,
        help=f"worker processes of a local cluster, 1 to {WORKERS_PER_CORE} per core (default: one per core)",
    )
    where.add_argument(
        "--scheduler",
        type=_scheduler_address,
        default=None,
        help="address of a running Dask scheduler, e.g. tcp://host:8786",
    )
    au.add_argument(
        "--chunk-mb",
        type=_number_in(float, *CHUNK_MB_RANGE),
        default=None,
        help=f"about this many MB of input per chunk, {CHUNK_MB_RANGE[0]:g} to {CHUNK_MB_RANGE[1]:g} "
        "(default: from the input size and the workers, 4 chunks a worker, 64 KB to 64 MB)",
    )
    _progress_options(au)
    _search_options(au, "dead-position search for each game's final position", final=True)
    au.set_defaults(run=cmd_audit)


def _add_watch(add_parser: Callable[..., _Parser]) -> None:
    wa = add_parser(
        "watch", help="follow a live PGN (a file or an http(s) URL): one JSON line per new event, until Ctrl-C"
    )
    wa.add_argument("source", type=_watch_source, help="a PGN file another program rewrites, or an http(s) URL")
    wa.add_argument(
        "--interval",
        type=_number_in(float, *INTERVAL_RANGE),
        default=DEFAULT_INTERVAL,
        help=f"seconds between reads, {INTERVAL_RANGE[0]:g} to {INTERVAL_RANGE[1]:g} "
        f"(default: {DEFAULT_INTERVAL:g}); a source that fails is read less often",
    )
    wa.add_argument(
        "--max-mb",
        type=_number_in(float, *MAX_MB_RANGE),
        default=DEFAULT_MAX_BYTES / (1 << 20),
        help=f"read at most this many MB of the source, {MAX_MB_RANGE[0]:g} to {MAX_MB_RANGE[1]:g} "
        f"(default: {DEFAULT_MAX_BYTES >> 20}); the rest is cut, with a message",
    )
    _on_off(
        wa, "readable", "also write each event as a line for people on standard error (default: when it is a terminal)"
    )
    wa.add_argument(
        "--flag-rules",
        choices=timeout.RULES,
        default=timeout.FIDE,
        help=f"flag-fall rules for games lost on time: {laws.fide(laws.FLAG_FALL)} or US Chess (default: fide)",
    )
    wa.set_defaults(run=cmd_watch)  # no --lang yet: its event sentences are not in the catalogs


def _os_failure(exc: OSError) -> RefereeError:
    """An OSError that escaped a command (a file, a directory, a connection)
    as an error naming what failed."""
    if exc.filename is not None:
        return FileError(f"{exc.filename}: {exc.strerror or exc}", file=str(exc.filename))
    return RefereeError(str(exc) or type(exc).__name__)


def _settle_streams() -> None:
    """Flush standard output and error; where that fails (a closed pipe, a
    full disk), point the stream at /dev/null so that Python's own flush at
    exit has nothing to report ("Exception ignored ...", exit 120), as the
    Python docs advise for SIGPIPE."""
    for stream in (sys.stdout, sys.stderr):
        if stream is None:
            continue
        try:
            stream.flush()
        except OSError:
            try:
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, stream.fileno())
                os.close(devnull)
            except (OSError, ValueError):
                pass  # a stream without a descriptor (a test's capture): nothing to flush at exit


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; returns the exit status (see the module's docstring)."""
    if sys.stderr is None:  # started with standard error closed: messages go nowhere
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115
    try:
        args = build_parser().parse_args(argv)  # exits 2 on bad usage, 0 after --help
        if sys.stdout is None:  # started with standard output closed (`>&-`)
            raise FileError("cannot write standard output: it is closed", file=STDIN)
        run: Callable[[argparse.Namespace], int] = args.run
        with i18n.language(getattr(args, "lang", None)):  # --lang: the sentences the command makes
            status = run(args)
        _write("")  # what is still buffered, with the same errors
    except BrokenPipeError:
        status = EXIT_BROKEN_PIPE
    except RefereeError as exc:
        status = _fail(exc)
    except OSError as exc:
        status = _fail(_os_failure(exc))
    except KeyboardInterrupt:
        status = EXIT_INTERRUPTED
    _settle_streams()
    return status


if __name__ == "__main__":
    sys.exit(main())
