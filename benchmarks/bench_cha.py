# SPDX-License-Identifier: GPL-3.0-or-later
"""pychessdraw's dead-position search against CHA, whole processes, same run.

CHA (miguel-ambrona/D3-Chess, the C++ unwinnability checker) and
pychessdraw answer the same questions ("can this side still mate?"), each
as one process reading ``FEN color`` lines on standard input, one after
the other in the same run:

- real games: the final positions of the first ``--games`` games of
  ``../shared/corpus/lichess-dev.pgn.zst`` (default 3,000), both sides;
- the hard set: ``--hard`` positions of ``../shared/dead-positions``
  (default 300, all with ``--hard 0``: 6,828 questions), both sides.

Per tool: questions/s of the whole process (start and imports included;
for pychessdraw also the in-process figure, the loop alone), the ratio
CHA over pychessdraw (and that of their whole processes' CPU times, user
and system, which a loaded machine moves much less than the clock), the share decided, undecided questions and wrong
answers. Labels: the hard set's own; on real games there are none, so a
side counts as able to mate when either tool gives a line that
python-chess replays to a mate by that side (an ``unwinnable`` answer
there is wrong), and a ``winnable`` answer whose line does not replay is
wrong too. pychessdraw runs with the ``deep`` budget (``DEEP``: 1 s a
side; on the hard set ``--seconds`` a side if given), CHA with its
defaults (full analysis).

CHA: ``../cha-build/cha`` beside the checkout (or ``--cha``). If it is
missing, it is built there from the fetched mirrors of D3-Chess and
Stockfish (``/work/.mirror/*D3-Chess*/repo`` and ``*Stockfish*/repo``),
as ``../shared/tools/build_cha.sh`` does but archiving D3-Chess's ``lib``
and ``src`` one at a time and only Stockfish's ``src`` (the script's
``git archive`` fails on a blob a mirror lacks: D3-Chess's, and Stockfish's
``tests/unfair.txt``); when a mirror or the compiler is missing it says
which and runs pychessdraw alone.

    python benchmarks/bench_cha.py --games 300 --hard 100 --rounds 2
    python benchmarks/bench_cha.py --games 0 --hard 0 --seconds 0.1   # the hard set at CHA's pace

pychessdraw runs twice: the pure search (``PYCHESSDRAW_PURE=1``, what the
page runs) and, where it is built, the compiled one (``pychessdraw-native``,
``make native``: the same modules compiled by mypyc); when it is missing or
stale it is built (``make native``) unless ``--no-build``, and where the
machine cannot compile, the benchmark says so and runs the pure search alone.

On the hard set, each tool's own time per answer (CHA's ``time``, the
worker's the same way) says where the time goes: how much of it went to
the questions left undecided, and, for pychessdraw, the budget a side that
would decide as many questions as CHA, with the time that would take
(estimated: a question decided in t seconds is decided by any budget of at
least t; phases share a smaller budget differently).

``--base REV`` also runs the pychessdraw of commit REV (``git archive``)
on the same questions in the same rounds: before and after, each against
CHA in the same run.  ``--profile N`` adds a cProfile of the first N real-game positions (both
sides) in this process: the shares of python-chess, of pychessdraw, of
writing the proof lines in SAN, and of process start with the imports.
"""

from __future__ import annotations

import argparse
import glob
import io
import shutil
import subprocess
import sys
import resource
import tarfile
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import chess
import chess.pgn

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]
from bench_lichess import lichess_games  # noqa: E402  (the lichess corpus reader, one for both benchmarks)

from pychessdraw.deadposition.native import PURE_VARIABLE  # noqa: E402

SHARED = ROOT.parent / "shared"
CHA_BESIDE = ROOT.parent / "cha-build" / "cha"
MIRRORS = Path("/work/.mirror")
STOCKFISH_COMMIT = "51deae8"  # the Stockfish CHA is written against

# The pychessdraw side, run as its own process: same input and output shape
# as CHA ("<answer> <uci moves> nodes N time T (<query>)", T in microseconds);
# the loop's own time on stderr.
WORKER = """
import os, sys, time
t0 = time.perf_counter()
import chess
from pychessdraw.deadposition import can_checkmate
from pychessdraw.rules.dead import DEEP
seconds = float(os.environ.get("BENCH_SECONDS") or DEEP.seconds)
t1 = time.perf_counter()
out = []
for query in sys.stdin.read().splitlines():
    fen, _, side = query.rpartition(" ")
    t = time.perf_counter()
    v = can_checkmate(chess.Board(fen), side == "white", nodes=DEEP.nodes, seconds=seconds)
    us = round((time.perf_counter() - t) * 1e6)
    word = "undetermined" if v.winnable is None else "winnable" if v.winnable else "unwinnable"
    moves = " ".join(m.uci() for m in v.line or ())
    out.append(f"{word} {moves} nodes {v.nodes} time {us} ({query})")
t2 = time.perf_counter()
sys.stdout.write("\\n".join(out) + "\\n")
print(f"imports {t1 - t0:.4f} loop {t2 - t1:.4f}", file=sys.stderr)
"""


# -- CHA: found or built ---------------------------------------------------
def _mirror(name: str) -> Path | None:
    found = sorted(glob.glob(str(MIRRORS / f"*{name}*" / "repo"))) + sorted(glob.glob(str(MIRRORS / f"*{name}*.git")))
    return Path(found[0]) if found else None


def build_cha(out: Path) -> str | None:
    """Build CHA into ``out`` (its binary ``out/cha``); None, after saying
    exactly what is missing, when it cannot be built here."""
    d3, sf = _mirror("D3-Chess"), _mirror("Stockfish")
    missing = [
        f"the {what} mirror (a git dir under {MIRRORS}/*{what}*)"
        for what, where in (("D3-Chess", d3), ("Stockfish", sf))
        if where is None
    ]
    missing += [f"the tool {tool!r} on PATH" for tool in ("git", "g++", "make", "tar") if shutil.which(tool) is None]
    if missing:
        print("CHA not built: missing " + "; ".join(missing))
        return None
    script = f"""set -euo pipefail
OUT={out}; D3={d3}; SFREPO={sf}
rm -rf "$OUT" && mkdir -p "$OUT/lib/stockfish/Stockfish" "$OUT/inc"
git -C "$D3" archive --prefix=lib/ HEAD:lib | tar -x -C "$OUT"
git -C "$D3" archive --prefix=src/ HEAD:src | tar -x -C "$OUT"
git -C "$SFREPO" archive {STOCKFISH_COMMIT} src | tar -x -C "$OUT/lib/stockfish/Stockfish"
SF=$OUT/lib/stockfish/Stockfish/src
sed -i '/^OBJS/i SRCS += stockfish.cpp' "$SF/Makefile"
cp "$OUT"/lib/stockfish/stockfish.* "$SF/"
make -C "$SF" all -j2 ARCH=x86-64 EXTRACXXFLAGS="-DNNUE_EMBEDDING_OFF" >/dev/null
(cd "$SF" && g++ -Wl,--no-as-needed -lpthread -shared -o libstockfish.so -fPIC *.o 2>/dev/null)
ln -sfn "$SF" "$OUT/inc/stockfish"
(cd "$OUT/src" && g++ -o "$OUT/cha" util.cpp semistatic.cpp dynamic.cpp cha.cpp main.cpp -lpthread -O3 \\
   -I"$OUT/inc/stockfish" -I"$OUT/inc" -L"$SF" -lstockfish -Wl,-rpath,"$SF")
"""
    print(f"building CHA into {out} from {d3} and {sf} (a few minutes)")
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True)
    if done.returncode != 0 or not (out / "cha").exists():
        print(f"CHA not built: the build failed (exit {done.returncode}): {done.stderr.strip()[-800:]}")
        return None
    return str(out / "cha")


NATIVE_CHECK = "from pychessdraw.deadposition import native; print(native.NATIVE is not None)"


def find_native(build: bool) -> bool:
    """Is the compiled search built from this tree (built now, if it may be)?"""

    def fresh() -> bool:
        done = subprocess.run(
            [sys.executable, "-W", "ignore", "-c", NATIVE_CHECK], capture_output=True, text=True, cwd=ROOT, env=_env({})
        )
        return done.stdout.strip() == "True"

    if fresh():
        return True
    if not build:
        print("pychessdraw-native: not built from this tree (and --no-build): the pure search alone")
        return False
    print("pychessdraw-native: building it (make native)")
    done = subprocess.run(["make", "native"], cwd=ROOT, capture_output=True, text=True)
    said = (done.stdout + done.stderr).strip().splitlines()
    if said:
        print(f"  {said[-1]}")  # what is missing, where the machine cannot compile
    return fresh()


def _env(extra: dict[str, str], tree: Path = ROOT) -> dict[str, str]:
    """A worker's environment: pychessdraw from ``tree``, nothing else inherited."""
    return {"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin", **extra}


PURE = {PURE_VARIABLE: "1"}


def find_cha(given: str | None, build: bool) -> str | None:
    """``--cha``, else ``../cha-build/cha``, else ``cha`` on PATH, else a build."""
    if given:
        return given
    if CHA_BESIDE.exists():
        return str(CHA_BESIDE)
    on_path = shutil.which("cha")
    if on_path:
        return on_path
    if not build:
        print(f"CHA not found at {CHA_BESIDE} nor on PATH (and --no-build)")
        return None
    return build_cha(CHA_BESIDE.parent)


# -- the questions -----------------------------------------------------------
def real_questions(games: int) -> list[str]:
    """``FEN color`` for both sides of the final position of the first ``games`` lichess games."""
    queries = []
    for number, text in enumerate(lichess_games(SHARED / "corpus" / "lichess-dev.pgn.zst")):
        if number >= games:
            break
        game = chess.pgn.read_game(io.StringIO(text))
        if game is None:
            continue
        board = game.end().board()
        queries += [f"{board.fen()} white", f"{board.fen()} black"]
    return queries


def hard_questions(n: int) -> tuple[list[str], dict[str, bool]]:
    """The first ``n`` hard-set positions (all when n <= 0), both sides, with their labels."""
    queries, labels = [], {}
    rows = [
        line
        for line in (SHARED / "dead-positions" / "positions.txt").read_text().splitlines()
        if len(line) > 5 and not line.startswith("#")
    ]
    for line in rows[:n] if n > 0 else rows:
        fen = chess.Board(line[3:].strip()).fen()  # full six fields, as CHA echoes them
        for side, can in (("white", line[0] == "W"), ("black", line[1] == "B")):
            queries.append(f"{fen} {side}")
            labels[f"{fen} {side}"] = can
    return queries, labels


# -- running and judging -------------------------------------------------------
@dataclass
class Run:
    tool: str
    seconds: float  # whole process
    cpu: float  # whole process, CPU (user + system): what the load moves least
    answers: dict[str, tuple[str, list[str]]]  # query -> (word, uci moves)
    loop: float | None = None  # in-process, pychessdraw only
    notes: list[str] = field(default_factory=list)
    times: dict[str, float] = field(default_factory=dict)  # query -> seconds, as the tool timed it


def _times(stdout: str) -> dict[str, float]:
    """Each answer's own time (``time T`` in microseconds, CHA's and the worker's)."""
    times = {}
    for line in stdout.splitlines():
        if line.endswith(")") and " time " in line:
            cut = line.rindex(" (")
            times[line[cut + 2 : -1]] = int(line[:cut].rsplit(" time ", 1)[1].split()[0]) / 1e6
    return times


def _parse(stdout: str) -> dict[str, tuple[str, list[str]]]:
    answers = {}
    for line in stdout.splitlines():
        if line.endswith(")") and " (" in line:
            cut = line.rindex(" (")
            words = line[:cut].split()
            moves = []
            for w in words[1:]:
                if w == "nodes":  # both tools: "... nodes N time T"
                    break
                moves.append(w.rstrip("#+"))
            answers[line[cut + 2 : -1]] = (words[0], moves)
    return answers


def run_tool(
    tool: str, command: list[str], queries: list[str], tree: Path = ROOT, env: dict[str, str] | None = None
) -> Run:
    """One whole process of ``command`` over ``queries`` (pychessdraw imported from ``tree``, ``env`` added)."""
    start, used = time.perf_counter(), _children_cpu()
    done = subprocess.run(
        command,
        input="".join(q + "\n" for q in queries),
        capture_output=True,
        text=True,
        check=True,
        cwd=tree,
        env=_env(env or {}, tree),
    )
    run = Run(tool, time.perf_counter() - start, _children_cpu() - used, _parse(done.stdout), times=_times(done.stdout))
    if "loop " in done.stderr:
        run.loop = float(done.stderr.split("loop ")[1].split()[0])
    missing = [q for q in queries if q not in run.answers]
    if missing:
        raise RuntimeError(f"{tool} gave no answer for {len(missing)} queries, e.g. {missing[0]!r}")
    return run


def _children_cpu() -> float:
    """CPU seconds (user and system) of this process's finished children so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def mates(query: str, moves: list[str]) -> bool:
    """True iff ``moves`` (UCI) are legal from the query's position and end with its side mating.

    CHA leaves out the forced moves it plays first (a side with a single
    legal move): where a move is not legal and the side to move has one
    legal move, that move is played first (a legal move either way)."""
    fen, _, side = query.rpartition(" ")
    board = chess.Board(fen)
    try:
        for uci in moves:
            move = chess.Move.from_uci(uci)
            while move not in board.legal_moves:
                forced = list(board.legal_moves)
                if len(forced) != 1:
                    return False
                board.push(forced[0])
            board.push(move)
    except ValueError:
        return False
    return board.is_checkmate() and board.turn != (side == "white")


def truth(queries: list[str], runs: list[Run], labels: dict[str, bool] | None) -> dict[str, bool | None]:
    """The labels where given, else True where some tool's line replays to a mate (else unknown)."""
    if labels is not None:
        return {q: labels[q] for q in queries}
    out: dict[str, bool | None] = {q: None for q in queries}
    for run in runs:
        for q, (word, moves) in run.answers.items():
            if word == "winnable" and mates(q, moves):
                out[q] = True
    return out


def _refuted(query: str, word: str, runs: list[Run]) -> str:
    """Which other tool's line, replayed by python-chess, shows an
    ``unwinnable`` answer wrong (beyond the label)."""
    if word != "unwinnable":
        return ""
    for run in runs:
        other, moves = run.answers[query]
        if other == "winnable" and mates(query, moves):
            return f" (refuted: {run.tool}'s {len(moves)}-ply line mates, replayed by python-chess)"
    return ""


def report(name: str, queries: list[str], runs: list[Run], known: dict[str, bool | None]) -> None:
    n = len(queries)
    rate, cpu = {}, {}
    for run in runs:
        undecided = sum(1 for q in queries if run.answers[q][0] == "undetermined")
        wrong = []
        for q in queries:
            word, moves = run.answers[q]
            if (word == "winnable" and (known[q] is False or not mates(q, moves))) or (
                word == "unwinnable" and known[q] is True
            ):
                wrong.append(f"{word} for {q}{_refuted(q, word, runs)}")
        rate[run.tool], cpu[run.tool] = n / run.seconds, run.cpu
        inproc = f", in-process {n / run.loop:,.0f}/s" if run.loop else ""
        print(
            f"  {name:>5} {run.tool:>18}: {n:,} questions in {run.seconds:6.2f} s, {rate[run.tool]:8,.0f}/s "
            f"(whole process, {run.cpu:.2f} s CPU){inproc}; decided {(n - undecided) / n:6.1%}, undecided {undecided}, "
            f"wrong {len(wrong)}"
        )
        for w in wrong[:10]:
            print(f"        WRONG {run.tool}: {w}")
    for tool in rate:
        if "CHA" in rate and tool != "CHA":
            print(
                f"  {name:>5} CHA / {tool} questions/s: {rate['CHA'] / rate[tool]:.2f}x (whole processes); "
                f"{tool} / CHA CPU time: {cpu[tool] / cpu['CHA']:.2f}x"
            )
    if name == "hard":
        where_the_time_goes(name, queries, runs)


def where_the_time_goes(name: str, queries: list[str], runs: list[Run]) -> None:
    """Per tool, from each answer's own time: how much went to the questions
    it left undecided; and, for pychessdraw, the budget a side that would
    decide as many questions as CHA, with the time that would take
    (estimated from the same times: a question decided in t seconds is
    decided by any budget of at least t)."""
    decided = {r.tool: [r.times[q] for q in queries if r.answers[q][0] != "undetermined"] for r in runs if r.times}
    cha = next((r for r in runs if r.tool == "CHA" and r.times), None)
    for run in runs:
        if not run.times:
            continue
        spent = sum(run.times[q] for q in queries)
        left = sum(run.times[q] for q in queries if run.answers[q][0] == "undetermined")
        print(
            f"  {name:>5} {run.tool:>18}: {spent:6.1f} s answering, of which {left:.1f} s on the "
            f"{len(queries) - len(decided[run.tool])} questions left undecided"
        )
        if cha and run is not cha and len(decided[run.tool]) >= len(decided["CHA"]):
            budget = sorted(decided[run.tool])[len(decided["CHA"]) - 1]
            cost = sum(min(run.times[q], budget) for q in queries)
            cha_spent = sum(cha.times[q] for q in queries)
            print(
                f"  {name:>5} {run.tool:>18}: CHA's share ({len(decided['CHA']):,} decided) with {budget:.2f} s "
                f"a side, in about {cost:.1f} s: {cost / cha_spent:.1f}x CHA's {cha_spent:.1f} s (estimated)"
            )


def measure(
    name: str,
    queries: list[str],
    labels: dict[str, bool] | None,
    cha: str | None,
    rounds: int,
    base: tuple[str, Path] | None = None,
    compiled: bool = False,
    seconds: float | None = None,
) -> None:
    """``rounds`` runs of each tool (the pure search; the ``compiled`` one if
    built; the ``base`` commit's pychessdraw, extracted in a folder, pure),
    pychessdraw with ``seconds`` a side if given (else ``DEEP``'s)."""
    worker = [sys.executable, "-c", WORKER]
    budget = {"BENCH_SECONDS": str(seconds)} if seconds else {}
    for r in range(rounds):
        # Alternate who goes first, so that a change of load hits both.
        order = [("pychessdraw", worker, ROOT, PURE | budget)] + ([("CHA", [cha], ROOT, {})] if cha else [])
        if compiled:
            order.append(("pychessdraw-native", worker, ROOT, budget))
        if base is not None:
            order.append((f"pychessdraw@{base[0]}", worker, base[1], PURE | budget))
        if r % 2:
            order.reverse()
        runs = sorted(
            (run_tool(tool, cmd, queries, tree, env) for tool, cmd, tree, env in order),
            key=lambda run: (run.tool != "CHA", run.tool != "pychessdraw", run.tool != "pychessdraw-native"),
        )
        print(f"{name}, round {r + 1}:")
        report(name, queries, runs, truth(queries, runs, labels))


def profile(queries: list[str]) -> None:
    """cProfile over ``queries`` in this process, as ``scan --search deep``
    spends it: the search, then each proof line written in SAN (as
    ``final_search.detail`` does); shares of python-chess's board, of our
    code, of SAN writing (cumulative), and process start with the imports
    (a separate ``python -c``, over the whole process's time)."""
    import cProfile
    import pstats

    from pychessdraw.deadposition.solver import can_checkmate  # the pure search (compiled code hides from cProfile)
    from pychessdraw.rules.dead import DEEP

    def work() -> None:
        for q in queries:
            fen, _, side = q.rpartition(" ")
            board = chess.Board(fen)
            v = can_checkmate(board, side == "white", nodes=DEEP.nodes, seconds=DEEP.seconds)
            replay = board.copy(stack=False)
            for move in v.line or ():
                replay.san_and_push(move)

    start = time.perf_counter()
    work()
    plain = time.perf_counter() - start
    prof = cProfile.Profile()
    prof.runcall(work)
    stats = pstats.Stats(prof).stats  # type: ignore[attr-defined]
    total = sum(row[2] for row in stats.values())
    shares = {"python-chess": 0.0, "pychessdraw": 0.0, "other": 0.0}
    san = 0.0
    for (path, _, name), row in stats.items():
        slashed = path.replace("\\", "/")
        where = "python-chess" if "/chess/" in slashed else "pychessdraw" if "/pychessdraw/" in slashed else "other"
        shares[where] += row[2]
        san = row[3] if name == "san_and_push" else san
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-c", WORKER],
        input="",
        capture_output=True,
        check=True,
        cwd=ROOT,
        env=_env(PURE),
    )
    boot = time.perf_counter() - start
    print(
        f"profile of {len(queries):,} questions ({plain:.2f} s in process, {plain / len(queries) * 1000:.2f} ms each): "
        + ", ".join(f"{k} {v / total:.1%}" for k, v in shares.items())
        + f" of the profiled time; SAN writing of the lines {san / total:.1%} (cumulative); "
        f"process start and imports {boot:.2f} s, {boot / (boot + plain):.1%} of a whole process"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=3000, help="real games: final positions of the first N (0: none)")
    ap.add_argument("--hard", type=int, default=300, help="hard-set positions, the first N (0: all 3,414; -1: none)")
    ap.add_argument("--rounds", type=int, default=1, help="runs of each tool on each set, alternating the order")
    ap.add_argument("--cha", help="path of the CHA binary")
    ap.add_argument("--profile", type=int, default=0, help="also profile the first N real-game positions")
    ap.add_argument("--base", help="also run the pychessdraw of this commit (git archive), same questions")
    ap.add_argument("--seconds", type=float, help="pychessdraw's budget a side on the hard set (default: 1 s, DEEP)")
    ap.add_argument("--no-build", action="store_true", help="do not build CHA or pychessdraw-native when missing")
    args = ap.parse_args()
    if not SHARED.exists():
        sys.exit(f"no shared data at {SHARED}")
    cha = find_cha(args.cha, not args.no_build)
    compiled = find_native(not args.no_build)
    print(f"CHA: {cha or 'none (pychessdraw alone)'}; pychessdraw from {ROOT}; python {sys.version.split()[0]}")
    print(f"pychessdraw-native: {'built from this tree' if compiled else 'none (the pure search alone)'}")
    with tempfile.TemporaryDirectory() as folder:
        base = None
        if args.base:
            archive = subprocess.run(
                ["git", "-C", str(ROOT), "archive", args.base, "pychessdraw"], capture_output=True, check=True
            ).stdout
            with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
                tar.extractall(folder)
            base = (args.base, Path(folder))
        run_sets(args, cha, base, compiled)


def run_sets(args: argparse.Namespace, cha: str | None, base: tuple[str, Path] | None, compiled: bool) -> None:
    """The real-game and hard-set measures ``args`` ask for."""
    if args.games > 0:
        queries = real_questions(args.games)
        print(f"real games: final positions of the first {args.games:,} lichess-dev games, {len(queries):,} questions")
        measure("real", queries, None, cha, args.rounds, base, compiled)
        if args.profile:
            profile(queries[: 2 * args.profile])
    if args.hard >= 0:
        queries, labels = hard_questions(args.hard)
        budget = f"{args.seconds} s" if args.seconds else "1 s (DEEP)"
        print(f"hard set: {len(queries) // 2:,} positions, {len(queries):,} questions; pychessdraw {budget} a side")
        measure("hard", queries, labels, cha, args.rounds, base, compiled, args.seconds)


if __name__ == "__main__":
    main()
