"""Audit scaling: the sequential scan, then ``audit`` on a local Dask cluster
with 1 and 2 worker processes, on the same games; and worker memory for a
small and a 4-times larger file.

    python benchmarks/bench_audit.py [--games N] [--pgn FILE] [--chunk-kb K]
    python benchmarks/bench_audit.py --default-chunks [--games N] [--pgn FILE]

Prints games per second for each, the ratios (1 worker against the scan,
2 workers against 1), the peak memory of the workers, games per second per
core, and the cores a lichess month (100 million games) would need to be
audited in 8 hours at that rate. Cluster start-up is not timed (it is paid
once per run, not per game), nor are the workers' first imports. Needs the
audit extra.

``--default-chunks``: what the default chunk size buys: 2 workers on the
first N games with the former fixed 8 MB chunks against the size chosen
from the input and the workers; and the cost of fingerprinting the inputs
(SHA-256 of every byte, when planning and on each resume), on the corpus
files, projected to a 150 MB file and a 30 GB lichess month.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

from dask.distributed import Client

from pychessdraw.batch.audit.run import default_chunk_bytes, fingerprint, local_cluster, run_audit

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_scan import first_games_text  # noqa: E402  (one reader of the first N games)
from pychessdraw.records.scan import scan

DEFAULT_PGN = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "tcec-dev.pgn"
MONTH = 100_000_000
HOURS = 8


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def sequential(path: Path) -> tuple[float, int, int]:
    start = time.perf_counter()
    games = plies = 0
    with open(path, encoding="utf-8") as handle:
        for report in scan(handle):
            games += 1
            plies += report["plies"]
    return time.perf_counter() - start, games, plies


def warm() -> None:
    """Import on a worker what its first task would (start-up, not per-game work)."""
    import pyarrow.parquet  # noqa: F401

    import pychessdraw.batch.audit.work  # noqa: F401


def audited(path: Path, workers: int, chunk_bytes: int) -> tuple[float, int, list[float]]:
    """Seconds, games, and each worker's peak memory (MB), on a fresh cluster."""
    out = Path(tempfile.mkdtemp(prefix="bench-audit-"))
    cluster = local_cluster(workers, host="127.0.0.1")  # as ``audit`` makes its own
    try:
        with Client(cluster) as client:
            client.run(warm)  # workers up, with what the tasks import
            start = time.perf_counter()
            summary = run_audit([str(path)], str(out), client=client, chunk_bytes=chunk_bytes)
            seconds = time.perf_counter() - start
            memory = sorted(client.run(peak_rss_mb).values())
    finally:
        cluster.close()
        shutil.rmtree(out, ignore_errors=True)
    return seconds, summary["games"], memory


def fingerprint_rate(paths: list[Path]) -> None:
    for path in paths:
        if not path.exists():
            continue
        fingerprint(str(path))  # into the page cache: the rate of the hash, not of the disk
        start = time.perf_counter()
        fingerprint(str(path))
        seconds = time.perf_counter() - start
        rate = path.stat().st_size / seconds / 1e6
        print(
            f"fingerprint of {path.name} ({path.stat().st_size / 1e6:.1f} MB): {seconds:.3f} s, {rate:,.0f} MB/s; "
            f"150 MB: {150 / rate:.2f} s, 30 GB: {30_000 / rate:.0f} s (cached)"
        )


def default_chunks(pgn: Path, games: int, rounds: int) -> None:
    """2 workers: the former 8 MB default against the chosen size."""
    folder = Path(tempfile.mkdtemp(prefix="bench-audit-in-"))
    path = folder / "games.pgn"
    path.write_text(first_games_text(pgn, games))
    size = path.stat().st_size
    chosen = default_chunk_bytes(size, 2)
    former, now = [], []
    for _ in range(rounds):  # interleaved: machine noise hits both
        former.append(audited(path, 2, 8 << 20))
        now.append(audited(path, 2, chosen))
    (t_former, g_former, _), (t_now, g_now, _) = min(former), min(now)
    assert g_former == g_now == games, (g_former, g_now, games)
    print(f"{games} games, {size / 1e6:.2f} MB, 2 workers")
    print(f"8 MB chunks (the former default): {t_former:7.2f} s  {games / t_former:7.1f} games/s")
    print(
        f"{chosen / 1024:,.0f} KB chunks (chosen):        {t_now:7.2f} s  {games / t_now:7.1f} games/s  "
        f"({t_former / t_now:.2f}x)"
    )
    shutil.rmtree(folder, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--pgn", type=Path, default=DEFAULT_PGN)
    parser.add_argument("--chunk-kb", type=int, default=64, help="chunk size (small, so that 2 workers share)")
    parser.add_argument("--rounds", type=int, default=2, help="best of N, the three runs interleaved")
    parser.add_argument(
        "--default-chunks",
        action="store_true",
        help="the default chunk size against the former 8 MB, and the inputs' fingerprint",
    )
    args = parser.parse_args()
    if not args.pgn.exists():
        print(f"corpus not found: {args.pgn} (it lives in ../shared beside the checkout)", file=sys.stderr)
        return 1
    if args.default_chunks:
        fingerprint_rate([args.pgn, args.pgn.parent / "lichess-dev.pgn.zst"])
        default_chunks(args.pgn, args.games, args.rounds)
        return 0
    folder = Path(tempfile.mkdtemp(prefix="bench-audit-in-"))
    small = folder / "small.pgn"
    text = first_games_text(args.pgn, args.games)
    small.write_text(text)
    big = folder / "big.pgn"
    big.write_text(text * 4)
    chunk = args.chunk_kb * 1024
    seq, one, two = [], [], []
    for _ in range(args.rounds):  # interleaved: machine noise hits all three
        seq.append(sequential(small))
        one.append(audited(small, 1, chunk))
        two.append(audited(small, 2, chunk))
    t_seq, games, plies = min(seq)
    t_one, g_one, _ = min(one)
    t_two, g_two, mem_two = min(two)
    _, g_big, mem_big = audited(big, 2, chunk)
    assert g_one == g_two == games and g_big == 4 * games, (games, g_one, g_two, g_big)
    print(
        f"games: {games}, plies: {plies} ({plies / games:.0f} a game), {small.stat().st_size / 1e6:.1f} MB, "
        f"chunks of {args.chunk_kb} KB"
    )
    print(f"sequential scan:    {t_seq:7.2f} s  {games / t_seq:7.1f} games/s")
    print(
        f"audit, 1 worker:    {t_one:7.2f} s  {games / t_one:7.1f} games/s  ({t_seq / t_one:.2f}x the sequential scan)"
    )
    print(f"audit, 2 workers:   {t_two:7.2f} s  {games / t_two:7.1f} games/s  ({t_one / t_two:.2f}x 1 worker)")
    print(
        f"worker peak memory: {', '.join(f'{m:.0f}' for m in mem_two)} MB for {small.stat().st_size / 1e6:.1f} MB; "
        f"{', '.join(f'{m:.0f}' for m in mem_big)} MB for {big.stat().st_size / 1e6:.1f} MB (4x the games)"
    )
    per_core = games / t_two / 2
    cores = MONTH / (per_core * HOURS * 3600)
    print(
        f"games per second per core (2 workers): {per_core:.1f}; a month of 100 million games in {HOURS} h "
        f"needs about {cores:,.0f} cores at this rate ({plies / games:.0f}-ply games)"
    )
    shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
