"""The audit job: plan chunks, count and audit them on Dask, keep a manifest.

The driver only plans and bookkeeps; workers read the inputs themselves
(with a remote scheduler, every worker must see the input and output paths).
The manifest (``_manifest.json`` in the output directory) records the
options, a fingerprint of every input, every chunk, its game numbers and its
summary once its Parquet file is complete; it is rewritten (atomically)
after each chunk, so an interrupted run resumes where it stopped: finished
chunks are skipped.

A resume first checks that every input is still the file that was planned
(:func:`fingerprint`); a changed input is refused with a
:class:`~pychessdraw.errors.FileError` naming it, so old and new rows never
mix. An output that cannot be written (disk full, read-only) stops the run
with a ``FileError``; the chunks not recorded as done are redone by the next
run, and no temporary file is left behind.
"""

from __future__ import annotations

import glob
import hashlib
import json
import os
import stat
import sys
import uuid
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any, TextIO

import dask
from dask.distributed import Client, LocalCluster, as_completed

from ...errors import BadRequestError, FileError, InternalError, RefereeError
from ...records.judge import UNDECIDED, VERDICTS
from ..inputs import STDIN, expand
from ..progress import Progress
from .chunks import Chunk, plan
from .lock import OutputLock
from .work import audit_chunk, count_games, failed, part_name, write_atomically

MANIFEST = "_manifest.json"  # "_": Parquet readers skip it
SUMMARY = "_summary.json"
VERSION = 2  # 2: inputs fingerprinted, chunk size chosen from the input size and the workers

MIN_CHUNK = 64 << 10  # ~60 games, ~0.4 s of work: its task and Parquet file stay a small overhead
MAX_CHUNK = 64 << 20  # the granularity of a resume, and of a redo after a worker dies
CHUNKS_PER_WORKER = 4  # so that the last chunks do not leave workers idle for long
CONNECT_TIMEOUT = 5  # seconds to reach a --scheduler before saying so
HASH_BLOCK = 1 << 20


def default_chunk_bytes(total: int, workers: int) -> int:
    """The chunk size when none is given: ``CHUNKS_PER_WORKER`` chunks per
    worker over ``total`` input bytes, within ``[MIN_CHUNK, MAX_CHUNK]``.

    Sizes are of the files as stored, so for a compressed input a chunk
    holds several times more games than the same size of plain PGN. A chunk
    of zstd is a run of whole frames (as near the size asked as frames allow), so a file
    of few large frames gives at most one chunk per frame; gzip and
    single-frame zstd files are one chunk whatever the size."""
    share = total // max(1, workers * CHUNKS_PER_WORKER)
    return max(MIN_CHUNK, min(MAX_CHUNK, share))


def fingerprint(path: str) -> dict[str, Any]:
    """What identifies the content of ``path``: its size, modification time
    (ns) and the SHA-256 of all its bytes.

    A hash of the whole content, not of samples: a same-size rewrite keeping
    the modification time is caught wherever it changes a byte. It costs one
    sequential read when planning and on each resume: SHA-256 ran at
    0.4-1.6 GB/s on this 2-core machine (busy to idle), 0.1-0.4 s for
    150 MB from the page cache (``benchmarks/bench_audit.py
    --default-chunks``); a 30 GB lichess month is a minute or two, beside
    hours of audit. Raises FileError for a file that is not a regular file
    (workers read byte ranges: a device or a pipe cannot be cut)."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise FileError(f"{path} is not a regular file (audit workers read files by byte ranges)", file=path)
        left = info.st_size  # not past the size stat saw: a file growing now is caught by the workers
        while left > 0:
            block = handle.read(min(HASH_BLOCK, left))
            if not block:
                break
            digest.update(block)
            left -= len(block)
    return {"size": info.st_size, "mtime_ns": info.st_mtime_ns, "sha256": digest.hexdigest()}


def _changed(path: str, recorded: dict[str, Any] | None) -> str | None:
    """Why ``path`` is no longer the input fingerprinted as ``recorded``
    (None: it is). A new modification time over the same bytes is the same
    input: ``recorded`` takes the new time (the workers check it)."""
    try:
        current = fingerprint(path)
    except (OSError, FileError) as exc:
        if recorded is None:
            return None  # unreadable then and now: the summary reports it again
        return f"it cannot be read now ({getattr(exc, 'strerror', None) or exc})"
    if recorded is None:
        return "it could not be read when the audit began"
    if current["size"] != recorded["size"]:
        return f"its size was {recorded['size']:,} bytes and is now {current['size']:,}"
    if current["sha256"] != recorded["sha256"]:
        touched = "a new" if current["mtime_ns"] != recorded["mtime_ns"] else "the same"
        return f"its content differs (same size, {touched} modification time)"
    recorded["mtime_ns"] = current["mtime_ns"]
    return None


def _check_inputs(manifest: dict[str, Any], out: str) -> None:
    for path, recorded in zip(manifest["options"]["inputs"], manifest["files"], strict=False):
        why = _changed(path, recorded)
        if why is not None:
            raise FileError(
                f"{path} changed since the audit in {out} began: {why}; its rows there would not "
                f"match it. Audit it into another --out directory, or remove {out}",
                file=path,
            )


def _recheck(manifest: dict[str, Any], manifest_path: str) -> None:
    """Before the run's summary: every input still holds the bytes it held
    when planned, by content (a rewrite that kept the size and the
    modification time passed the workers' check and mixed old and new
    rows). A changed input's chunks go back to pending and FileError names it."""
    for index, (path, recorded) in enumerate(zip(manifest["options"]["inputs"], manifest["files"], strict=False)):
        if recorded is None:
            continue
        why = _changed(path, dict(recorded))
        if why is None:
            continue
        for entry in manifest["chunks"]:
            if entry["file_index"] == index:
                entry["status"], entry["summary"] = "pending", None
        _write_json(manifest_path, manifest)
        raise FileError(
            f"{path} changed during the audit: {why}; its rows would not match it. "
            "Audit it again into a new --out directory",
            file=path,
        )


def _write_json(path: str, data: dict[str, Any]) -> None:
    """Write ``data`` to ``path`` atomically; FileError (and no temporary
    file left) if it cannot be written."""

    def dump(temporary: str) -> None:
        with open(temporary, "w", encoding="utf-8") as handle:
            json.dump(data, handle, indent=1)

    write_atomically(path, dump)


def _sweep(out: str) -> None:
    """Remove the temporary files of writers that were killed (a worker's
    Parquet file, a driver's manifest): no task of this run is left to
    finish them."""
    patterns = (".part-*.parquet.tmp-*", f".{MANIFEST}.tmp-*", f".{SUMMARY}.tmp-*")
    found = [glob.glob(os.path.join(glob.escape(out), pattern)) for pattern in patterns]
    for temporary in sum(found, []):
        try:
            os.remove(temporary)
        except OSError:
            pass  # gone already, or the directory is read-only: readers skip hidden files anyway


def _plan_all(files: list[str], chunk_bytes: int) -> dict[str, Any]:
    entries: list[dict[str, Any]] = []
    problems: list[str] = []
    prints: list[dict[str, Any] | None] = []
    for file_index, path in enumerate(files):
        chunks: list[Chunk] = []
        found: dict[str, Any] | None = None
        try:
            found = fingerprint(path)  # before planning: the plan is of these bytes
            chunks = plan(path, chunk_bytes)
        except RefereeError as exc:
            problems.append(exc.message)
        except OSError as exc:
            problems.append(f"cannot read {path!r}: {exc.strerror or exc}")
        prints.append(found)
        for chunk in chunks:
            entries.append(
                {
                    "chunk": chunk.to_dict(),
                    "file_index": file_index,
                    "output": part_name(chunk, file_index),
                    "first_game": 1 if chunk.index == 0 else None,
                    "games": None,
                    "status": "pending",
                    "summary": None,
                }
            )
    return {"chunk_bytes": chunk_bytes, "files": prints, "chunks": entries, "file_errors": problems}


def _load(out: str, options: dict[str, Any]) -> dict[str, Any] | None:
    """The manifest of an earlier run in ``out`` (None if there is none),
    once its options and inputs are checked to be this run's."""
    path = os.path.join(out, MANIFEST)
    if not os.path.exists(path):
        return None
    try:
        with open(path, encoding="utf-8") as handle:
            manifest: dict[str, Any] = json.load(handle)
    except (OSError, ValueError) as exc:
        raise FileError(f"cannot read {path}: {exc}; remove it to start the audit again", file=path) from None
    if manifest.get("version") != VERSION:
        raise BadRequestError(
            f"{out} holds an audit by another version of pychessdraw ({path}); "
            "choose another --out directory or remove it"
        )
    if manifest.get("options") != options:
        raise BadRequestError(
            f"{out} holds an audit of other inputs or options ({path}); choose another --out directory or remove it"
        )
    _check_inputs(manifest, out)
    return manifest


class _Progress(Progress):
    """Chunks done of ``total``, shown after each one."""

    def __init__(self, stream: TextIO, enabled: bool, total: int) -> None:
        super().__init__(stream, enabled, every=0)
        self.total, self.chunks = total, 0

    def update(self, summary: dict[str, Any]) -> None:
        self.chunks += 1
        self.add(summary["games"], summary["plies"])

    def line(self, seconds: float) -> str:
        return (
            f"{self.chunks}/{self.total} chunks, {self.games:,} games, "
            f"{self.plies:,} plies, {self.games / seconds:,.0f} games/s "
        )

    def done(self) -> str:
        return "\n"


def local_cluster(workers: int | None = None, **options: Any) -> LocalCluster:
    """A LocalCluster of ``workers`` processes (default: one per core), one
    thread each, without the dashboard and its statistical profiler (which
    samples every task's stack every 10 ms: 2% of a one-worker audit)."""
    with dask.config.set({"distributed.worker.profile.enabled": False}):
        return LocalCluster(
            n_workers=workers or os.cpu_count() or 1,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            **options,
        )


def _client(workers: int | None, scheduler: str | None, stream: TextIO) -> tuple[Client, LocalCluster | None]:
    if scheduler:
        try:
            return Client(scheduler, timeout=CONNECT_TIMEOUT), None
        except (OSError, ValueError, TypeError) as exc:  # nobody listening, a bad address
            raise BadRequestError(
                f"cannot reach the Dask scheduler at {scheduler} within {CONNECT_TIMEOUT} s: {exc}", scheduler=scheduler
            ) from None
    cluster = start_local(workers or os.cpu_count() or 1, stream)
    return Client(cluster), cluster


def start_local(workers: int, stream: TextIO) -> LocalCluster:
    """A local cluster of ``workers`` processes, or of fewer: a worker that
    dies while the cluster starts (an OOM kill: Dask's "Nanny failed to
    start") is started again once, then left out, one at a time, and the
    run says so on ``stream``. InternalError (in our words) when not even
    one worker starts."""
    count, tries = workers, 0
    while True:
        try:
            return local_cluster(count)
        except Exception as exc:  # RuntimeError("Nanny failed to start."), OSError, TimeoutError
            why = f"{type(exc).__name__}: {exc}"
        tries += 1
        if count == 1 and tries > 1:
            raise InternalError(f"no audit worker could start ({why})") from None
        if tries > 1:
            count -= 1
        left = f"left out: {count} of {workers}" if count < workers else f"started again ({count})"
        _note(stream, f"pychessdraw: audit: a worker died while the cluster started ({why}); workers {left}")


def _note(stream: TextIO, line: str) -> None:
    try:
        stream.write(line + "\n")
        stream.flush()
    except (OSError, ValueError):
        pass  # standard error is gone: the summary still tells


class _Cluster:
    """The Dask client: the one given, or one made when first needed (a
    resume with nothing left to do, or a plan that fails, starts none)."""

    def __init__(self, workers: int | None, scheduler: str | None, client: Client | None, stream: TextIO) -> None:
        self.workers, self.scheduler, self.given, self.stream = workers, scheduler, client, stream
        self.made: Client | None = None
        self.local: LocalCluster | None = None

    def client(self) -> Client:
        if self.given is not None:
            return self.given
        if self.made is None:
            self.made, self.local = _client(self.workers, self.scheduler, self.stream)
        return self.made

    def slots(self) -> int:
        """Tasks that run at once: the threads of the workers (those
        connected to a remote scheduler now; at least 1)."""
        if self.given is None and not self.scheduler:
            return self.workers or os.cpu_count() or 1
        return sum(self.client().nthreads().values()) or 1

    def close(self) -> None:
        if self.made is not None:
            self.made.close()
        if self.local is not None:
            self.local.close()


def _inputs(inputs: Sequence[str], out: str) -> list[str]:
    names = list(expand(inputs))
    if not names:
        raise BadRequestError("no input files")
    if STDIN in names:
        raise BadRequestError("audit reads files (workers open them): save standard input to a file first")
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as exc:
        raise FileError(f"cannot make the output directory {out}: {exc.strerror or exc}", file=out) from None
    return _once(os.path.abspath(name) for name in names)


def _once(paths: Iterable[str]) -> list[str]:
    """Each file once, however it is named (twice, by a link, by a path with
    ``..``): a file named twice gave every game twice."""
    seen: set[tuple[int, int] | str] = set()
    found = []
    for path in paths:
        try:
            info = os.stat(path)
            identity: tuple[int, int] | str = (info.st_dev, info.st_ino)
        except OSError:
            identity = os.path.realpath(path)  # missing: planning reports it, once
        if identity not in seen:
            seen.add(identity)
            found.append(path)
    return found


def _total_size(files: list[str]) -> int:
    total = 0
    for path in files:
        try:
            total += os.path.getsize(path)
        except OSError:
            pass  # planning reports it
    return total


def run_audit(
    inputs: Sequence[str],
    out: str,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    search: str = "auto",
    flag_rules: str = "fide",
    chunk_bytes: int | None = None,
    progress: bool = False,
    stream: TextIO = sys.stderr,
    client: Client | None = None,
) -> dict[str, Any]:
    """Audit every game of ``inputs`` into the Parquet dataset ``out``;
    return the summary (also written to ``out/_summary.json``).

    ``client``: an existing Dask client (tests); otherwise one is made for
    ``scheduler`` or a LocalCluster of ``workers`` processes. ``chunk_bytes``:
    None chooses it from the input size and the workers
    (:func:`default_chunk_bytes`; a resume keeps the first run's plan,
    whatever its workers). Raises FileError when an input changed since the
    run that ``out`` holds, or when the output cannot be written."""
    files = _inputs(inputs, out)
    with OutputLock(out):  # a second run into ``out`` is refused, naming this one
        options = {"inputs": files, "search": search, "flag_rules": flag_rules, "chunk_bytes": chunk_bytes}
        cluster = _Cluster(workers, scheduler, client, stream)
        return _run(out, options, cluster, progress, stream)


def _run(out: str, options: dict[str, Any], cluster: _Cluster, progress: bool, stream: TextIO) -> dict[str, Any]:
    files, search, flag_rules, chunk_bytes = (options[k] for k in ("inputs", "search", "flag_rules", "chunk_bytes"))
    manifest_path = os.path.join(out, MANIFEST)
    manifest = _load(out, options)
    try:
        if manifest is None:
            target = chunk_bytes or default_chunk_bytes(_total_size(files), cluster.slots())
            manifest = {"version": VERSION, "options": options, **_plan_all(files, target)}
            _write_json(manifest_path, manifest)
        todo = [
            e for e in manifest["chunks"] if e["status"] != "done" or not os.path.exists(os.path.join(out, e["output"]))
        ]
        if todo:
            _execute(cluster.client(), manifest, todo, out, search, flag_rules, _Progress(stream, progress, len(todo)))
            _recheck(manifest, manifest_path)
    finally:
        cluster.close()
        _sweep(out)
    summary = summarize(manifest)
    _write_json(os.path.join(out, SUMMARY), summary)
    return summary


def _execute(
    client: Client,
    manifest: dict[str, Any],
    todo: list[dict[str, Any]],
    out: str,
    search: str,
    flag_rules: str,
    bar: _Progress,
) -> None:
    """Number the chunks, audit those of ``todo`` and record each in the
    manifest as it completes. A chunk whose output cannot be written stops
    the run (FileError): the others are cancelled and stay pending."""
    manifest_path = os.path.join(out, MANIFEST)
    _number(client, manifest["chunks"], manifest, manifest_path)
    futures = {}
    for entry in todo:
        target = os.path.join(os.path.abspath(out), entry["output"])
        expect = manifest["files"][entry["file_index"]]
        future = client.submit(
            audit_chunk,
            entry["chunk"],
            entry["first_game"],
            target,
            search,
            flag_rules,
            expect,
            key=f"audit-{entry['output']}-{uuid.uuid4().hex[:12]}",
        )
        futures[future] = entry
    try:
        for future in as_completed(futures):
            entry = futures[future]
            try:
                summary = future.result()
            except FileError:
                raise  # the output cannot be written: the next chunks could not either
            except Exception as exc:  # e.g. KilledWorker after repeated crashes
                summary = failed(f"{Chunk.from_dict(entry['chunk']).name}: {type(exc).__name__}: {exc}")
            entry["status"] = summary["status"]
            entry["summary"] = summary
            _write_json(manifest_path, manifest)
            bar.update(summary)
    except BaseException:
        try:
            client.cancel(list(futures))
        except Exception:
            pass  # the scheduler is gone: nothing left to cancel, and the first error says why
        raise
    finally:
        bar.close()


def _number(client: Client, entries: list[dict[str, Any]], manifest: dict[str, Any], path: str) -> None:
    """Give each chunk the number of its first game: count the games of the
    earlier chunks of its file (a cheap pass: no replay)."""
    need = [
        e
        for e in entries
        if e["games"] is None
        and any(o["file_index"] == e["file_index"] and o["chunk"]["index"] > e["chunk"]["index"] for o in entries)
    ]
    if need:
        futures = client.map(_safe_count, [e["chunk"] for e in need], pure=False)
        for entry, counted in zip(need, client.gather(futures), strict=False):
            entry["games"] = counted
    by_file: dict[int, list[dict[str, Any]]] = {}
    for entry in entries:
        by_file.setdefault(entry["file_index"], []).append(entry)
    for chunks in by_file.values():
        chunks.sort(key=lambda e: e["chunk"]["index"])
        number = 1
        for entry in chunks:
            entry["first_game"] = number
            number += entry["games"] or 0
    _write_json(path, manifest)


def _safe_count(chunk: dict[str, Any]) -> int:
    try:
        return count_games(chunk)
    except Exception:
        return 0  # unreadable: its audit reports the error; later chunks number on


def summarize(manifest: dict[str, Any]) -> dict[str, Any]:
    """Totals over every chunk: games, plies, counts per verdict (every
    verdict word, 0 included, so that ``undecided`` is always stated) and
    per rule, the wrong results, and the chunks or files that failed."""
    verdicts: Counter[str] = Counter()
    rules: Counter[str] = Counter()
    wrong: list[dict[str, Any]] = []
    errors = list(manifest.get("file_errors", []))
    games = plies = done = 0
    for entry in manifest["chunks"]:
        summary = entry.get("summary")
        if summary is None:
            continue
        if summary["status"] != "done":
            errors.append(summary.get("error", "chunk failed"))
            continue
        if summary.get("error"):  # a read fault after some games: those are counted, the fault reported
            errors.append(summary["error"])
        done += 1
        games += summary["games"]
        plies += summary["plies"]
        verdicts.update(summary["verdicts"])
        rules.update(summary["rules"])
        wrong.extend(summary["wrong"])
    wrong.sort(key=lambda w: (w["file"], w["game"]))
    return {
        "chunks": len(manifest["chunks"]),
        "chunks_done": done,
        "games": games,
        "plies": plies,
        "verdicts": {v: verdicts[v] for v in sorted(set(VERDICTS) | set(verdicts))},
        "rules": dict(sorted(rules.items())),
        "wrong_results": wrong,
        "errors": errors,
    }


def format_summary(summary: dict[str, Any]) -> str:
    lines = [
        f"{summary['games']:,} games, {summary['plies']:,} plies, {summary['chunks_done']}/{summary['chunks']} chunks"
    ]
    lines.append("verdicts: " + ", ".join(f"{k} {v:,}" for k, v in summary["verdicts"].items()))
    undecided = summary["verdicts"].get(UNDECIDED, 0)
    if undecided:
        lines.append(
            f"{undecided:,} undecided: the result stands unless a draw is proven, but the search "
            "left it open (a loss on time whose winner's mating chances were not decided, or a "
            "decisive game whose final position might be dead); not counted as ok"
        )
    for rule, count in summary["rules"].items():
        lines.append(f"  {rule}: {count:,}")
    if summary["wrong_results"]:
        lines.append(f"{len(summary['wrong_results'])} wrong result(s):")
        for w in summary["wrong_results"]:
            lines.append(
                f"  {w['file']} game {w['game']} ({w['site'] or '?'}): recorded {w['recorded']}, "
                f"the rules give {w['expected']}"
            )
    for error in summary["errors"]:
        lines.append(f"error: {error}")
    return "\n".join(lines)


__all__ = ["run_audit", "summarize", "format_summary", "FileError"]
