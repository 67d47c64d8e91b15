"""One reviewed game for the Review view's own board (``review_game``):
its positions, the game's own clocks from ``[%clk]`` at every ply (display
ready), the verdict in one sentence with the ply to go to, the marks of the
move list (where a claim became possible, where the rules ended the game,
where a flag fell) and, for each ply, what could be claimed there and what
is proven of each side's mate (the proof itself is the ``proof`` operation's,
asked with the game's moves).

Stateless: the page sends the game's text (re-read from its file) and gets
everything at once; nothing of the Play game is touched. The marks and the
verdict come from :func:`pychessdraw.records.scan.scan_game`, so they sit
at the plies ``scan`` names.

Limits: the per-ply claims are the cheap ones of :meth:`Game.claims`
(threefold and fifty-move, now or with an intended move); a game with a
broken record is shown up to its first bad move.
"""

from __future__ import annotations

from typing import Any

import chess

from .. import laws, pgn
from ..contract import ByColor
from ..errors import BadPgnError, RefereeError
from ..game import Game
from ..i18n import gettext
from ..moves import move_number, numbered, start_of
from ..outcome import color_name, side_name
from ..records.final_search import FinalSearch
from ..records.scan import scan_game
from . import clockpgn
from .contract import Answer, ReviewGame, ReviewMark, ReviewPly
from .review import detail_of, event_row

MARK_SYMBOLS = {"automatic": "■", "claimable": "½", "claimable_with_move": "⇢", "flag": "⚑"}


def clock_text(ms: int | None) -> str | None:
    """A ``%clk`` time as a clock face shows it: ``h:mm:ss`` from an hour,
    else ``m:ss``; tenths only when the record has them."""
    if ms is None:
        return None
    tenths = ms // 100 % 10 if ms % 1000 else None
    seconds = ms // 1000
    hours, minutes, secs = seconds // 3600, seconds % 3600 // 60, seconds % 60
    text = f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
    return text if tenths is None else f"{text}.{tenths}"


def _claims(game: Game) -> list[str]:
    """What the side to move may claim here, in words (intended moves named)."""
    out = []
    for claim in game.claims():
        rule = laws.rule_in_sentence(claim.rule_name)
        who = side_name(game.turn)
        if claim.san is None:
            out.append(gettext("{side} can claim {rule} now").format(side=who, rule=rule))
        else:
            out.append(gettext("{side} can claim {rule} with {move}").format(side=who, rule=rule, move=claim.san))
    return out


def can_mate(game: Game, found: dict[str, bool | None] | None = None) -> ByColor[Answer]:
    """What is proven of each side's mate in the game's position: the cheap
    proofs (material, locked pawns; what the scan checks at every ply), or
    ``found``, the final search's answers (``final["winnable"]`` of a scan
    report) where they decide more."""
    verdicts = game.winnable()
    answers: dict[str, Answer] = {}
    for color, name in ((chess.WHITE, "white"), (chess.BLACK, "black")):
        proven = verdicts[color].winnable
        if proven is None and found is not None:
            proven = found.get(name)
        answers[name] = "unknown" if proven is None else "yes" if proven else "no"
    return ByColor(white=answers["white"], black=answers["black"])


def _reason(report: dict[str, Any], labels: list[str], first_move: int, black_first: bool) -> tuple[str, int | None]:
    """The verdict's reason in a few words and the ply it names."""
    ended = report.get("ended_at")
    auto = next((e for e in report["events"] if e["kind"] == "automatic" and e["ply"] == ended), None)
    if auto is not None and ended is not None:
        where = labels[ended - 1] if ended > 0 else gettext("at the start")
        rule = laws.rule_name(auto["rule"])
        return gettext("{rule} after {move}").format(rule=rule, move=where), ended
    forfeit = report.get("time_forfeit")
    plies = report["plies"]
    if forfeit and plies:
        flagged = forfeit["flagged"]
        side, other = side_name(flagged), side_name("black" if flagged == "white" else "white")
        if forfeit.get("should_be_draw"):
            text = gettext("{side}'s flag fell after {move}, and {other} cannot checkmate")
        else:
            text = gettext("{side}'s flag fell after {move}")
        return text.format(side=side, move=labels[plies - 1], other=other), plies
    if report["verdict"] == "ok":
        return "", None  # nothing ended the game by rule: the record stands
    return detail_of(report, first_move, black_first), None


def verdict_sentence(
    report: dict[str, Any], labels: list[str], first_move: int, black_first: bool
) -> tuple[str, int | None]:
    """ "Recorded 1-0; the rules give 1/2-1/2: stalemate after 41.Rh5", and the ply to go to."""
    recorded = report["headers"].get("Result", "*")
    verdict = report["verdict"]
    reason, ply = _reason(report, labels, first_move, black_first)
    if verdict == "error":
        error = report.get("error") or {}
        bad = error.get("ply")
        message = str(error.get("reason") or error.get("message", ""))
        text = gettext("Recorded {recorded}; the record breaks: {error}").format(recorded=recorded, error=message)
        return text, (bad - 1 if isinstance(bad, int) and bad > 0 else None)
    if verdict in ("wrong_result", "ended_earlier"):
        text = gettext("Recorded {recorded}; the rules give {result}: {reason}")
        return text.format(recorded=recorded, result=report["expected_result"], reason=reason), ply
    if verdict == "undecided":
        return gettext("Recorded {recorded}; undecided: {reason}").format(recorded=recorded, reason=reason), ply
    if reason:
        return gettext("Recorded {recorded}; the rules agree: {reason}").format(recorded=recorded, reason=reason), ply
    return gettext("Recorded {recorded}; the rules agree").format(recorded=recorded), ply


def marks_of(report: dict[str, Any], first_move: int, black_first: bool) -> list[ReviewMark]:
    """One mark per marked ply, at the plies the scan names (events, and the
    flag fall after the last move); several events of a ply share its mark."""
    by_ply: dict[int, ReviewMark] = {}
    for event in report["events"]:
        row = event_row(event, first_move, black_first)
        mark = by_ply.get(row["ply"])
        if mark is None:
            by_ply[row["ply"]] = {
                "ply": row["ply"],
                "kind": row["kind"],
                "symbol": MARK_SYMBOLS[row["kind"]],
                "title": row["label"],
            }
        else:
            mark["title"] = f"{mark['title']}; {row['label']}"
            if row["kind"] == "automatic":
                mark["kind"], mark["symbol"] = "automatic", MARK_SYMBOLS["automatic"]
    forfeit = report.get("time_forfeit")
    plies = report["plies"]
    if forfeit and report.get("error") is None:
        title = gettext("{side}'s flag fell after this move").format(side=side_name(forfeit["flagged"]))
        mark = by_ply.get(plies)
        if mark is None:
            by_ply[plies] = {"ply": plies, "kind": "flag", "symbol": MARK_SYMBOLS["flag"], "title": title}
        else:
            mark["title"] = f"{mark['title']}; {title}"
    return [by_ply[p] for p in sorted(by_ply)]


def _positions(game: Game, parsed: pgn.PgnGame, report: dict[str, Any]) -> list[ReviewPly]:
    """Every position of the game from its start, up to its first bad move
    (``game`` is played along), display-ready."""
    first_move, black_first = start_of(parsed.headers)
    clocks = clockpgn.move_clocks(parsed)
    ended = report.get("ended_at")
    faces: dict[bool, str | None] = {True: None, False: None}
    plies: list[ReviewPly] = [
        {
            "ply": 0,
            "san": "",
            "uci": "",
            "label": "",
            "number": first_move,
            "white": False,
            "fen": game.fen(),
            "clock": None,
            "clock_white": None,
            "clock_black": None,
            "turn": color_name(game.turn),
            "check": game.is_check(),
            "after_end": False,
            "claims": _claims(game),
            "can_mate": can_mate(game),
        }
    ]
    for ply, token in enumerate(parsed.tokens, start=1):
        try:
            move = game.parse_move(token)
        except RefereeError:
            break
        san, uci = game.san(move), game.uci(move)
        mover_white = game.turn
        game.push(move)
        clock = clock_text(clocks[ply - 1]) if ply - 1 < len(clocks) else None
        faces[mover_white] = clock
        after_end = ended is not None and ply > ended
        number, white = move_number(ply, first_move, black_first)
        plies.append(
            {
                "ply": ply,
                "san": san,
                "uci": uci,
                "label": numbered(number, white, san),
                "number": number,
                "white": white,
                "fen": game.fen(),
                "clock": clock,
                "clock_white": faces[True],
                "clock_black": faces[False],
                "turn": color_name(game.turn),
                "check": game.is_check(),
                "after_end": after_end,
                "claims": [] if after_end else _claims(game),
                "can_mate": can_mate(game),
            }
        )
    final = report.get("final") or {}
    if len(plies) > 1 and report["plies"] == len(plies) - 1 and final.get("winnable"):
        plies[-1]["can_mate"] = can_mate(game, final["winnable"])  # the final search's answers
    return plies


def review_game(text: str, *, final_search: FinalSearch, flag_rules: str, number: int = 1) -> ReviewGame:
    """The first game of ``text`` as the Review's board shows it (see the module's docstring)."""
    games = list(pgn.games_in_text(text))
    if not games:
        raise BadPgnError(gettext("no game found in the PGN text"), ply=0)
    parsed = games[0]
    first_move, black_first = start_of(parsed.headers)
    report = scan_game(parsed, number, final_search=final_search, flag_rules=flag_rules)
    game = pgn.game_from_headers(parsed.headers, flag_rules=flag_rules)
    start_fen = game.fen()
    plies = _positions(game, parsed, report)
    ended = report.get("ended_at")
    labels = [p["label"] for p in plies[1:]]
    sentence, goto = verdict_sentence(report, labels, first_move, black_first)
    marks = marks_of(report, first_move, black_first)
    if goto is None and marks:
        goto = marks[0]["ply"]  # the sentence names no move: the first marked one
    ended_text = None
    if ended is not None:
        auto = next((e for e in report["events"] if e["kind"] == "automatic" and e["ply"] == ended), None)
        if auto is not None:
            ended_text = event_row(auto, first_move, black_first)["label"]
    return {
        "start_fen": start_fen,
        "chess960": game.chess960,
        "plies": plies,
        "has_clocks": any(p["clock"] is not None for p in plies),
        "verdict": report["verdict"],
        "sentence": sentence,
        "goto": goto,
        "marks": marks,
        "ended_at": ended,
        "ended_text": ended_text,
    }
