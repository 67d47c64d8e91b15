"""Real games: the TCEC archive in ../shared/corpus, with the ending its
tournament server applied. For every game: no automatic ending before the
last move, and after the last move the ending named in the tags holds.
A sample by default; every game with --full."""

from __future__ import annotations

from itertools import islice

from pychessdraw.pgn import read_games
from pychessdraw.scan import scan_game

AUTOMATIC_TAGS = {"checkmate", "stalemate", "insufficient_material"}
CLAIM_TAGS = {"threefold_repetition", "fifty_moves"}


def test_corpus_endings(full: bool, shared) -> None:
    path = shared("corpus", "tcec-dev.pgn")
    step = 1 if full else 7
    checked = {tag: 0 for tag in AUTOMATIC_TAGS | CLAIM_TAGS}
    chess960 = 0
    with open(path, encoding="utf-8") as handle:
        for number, parsed in islice(enumerate(read_games(handle), 1), 0, None, step):
            report = scan_game(parsed, number)
            headers = report["headers"]
            where = f"game {report['game']} ({headers.get('Event')}, round {headers.get('Round')})"
            assert report["error"] is None, where
            chess960 += headers.get("Variant") == "Chess960"
            early = [e for e in report["events"] if e["kind"] == "automatic" and e["ply"] < report["plies"]]
            assert not early, (where, early)
            tag = headers["Termination"]
            final = report["final"]
            outcome = final["outcome"]
            if tag in AUTOMATIC_TAGS:
                assert outcome is not None and outcome["termination"] == tag, (where, outcome)
                checked[tag] += 1
            elif tag in CLAIM_TAGS:
                assert outcome is None, where
                assert {"rule": tag, "move": None} in [{"rule": c["rule"], "move": c["move"]} for c in final["claims"]], where
                checked[tag] += 1
            else:
                assert outcome is None or outcome["termination"] == "checkmate" and tag == "time_forfeit", where
    # Every kind of ending was met, Chess960 games too: the test saw what it claims to check.
    assert all(checked.values()), checked
    assert chess960 > 0
