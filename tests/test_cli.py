"""The command line as a user runs it: JSON on standard output, messages on
standard error, non-zero exit on bad input, and a scan that goes on past a
broken game or a missing file."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from pychessdraw.records.scan import scan

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pychessdraw", *args], input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=120
    )


def test_status_prints_the_contract() -> None:
    done = run("status", "Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["ply"] == 7 and data["turn"] == "black" and data["repetition_count"] == 2
    assert data["claims"] == [{"rule": "threefold_repetition", "move": "f6g8", "san": "Ng8", "article": "9.2.1.1"}]
    assert data["outcome"] is None and data["insufficient_material"] == {"white": False, "black": False}


def test_status_from_fen_with_uci_moves() -> None:
    done = run("status", "--fen", "7k/8/6K1/8/8/8/8/R7 w - - 149 80", "a1a8")
    data = json.loads(done.stdout)
    assert data["outcome"]["termination"] == "checkmate" and data["outcome"]["result"] == "1-0"
    assert data["claims"] == []


def test_status_bad_input_exits_non_zero_with_the_code() -> None:
    done = run("status", "e4", "e4")
    assert done.returncode == 1 and done.stdout == ""
    assert "illegal_move" in done.stderr and "move 2" in done.stderr
    done = run("status", "--fen", "nonsense")
    assert done.returncode == 1 and "bad_fen" in done.stderr


PGN = """[Event "good"]

1. f3 e5 2. g4 Qh4# 0-1

[Event "broken"]

1. e4 e5 2. Ke3 Nc6 *

[Event "after"]

1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1/2-1/2
"""


def test_scan_reports_every_game_and_goes_on_after_a_broken_one() -> None:
    done = run("scan", stdin=PGN)
    assert done.returncode == 1  # one game was broken
    reports = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["game"] for r in reports] == [1, 2, 3]
    assert reports[0]["final"]["outcome"]["termination"] == "checkmate"
    assert reports[0]["events"] == [{"ply": 4, "rule": "checkmate", "kind": "automatic"}]
    assert reports[1]["error"]["code"] == "illegal_move" and reports[1]["error"]["ply"] == 3
    assert reports[1]["error"]["token"] == "Ke3" and reports[1]["plies"] == 2
    assert reports[2]["events"] == [
        {"ply": 7, "rule": "threefold_repetition", "kind": "claimable_with_move"},
        {"ply": 8, "rule": "threefold_repetition", "kind": "claimable"},
    ]
    assert done.stderr == ""  # no progress when standard error is not a terminal


def test_scan_missing_file_is_reported_and_the_others_are_read(tmp_path: Path) -> None:
    good = tmp_path / "good.pgn"
    good.write_text(PGN.split('\n\n[Event "broken"]')[0])
    done = run("scan", str(tmp_path / "missing.pgn"), str(good))
    assert done.returncode == 1 and "file_error" in done.stderr and "missing.pgn" in done.stderr
    reports = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(reports) == 1 and reports[0]["file"] == str(good)


def test_scan_progress_goes_to_stderr_only() -> None:
    done = run("scan", "--progress", stdin=PGN)
    assert "games" in done.stderr and all(line.startswith("{") for line in done.stdout.splitlines())


def test_scan_streams() -> None:
    """The first report comes out before the rest of the input is read."""
    consumed = []

    def lines():
        for line in PGN.splitlines(keepends=True) * 1000:
            consumed.append(line)
            yield line

    first = next(scan(lines()))
    assert first["game"] == 1 and len(consumed) < 20


def test_usage_error_exits_2() -> None:
    assert run("frobnicate").returncode == 2
