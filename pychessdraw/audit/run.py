"""The audit job: plan chunks, count and audit them on Dask, keep a manifest.

The driver only plans and bookkeeps; workers read the inputs themselves
(with a remote scheduler, every worker must see the input and output paths).
The manifest (``_manifest.json`` in the output directory) records the
options, every chunk, its game numbers and its summary once its Parquet file
is complete; it is rewritten (atomically) after each chunk, so an
interrupted run resumes where it stopped: finished chunks are skipped.
"""

from __future__ import annotations

import json
import os
import sys
import time
import uuid
from collections import Counter
from typing import Any, Sequence, TextIO

import dask
from dask.distributed import Client, LocalCluster, as_completed

from ..errors import BadRequestError, FileError, RefereeError
from ..inputs import STDIN, expand
from ..verdict import UNDECIDED, VERDICTS
from .chunks import Chunk, plan
from .work import audit_chunk, count_games, part_name

MANIFEST = "_manifest.json"  # "_": Parquet readers skip it
SUMMARY = "_summary.json"
VERSION = 1


def _write_json(path: str, data: dict[str, Any]) -> None:
    folder, name = os.path.split(path)
    temporary = os.path.join(folder, f".{name}.tmp-{os.getpid()}")
    with open(temporary, "w", encoding="utf-8") as handle:
        json.dump(data, handle, indent=1)
    os.replace(temporary, path)


def _plan_all(files: list[str], chunk_bytes: int) -> dict[str, Any]:
    entries: list[dict[str, Any]] = []
    problems: list[str] = []
    for file_index, path in enumerate(files):
        try:
            chunks = plan(path, chunk_bytes)
        except RefereeError as exc:
            problems.append(exc.message)
            continue
        for chunk in chunks:
            entries.append({"chunk": chunk.to_dict(), "file_index": file_index,
                            "output": part_name(chunk, file_index), "first_game": 1 if chunk.index == 0 else None,
                            "games": None, "status": "pending", "summary": None})
    return {"chunks": entries, "file_errors": problems}


def _load_or_plan(out: str, options: dict[str, Any], files: list[str], chunk_bytes: int) -> dict[str, Any]:
    path = os.path.join(out, MANIFEST)
    if os.path.exists(path):
        with open(path, encoding="utf-8") as handle:
            manifest: dict[str, Any] = json.load(handle)
        if manifest.get("options") != options:
            raise BadRequestError(f"{out} holds an audit of other inputs or options ({path}); "
                                  "choose another --out directory or remove it")
        return manifest
    manifest = {"version": VERSION, "options": options, **_plan_all(files, chunk_bytes)}
    _write_json(path, manifest)
    return manifest


class _Progress:
    def __init__(self, stream: TextIO, enabled: bool, total: int) -> None:
        self.stream, self.enabled, self.total = stream, enabled, total
        self.done = self.games = self.plies = 0
        self.start = time.perf_counter()

    def update(self, summary: dict[str, Any]) -> None:
        self.done += 1
        self.games += summary["games"]
        self.plies += summary["plies"]
        if self.enabled:
            rate = self.games / max(1e-9, time.perf_counter() - self.start)
            self.stream.write(f"\r{self.done}/{self.total} chunks, {self.games:,} games, "
                              f"{self.plies:,} plies, {rate:,.0f} games/s ")
            self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\n")


def local_cluster(workers: int | None = None, **options: Any) -> LocalCluster:
    """A LocalCluster of ``workers`` processes (default: one per core), one
    thread each, without the dashboard and its statistical profiler (which
    samples every task's stack every 10 ms: 2% of a one-worker audit)."""
    with dask.config.set({"distributed.worker.profile.enabled": False}):
        return LocalCluster(n_workers=workers or os.cpu_count() or 1, threads_per_worker=1, processes=True,
                            dashboard_address=None, **options)


def _client(workers: int | None, scheduler: str | None) -> tuple[Client, LocalCluster | None]:
    if scheduler:
        return Client(scheduler), None
    cluster = local_cluster(workers)
    return Client(cluster), cluster


def run_audit(inputs: Sequence[str], out: str, *, workers: int | None = None, scheduler: str | None = None,
              search: str = "auto", flag_rules: str = "fide", chunk_bytes: int = 8 << 20,
              progress: bool = False, stream: TextIO = sys.stderr, client: Client | None = None) -> dict[str, Any]:
    """Audit every game of ``inputs`` into the Parquet dataset ``out``;
    return the summary (also written to ``out/summary.json``).

    ``client``: an existing Dask client (tests); otherwise one is made for
    ``scheduler`` or a LocalCluster of ``workers`` processes."""
    files = list(expand(inputs))
    if not files:
        raise BadRequestError("no input files")
    if STDIN in files:
        raise BadRequestError("audit reads files (workers open them): save standard input to a file first")
    os.makedirs(out, exist_ok=True)
    options: dict[str, Any] = {"inputs": [os.path.abspath(f) for f in files], "search": search, "flag_rules": flag_rules,
               "chunk_bytes": chunk_bytes}
    manifest = _load_or_plan(out, options, [os.path.abspath(f) for f in files], chunk_bytes)
    manifest_path = os.path.join(out, MANIFEST)
    entries: list[dict[str, Any]] = manifest["chunks"]
    todo = [e for e in entries
            if e["status"] != "done" or not os.path.exists(os.path.join(out, e["output"]))]
    own_cluster = None
    if todo:
        if client is None:
            client, own_cluster = _client(workers, scheduler)
            owned_client = client
        else:
            owned_client = None
        try:
            _number(client, entries, manifest, manifest_path)
            bar = _Progress(stream, progress, len(todo))
            futures = {}
            for entry in todo:
                target = os.path.join(os.path.abspath(out), entry["output"])
                future = client.submit(audit_chunk, entry["chunk"], entry["first_game"], target, search, flag_rules,
                                       key=f"audit-{entry['output']}-{uuid.uuid4().hex[:12]}")
                futures[future] = entry
            for future in as_completed(futures):
                entry = futures[future]
                try:
                    summary = future.result()
                except Exception as exc:  # e.g. KilledWorker after repeated crashes
                    summary = {"status": "error", "error": f"{Chunk.from_dict(entry['chunk']).name}: "
                               f"{type(exc).__name__}: {exc}", "games": 0, "plies": 0, "verdicts": {},
                               "rules": {}, "wrong": []}
                entry["status"] = summary["status"]
                entry["summary"] = summary
                _write_json(manifest_path, manifest)
                bar.update(summary)
            bar.close()
        finally:
            if owned_client is not None:
                owned_client.close()
            if own_cluster is not None:
                own_cluster.close()
    summary = summarize(manifest)
    _write_json(os.path.join(out, SUMMARY), summary)
    return summary


def _number(client: Client, entries: list[dict[str, Any]], manifest: dict[str, Any], path: str) -> None:
    """Give each chunk the number of its first game: count the games of the
    earlier chunks of its file (a cheap pass: no replay)."""
    need = [e for e in entries if e["games"] is None and any(
        o["file_index"] == e["file_index"] and o["chunk"]["index"] > e["chunk"]["index"] for o in entries)]
    if need:
        futures = client.map(_safe_count, [e["chunk"] for e in need], pure=False)
        for entry, counted in zip(need, client.gather(futures)):
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
        done += 1
        games += summary["games"]
        plies += summary["plies"]
        verdicts.update(summary["verdicts"])
        rules.update(summary["rules"])
        wrong.extend(summary["wrong"])
    wrong.sort(key=lambda w: (w["file"], w["game"]))
    return {"chunks": len(manifest["chunks"]), "chunks_done": done, "games": games, "plies": plies,
            "verdicts": {v: verdicts[v] for v in sorted(set(VERDICTS) | set(verdicts))},
            "rules": dict(sorted(rules.items())),
            "wrong_results": wrong, "errors": errors}


def format_summary(summary: dict[str, Any]) -> str:
    lines = [f"{summary['games']:,} games, {summary['plies']:,} plies, "
             f"{summary['chunks_done']}/{summary['chunks']} chunks"]
    lines.append("verdicts: " + ", ".join(f"{k} {v:,}" for k, v in summary["verdicts"].items()))
    undecided = summary["verdicts"].get(UNDECIDED, 0)
    if undecided:
        lines.append(f"{undecided:,} undecided: the result stands unless a draw is proven, but the search "
                     "left it open (a loss on time whose winner's mating chances were not decided, or a "
                     "decisive game whose final position might be dead); not counted as ok")
    for rule, count in summary["rules"].items():
        lines.append(f"  {rule}: {count:,}")
    if summary["wrong_results"]:
        lines.append(f"{len(summary['wrong_results'])} wrong result(s):")
        for w in summary["wrong_results"]:
            lines.append(f"  {w['file']} game {w['game']} ({w['site'] or '?'}): recorded {w['recorded']}, "
                         f"the rules give {w['expected']}")
    for error in summary["errors"]:
        lines.append(f"error: {error}")
    return "\n".join(lines)


__all__ = ["run_audit", "summarize", "format_summary", "FileError"]
