"""Proof on real games: scan, audit, the page's review and an independent peer (CHA) on lichess-dev.

    PYTHONPATH=$PWD python benchmarks/bench_lichess.py [--games N | --all] [--workers 1 2]
        [--skip-audit] [--skip-review] [--skip-cha] [--cha PATH] [--corpus FILE] [--keep DIR] [--core-hour-price USD]

Runs the CLI as users do (``python -m pychessdraw`` in subprocesses, this
checkout first on PYTHONPATH) and prints:

(a) ``pychessdraw scan`` (default search ``auto``): verdicts, and for each
    loss on time the final position, the flagged side and the referee's
    finding about the opponent: unable to mate (``should_be_draw``), able,
    or undecided (``opponent_winnable`` null, no proof either way).
(b) ``pychessdraw audit --workers W`` for each W: every game exactly once,
    the same verdict as the scan's (joined on the game number), games per
    second per core (wall time, cluster start-up included) and per CPU
    second, and the peak resident memory of each worker process (VmHWM of
    the CLI's descendants, sampled from /proc every 0.2 s while it runs).
(r) the page's review, as its workers run it (the bridge's review
    operations with the arguments ``web/src/review/runner.js`` sends, two
    sessions sharing the games, fed 64K-character chunks), in this process:
    every game once, the same verdict and loss-on-time finding as the scan.
(c) CHA on the final position of every loss on time, the flagged side's
    opponent as the intended winner: the positions CHA calls unwinnable
    against the referee's draws; every difference printed with its FEN.
(d) losses on time the referee turns into draws, beside the games lichess
    itself scored 1/2-1/2 on "Time forfeit" (its material table), with
    whether the referee and CHA find one side unable to mate there.
(e) the cost of auditing a lichess month (about 100 million games) on a
    cluster at the measured rate per core.

The sample (``--games``, default 3,000: a few minutes) is the corpus's first
N games written as pzstd writes the lichess database (independent zstd
frames cut at arbitrary bytes, each after a skippable frame giving its
size), so the audit cuts it as it cuts the real file; ``--all`` uses the
corpus file itself. The audit's chunks are sized for about 4 per worker.

CHA (miguel-ambrona/D3-Chess) is built by ``../shared/tools/build_cha.sh``;
by default this looks for ``../cha-build/cha`` beside the checkout, then
``cha`` on PATH. Exit status 1 when a game is missing, duplicated or judged
differently by the audit; differences with CHA are findings, printed.

Limits: timings on a shared machine are noisy (the load average is
printed). The final search's budget is counted in nodes, so every run,
machine and path gives the same answers. The rate depends on the mix of games: the share of losses on time
(each gets a deep search of the opponent) is printed with it.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Iterable, Iterator

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
from pgn_samples import pzstd_bytes  # noqa: E402  (the tests' pzstd writer)
from pychessdraw.batch.inputs import open_text  # noqa: E402  (the package of this checkout)

CORPUS = ROOT.parent / "shared" / "corpus" / "lichess-dev.pgn.zst"
MONTH = 100_000_000
FRAME_BYTES = 256 * 1024  # at most, decompressed, a frame of the sample (lichess's hold ~16 MB)


# -- the sample ------------------------------------------------------------
def lichess_games(path: Path) -> Iterator[str]:
    """The text of each game of a lichess export, in order (every game starts
    with its ``[Event`` tag, as lichess writes them)."""
    lines: list[str] = []
    with open_text(str(path)) as handle:
        for line in handle:
            if line.startswith("[Event ") and lines:
                yield "".join(lines)
                lines = []
            lines.append(line)
    if lines:
        yield "".join(lines)


def write_pzstd(text: str, path: Path, frame_bytes: int | None = None) -> None:
    """``text`` as pzstd lays out a file (frames cut wherever they fall,
    inside a game too), in frames of ``frame_bytes`` input bytes (default:
    enough for 32 frames, 4 KB to 256 KB)."""
    data = text.encode("utf-8")
    path.write_bytes(pzstd_bytes(data, frame_bytes or min(FRAME_BYTES, max(4096, len(data) // 32))))


def sample(corpus: Path, games: int | None, folder: Path) -> Path:
    """The input to measure: the corpus itself (``games`` None) or its first
    ``games`` games as a pzstd file in ``folder``."""
    if games is None:
        return corpus
    texts = []
    for text in lichess_games(corpus):
        if len(texts) == games:
            break
        texts.append(text)
    path = folder / f"lichess-first-{len(texts)}.pgn.zst"
    write_pzstd("".join(texts), path)
    return path


# -- running the CLI -------------------------------------------------------
@dataclass
class Run:
    """One CLI run: wall seconds, CPU seconds of it and its descendants
    (sampled), exit status, standard error, and the peak memory (MB) of each
    process."""

    seconds: float
    cpu: float
    status: int
    stderr: str
    peaks: dict[int, tuple[str, float]] = field(default_factory=dict)

    def workers(self) -> list[float]:
        return sorted(mb for kind, mb in self.peaks.values() if kind == "worker")


def _vm_hwm_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status", encoding="ascii") as handle:
        for line in handle:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return 0.0


def _watch(pid: int, peaks: dict[int, tuple[str, float]], cpu: dict[int, float], stop: threading.Event) -> None:
    """Sample the memory high-water mark and the CPU time of ``pid`` and its
    descendants until ``stop`` (CPU used in a process's last 0.2 s is
    missed). Dask's worker processes are started by multiprocessing's spawn."""
    import psutil  # a dependency of distributed

    while not stop.wait(0.2):
        try:
            root = psutil.Process(pid)
            processes = [root, *root.children(recursive=True)]
        except psutil.Error:
            return
        for proc in processes:
            try:
                kind = (
                    peaks[proc.pid][0]
                    if proc.pid in peaks
                    else (
                        "driver"
                        if proc.pid == pid
                        else "worker"
                        if "spawn_main" in " ".join(proc.cmdline())
                        else "other"
                    )
                )
                peaks[proc.pid] = (kind, max(peaks.get(proc.pid, (kind, 0.0))[1], _vm_hwm_mb(proc.pid)))
                times = proc.cpu_times()
                cpu[proc.pid] = times.user + times.system
            except (psutil.Error, OSError):
                continue  # it ended meanwhile


def run_cli(args: list[str], stdout: IO[bytes] | int = subprocess.DEVNULL) -> Run:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-m", "pychessdraw", *args],
            stdout=stdout,
            stderr=err,
            stdin=subprocess.DEVNULL,
            env=env,
            cwd=ROOT,
        )
        peaks: dict[int, tuple[str, float]] = {}
        cpu: dict[int, float] = {}
        stop = threading.Event()
        watcher = threading.Thread(target=_watch, args=(proc.pid, peaks, cpu, stop), daemon=True)
        watcher.start()
        status = proc.wait()
        seconds = time.perf_counter() - start
        stop.set()
        watcher.join()
        err.seek(0)
        stderr = err.read().decode("utf-8", "replace")
    return Run(seconds, sum(cpu.values()), status, stderr, peaks)


# -- (a) the scan ----------------------------------------------------------
@dataclass
class Game:
    """What the benchmark keeps of one scan report."""

    number: int
    verdict: str
    site: str
    termination: str
    result: str
    fen: str | None
    flag_fall: dict[str, str] | None
    forfeit: dict[str, Any] | None

    @property
    def finding(self) -> str:
        """For a loss on time: draw, win or undecided (the opponent's chances)."""
        assert self.forfeit is not None
        if self.forfeit["should_be_draw"]:
            return "draw"
        return "undecided" if self.forfeit["opponent_winnable"] is None else "win"

    def flagged(self) -> str:
        assert self.forfeit is not None
        return str(self.forfeit["flagged"])


def read_scan(lines: Iterable[str]) -> dict[int, Game]:
    games = {}
    for line in lines:
        report = json.loads(line)
        headers, final = report["headers"], report["final"] or {}
        games[report["game"]] = Game(
            report["game"],
            report["verdict"],
            headers.get("Site", "?"),
            headers.get("Termination", ""),
            headers.get("Result", "*"),
            final.get("fen"),
            final.get("flag_fall"),
            report["time_forfeit"],
        )
    return games


def run_scan(path: Path, folder: Path) -> tuple[Run, dict[int, Game]]:
    out = folder / "scan.jsonl"
    with open(out, "wb") as handle:
        run = run_cli(["scan", str(path), "--no-progress"], handle)
    with open(out, encoding="utf-8") as handle:
        return run, read_scan(handle)


def print_scan(run: Run, games: dict[int, Game]) -> None:
    n = len(games)
    print(
        f"(a) scan (search auto): {n:,} games in {run.seconds:.1f} s, {n / run.seconds:,.1f} games/s "
        f"on one core ({n / run.cpu:,.1f} per CPU second), exit {run.status}, "
        f"peak memory {max(mb for _, mb in run.peaks.values()):.0f} MB"
    )
    print(
        "    verdicts: "
        + ", ".join(f"{k} {v:,}" for k, v in sorted(Counter(g.verdict for g in games.values()).items()))
    )
    lost = [g for g in games.values() if g.forfeit is not None]
    findings = Counter(g.finding for g in lost)
    print(
        f"    losses on time ({len(lost):,}, {len(lost) / max(1, n):.0%} of the games): opponent unable to mate "
        f"(should_be_draw) {findings['draw']:,}, able {findings['win']:,}, undecided {findings['undecided']:,}"
    )
    for g in sorted(lost, key=lambda g: g.number):
        if g.finding != "win":
            print(f"      game {g.number} {g.site} {g.flagged()} flagged, {g.finding}, verdict {g.verdict}: {g.fen}")


# -- (b) the audit ---------------------------------------------------------
def check_audit(folder: Path, games: dict[int, Game]) -> list[str]:
    """Problems of an audit's dataset against the scan: games missing,
    duplicated, unknown, or with another verdict."""
    import pyarrow.parquet as pq

    rows = pq.read_table(folder, columns=["game", "verdict"]).to_pylist()
    seen = Counter(r["game"] for r in rows)
    problems = [f"game {g} appears {c} times" for g, c in sorted(seen.items()) if c > 1]
    problems += [f"game {g} is missing" for g in sorted(set(games) - set(seen))]
    problems += [f"game {g} is not in the scan" for g in sorted(set(seen) - set(games))]
    problems += [
        f"game {r['game']}: audit {r['verdict']}, scan {games[r['game']].verdict}"
        for r in rows
        if r["game"] in games and r["verdict"] != games[r["game"]].verdict
    ]
    return problems


def audit(path: Path, count: int, out: Path) -> tuple[Run, float]:
    """``pychessdraw audit`` with ``count`` workers and about 4 chunks a
    worker (the input allowing: pzstd chunks are runs of whole frames)."""
    chunk_mb = max(0.001, path.stat().st_size / (1 << 20) / (4 * count))
    shutil.rmtree(out, ignore_errors=True)  # a fresh run, not a resume of a kept one
    return run_cli(
        [
            "audit",
            str(path),
            "--out",
            str(out),
            "--workers",
            str(count),
            "--no-progress",
            "--chunk-mb",
            f"{chunk_mb:.4f}",
        ]
    ), chunk_mb


def run_audits(
    path: Path, workers: list[int], folder: Path, games: dict[int, Game]
) -> tuple[dict[int, tuple[float, float]], bool]:
    """Audit with each worker count; check it against the scan; print the
    figures. Returns the games per second per core of each (wall time,
    cluster start-up included: a few seconds, small on the whole file) and
    per CPU second, and whether every check passed."""
    rates, ok = {}, True
    for count in workers:
        out = folder / f"audit-{count}"
        run, chunk_mb = audit(path, count, out)
        finished = run.status in (0, 1)  # 1: some game is an error, which the scan reports too
        problems = check_audit(out, games) if finished else [f"exit {run.status}: {run.stderr[-2000:]}"]
        chunks = json.loads((out / "_summary.json").read_text())["chunks"] if finished else "?"
        n = len(games)
        rates[count] = (n / run.seconds / count, n / run.cpu)
        print(
            f"(b) audit, {count} worker(s), {chunks} chunks of {chunk_mb:.2f} MB: {run.seconds:.1f} s, exit {run.status}; "
            f"{rates[count][0]:,.1f} games/s per core (start-up included), {rates[count][1]:,.1f} games per CPU second"
        )
        print(
            f"    peak memory: workers {', '.join(f'{mb:.0f}' for mb in run.workers())} MB, "
            f"driver {max((mb for k, mb in run.peaks.values() if k == 'driver'), default=0):.0f} MB"
        )
        print(f"    every game exactly once, verdicts equal to the scan's: {'yes' if not problems else 'NO'}")
        for problem in problems[:50]:
            print(f"      {problem}")
        ok = ok and not problems
    return rates, ok


# -- (r) the page's review ---------------------------------------------------
PAGE_CHUNK = 64 * 1024  # characters the page sends a review_feed
PAGE_PARTS = 2  # review workers the page starts on a 2-core machine


def page_review(path: Path, parts: int = PAGE_PARTS) -> list[dict[str, Any]]:
    """The reports of the page's review of ``path``: the bridge's review
    operations with the arguments the page's runner sends
    (web/src/review/runner.js), ``parts`` sessions sharing the games (one a
    worker), each fed every chunk of ``PAGE_CHUNK`` characters."""
    from pychessdraw.web.review import ReviewOps

    sessions = [ReviewOps() for _ in range(parts)]
    results = []
    for part, ops in enumerate(sessions):
        results += ops.start({"flag_rules": "fide", "start": 1, "part": part, "parts": parts})["results"]
    with open_text(str(path)) as handle:
        while text := handle.read(PAGE_CHUNK):
            for ops in sessions:
                results += ops.feed({"text": text})["results"]
    for ops in sessions:
        results += ops.finish({})["results"]
    return [json.loads(result["line"]) for result in results]


def finding(report: dict[str, Any]) -> tuple[Any, ...]:
    """What must agree between two paths for one game: the verdict, and for
    a loss on time the finding about the winner's chances."""
    forfeit = report["time_forfeit"] or {}
    return (
        report["verdict"],
        report["expected_result"],
        report["ended_at"],
        forfeit.get("should_be_draw"),
        forfeit.get("opponent_winnable"),
    )


def review_section(path: Path, folder: Path) -> bool:
    """Times the page's review and compares it with the scan, game by game."""
    start, cpu = time.perf_counter(), time.process_time()
    reviewed = page_review(path)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    with open(folder / "scan.jsonl", encoding="utf-8") as handle:
        scanned = {r["game"]: finding(r) for r in map(json.loads, handle)}
    seen = Counter(r["game"] for r in reviewed)
    problems = [f"game {g} appears {c} times" for g, c in sorted(seen.items()) if c > 1]
    problems += [f"game {g} is missing" for g in sorted(set(scanned) - set(seen))]
    problems += [
        f"game {r['game']}: review {finding(r)}, scan {scanned.get(r['game'])}"
        for r in reviewed
        if finding(r) != scanned.get(r["game"])
    ]
    print(
        f"(r) the page's review (in this process, {PAGE_PARTS} sessions one after the other): "
        f"{len(reviewed):,} reports in {seconds:.1f} s ({len(reviewed) / cpu:,.1f} games per CPU second); "
        + (
            "every game once, verdicts and findings equal to the scan's"
            if not problems
            else f"{len(problems)} problem(s)"
        )
    )
    for problem in problems[:20]:
        print(f"      {problem}")
    return not problems


# -- (c) CHA ---------------------------------------------------------------
def find_cha(given: str | None) -> str | None:
    if given:
        return given
    beside = ROOT.parent / "cha-build" / "cha"
    return str(beside) if beside.exists() else shutil.which("cha")


def run_cha(cha: str, queries: set[str]) -> tuple[dict[str, str], float]:
    """CHA's answer (``winnable``, ``unwinnable``, ``undetermined``) to each
    ``FEN white|black`` query (full analysis, its default node limit), and
    the seconds it took."""
    if not queries:
        return {}, 0.0
    start = time.perf_counter()
    proc = subprocess.run(
        [cha], input="".join(q + "\n" for q in sorted(queries)), capture_output=True, text=True, check=True
    )
    seconds = time.perf_counter() - start
    answers = {}
    for line in proc.stdout.splitlines():
        # "<answer> [moves] nodes N time T (<query>)": the query is echoed
        if line.endswith(")") and " (" in line:
            answers[line[line.rindex(" (") + 2 : -1]] = line.split()[0]
    missing = queries - set(answers)
    if missing:
        raise RuntimeError(f"CHA gave no answer for {len(missing)} queries, e.g. {sorted(missing)[0]!r}")
    return answers, seconds


def _opponent(color: str) -> str:
    return "black" if color == "white" else "white"


def compare_cha(games: dict[int, Game], answers: dict[str, str]) -> int:
    """Print the referee's findings on losses on time against CHA's; return
    the number of differences on unwinnability (missed or extra draws)."""
    lost = sorted((g for g in games.values() if g.forfeit is not None and g.fen), key=lambda g: g.number)
    table: Counter[tuple[str, str]] = Counter()
    differences = []
    for g in lost:
        cha = answers[f"{g.fen} {_opponent(g.flagged())}"]
        table[(g.finding, cha)] += 1
        if (g.finding == "draw") != (cha == "unwinnable") or g.finding == "undecided":
            differences.append((g, cha))
    columns = ("unwinnable", "winnable", "undetermined")
    print(f"(c) CHA on {len(lost):,} final positions of losses on time (the flagged side's opponent to mate):")
    corner = "referee \\ CHA"
    print(f"    {corner:<16}" + "".join(f"{c:>14}" for c in columns))
    for finding in ("draw", "win", "undecided"):
        print(f"    {finding:<16}" + "".join(f"{table[(finding, c)]:>14,}" for c in columns))
    missed = sum(1 for g, cha in differences if cha == "unwinnable" and g.finding != "draw")
    extra = sum(1 for g, cha in differences if g.finding == "draw" and cha != "unwinnable")
    print(
        f"    unwinnable for CHA and a draw for the referee: {table[('draw', 'unwinnable')]:,}; "
        f"missed by the referee: {missed}; extra (a draw CHA does not confirm): {extra}"
    )
    for g, cha in differences:
        print(
            f"      game {g.number} {g.site}: referee {g.finding}, CHA {cha}, {_opponent(g.flagged())} to mate: {g.fen}"
        )
    return missed + extra


# -- (d) lichess's draws ---------------------------------------------------
def lichess_draws(games: dict[int, Game]) -> list[Game]:
    return sorted(
        (g for g in games.values() if g.termination == "Time forfeit" and g.result == "1/2-1/2"), key=lambda g: g.number
    )


def print_draws(games: dict[int, Game], answers: dict[str, str] | None) -> None:
    """Losses on time the referee turns into draws beside lichess's own
    draws on time. For lichess's, the record does not say whose flag fell:
    the referee agrees when a flag fall of either side is a draw in the
    scan's final status (the cheap proofs only: the scan searches no deeper
    for a drawn record), CHA when either side cannot mate."""
    turned = [g for g in games.values() if g.forfeit is not None and g.forfeit["should_be_draw"]]
    draws = lichess_draws(games)
    referee = [g for g in draws if g.flag_fall is None or "1/2-1/2" in g.flag_fall.values()]
    print(
        f"(d) losses on time the referee turns into draws: {len(turned):,}; "
        f"games lichess scored 1/2-1/2 on time forfeit: {len(draws):,}"
    )
    print(f"    of lichess's draws on time, a flag fall of one side is a draw for the referee in {len(referee):,}")
    if answers is not None:
        cha = [g for g in draws if g.fen and any(answers[f"{g.fen} {c}"] == "unwinnable" for c in ("white", "black"))]
        print(f"    and CHA finds one side unable to mate in {len(cha):,}")
    for g in draws:
        if g not in referee:
            print(f"      game {g.number} {g.site}: lichess draw, the referee's flag falls {g.flag_fall}: {g.fen}")


def cha_section(cha: str | None, games: dict[int, Game]) -> tuple[dict[str, str] | None, int]:
    if cha is None:
        print("(c) CHA not found: build it with ../shared/tools/build_cha.sh into ../cha-build, or pass --cha")
        return None, 0
    queries = {f"{g.fen} {_opponent(g.flagged())}" for g in games.values() if g.forfeit is not None and g.fen}
    queries |= {f"{g.fen} {c}" for g in lichess_draws(games) if g.fen for c in ("white", "black")}
    answers, seconds = run_cha(cha, queries)
    print(f"    CHA answered {len(queries):,} distinct questions in {seconds:.1f} s ({cha})")
    return answers, compare_cha(games, answers)


# -- (e) a lichess month ---------------------------------------------------
def print_projection(per_core: float, per_cpu: float, workers: int, price: float) -> None:
    """Two rates: the wall time per core (start-up and a shared machine's
    waits included: an upper bound on the cost) and per CPU second (what a
    dedicated core achieves)."""
    print(f"(e) a lichess month ({MONTH:,} games), from the audit with {workers} worker(s):")
    for rate, what in (
        (per_core, "games/s per core, wall time with start-up"),
        (per_cpu, "games per CPU second, a dedicated core"),
    ):
        core_hours = MONTH / rate / 3600
        print(
            f"    at {rate:,.1f} {what}: {core_hours:,.0f} core-hours, {core_hours / 8:,.0f} cores for 8 hours, "
            f"{core_hours / 24:,.0f} for a day, about ${core_hours * price:,.0f} at ${price}/core-hour"
        )
    print("    (the price is an assumption: pass --core-hour-price)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--games", type=int, default=3000, help="the first N games (default 3,000)")
    size.add_argument("--all", action="store_true", help="the whole corpus file")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2], help="audit worker counts (default 1 2)")
    parser.add_argument("--skip-audit", action="store_true")
    parser.add_argument("--skip-cha", action="store_true")
    parser.add_argument("--skip-review", action="store_true")
    parser.add_argument("--cha", help="the CHA binary (default ../cha-build/cha, then cha on PATH)")
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--keep", type=Path, help="keep the sample, the scan output and the audits here")
    parser.add_argument("--core-hour-price", type=float, default=0.04, help="USD per core-hour for (e)")
    args = parser.parse_args()
    if not args.corpus.exists():
        print(f"corpus not found: {args.corpus} (it lives in ../shared beside the checkout)", file=sys.stderr)
        return 1
    folder = args.keep or Path(tempfile.mkdtemp(prefix="bench-lichess-"))
    folder.mkdir(parents=True, exist_ok=True)
    try:
        return measure(args, folder)
    finally:
        if args.keep is None:
            shutil.rmtree(folder, ignore_errors=True)


def measure(args: argparse.Namespace, folder: Path) -> int:
    path = sample(args.corpus, None if args.all else args.games, folder)
    print(
        f"input: {path.name} ({path.stat().st_size / 1e6:.1f} MB), load average {os.getloadavg()[0]:.2f} "
        f"on {os.cpu_count()} cores, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}"
    )
    scan_run, games = run_scan(path, folder)
    print_scan(scan_run, games)
    ok = scan_run.status in (0, 1) and bool(games)
    if not args.skip_audit:
        rates, audited = run_audits(path, args.workers, folder, games)
        ok = ok and audited
    if not args.skip_review:
        ok = review_section(path, folder) and ok
    answers, differences = (None, 0) if args.skip_cha else cha_section(find_cha(args.cha), games)
    print_draws(games, answers)
    if not args.skip_audit:
        most = max(args.workers)
        print_projection(*rates[most], most, args.core_hour_price)
    print(
        f"load average at the end: {os.getloadavg()[0]:.2f}; audit checks {'passed' if ok else 'FAILED'}; "
        f"{differences} difference(s) with CHA on unwinnability"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
