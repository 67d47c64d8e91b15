"""Real games: the TCEC archive in ../shared/corpus, with the ending its
tournament server applied. For every game: no automatic ending before the
last move, and after the last move the ending named in the tags holds.
A sample by default; every game with --full."""

from __future__ import annotations

from itertools import islice

import pytest

from pychessdraw.pgn import read_games
from pychessdraw.records.scan import scan_game
from pychessdraw.rules.dead import DEEP, STATIC

pytestmark = pytest.mark.slow  # left out by `make test-quick`

AUTOMATIC_TAGS = {"checkmate", "stalemate", "insufficient_material"}

# Where pychessdraw goes beyond the tournament server: two games reached a
# dead position (FIDE 5.2.2, locked pawn walls no king can cross, checked by
# hand) and were played on until the fifty-move rule, exactly 100 plies later.
# (Event, Round) -> the ply at which the game was dead.
DEAD_BEFORE_THE_SERVER_SAW = {
    ("TCEC Season 24 - Cup 11 Testing", "19"): 125,  # 6k1/8/p5p1/P1p1p1Pp/P1P1P2P/...
    ("TCEC Season 26 - 4k Testing", "37"): 90,  # 8/8/2k5/1p2p1p1/1Pp1P1P1/2P1P3/2K5/8 w
}
CLAIM_TAGS = {"threefold_repetition", "fifty_moves"}


def test_corpus_endings(full: bool, shared) -> None:
    path = shared("corpus", "tcec-dev.pgn")
    step = 1 if full else 7
    checked = {tag: 0 for tag in AUTOMATIC_TAGS | CLAIM_TAGS}
    chess960 = 0
    dead_found = {}
    with open(path, encoding="utf-8") as handle:
        for number, parsed in islice(enumerate(read_games(handle), 1), 0, None, step):
            # The full run also searches every final position (as `scan` does).
            report = scan_game(parsed, number, final_search=DEEP if full else STATIC)
            headers = report["headers"]
            where = f"game {report['game']} ({headers.get('Event')}, round {headers.get('Round')})"
            assert report["error"] is None, where
            chess960 += headers.get("Variant") == "Chess960"
            early = [e for e in report["events"] if e["kind"] == "automatic" and e["ply"] < report["plies"]]
            known = (headers.get("Event"), headers.get("Round"))
            if known in DEAD_BEFORE_THE_SERVER_SAW:
                assert early == [
                    {"ply": DEAD_BEFORE_THE_SERVER_SAW[known], "rule": "dead_position", "kind": "automatic"}
                ]
                dead_found[known] = True
                continue
            assert not early, (where, early)
            tag = headers["Termination"]
            final = report["final"]
            outcome = final["outcome"]
            if tag in AUTOMATIC_TAGS:
                assert outcome is not None and outcome["termination"] == tag, (where, outcome)
                checked[tag] += 1
            elif tag in CLAIM_TAGS:
                assert outcome is None, where
                assert {"rule": tag, "move": None} in [
                    {"rule": c["rule"], "move": c["move"]} for c in final["claims"]
                ], where
                checked[tag] += 1
            else:
                assert outcome is None or outcome["termination"] == "checkmate" and tag == "time_forfeit", where
    # Every kind of ending was met, Chess960 games too: the test saw what it claims to check.
    assert all(checked.values()), checked
    assert chess960 > 0
    if full:
        assert set(dead_found) == set(DEAD_BEFORE_THE_SERVER_SAW)
