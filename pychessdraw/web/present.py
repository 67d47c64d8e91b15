"""Display-ready facts for the page: a Game's status put in words.

The page renders these and parses nothing: move labels ("3...Qxf7"), rule
names, thresholds and FIDE articles, one answer per side to "can this side
still checkmate?", hints that never contradict the rules, and the claims
grouped so that a rule that many moves allow is said once. Types:
:mod:`pychessdraw.contract`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import chess

from .. import i18n, laws
from ..contract import ByColor, ClaimRuleName, ColorName, ResultName
from ..deadposition.tighten import tighten_san
from ..game import Game
from ..i18n import gettext, marked, marked_n, ngettext
from ..moves import numbered
from ..outcome import (
    Outcome,
    Termination,
    claim_article,
    color_name,
    side_name,
    termination_from_record,
    termination_name,
)
from ..rules import fifty, repetition
from ..rules.hints import can_force_mate, practical_draw, side_notes
from ..status import ClaimResult, Status
from .contract import (
    ClaimChoice,
    ClaimGroup,
    ClaimVerdict,
    Counter,
    Facts,
    FlagView,
    How,
    LegalMove,
    Level,
    MoveRow,
    Occurrence,
    Offer,
    OutcomeView,
    Repetition,
    Winnability,
    WrongClaim,
)
from .material import material

Labeller = Callable[[int], str]  # ply -> "3...Qxf7" (the move that led to the ply)

_RULE_LABEL = laws.rule_name  # in the current language
_DEAD, _OFFER = laws.fide(laws.DEAD_POSITION), laws.fide(laws.OFFER)
_DECLARED = {Termination.AGREEMENT, Termination.RESIGNATION, Termination.TIME_FORFEIT}
_PIECE_WORDS = {
    chess.KING: marked_n("king", "kings"),
    chess.QUEEN: marked_n("queen", "queens"),
    chess.ROOK: marked_n("rook", "rooks"),
    chess.BISHOP: marked_n("bishop", "bishops"),
    chess.KNIGHT: marked_n("knight", "knights"),
    chess.PAWN: marked_n("pawn", "pawns"),
}
_HOW_TEXT = {
    "declared": marked("declared"),
    "claimed": marked("by the player to move"),
    "automatic": marked("automatic"),
}


def _capitalized(text: str) -> str:
    """``text`` with its first letter a capital, the rest as written (German nouns keep theirs)."""
    return text[:1].upper() + text[1:]


def _reached(value: int, limit: int) -> str:
    return gettext(" (reached: game over)") if value >= limit else ""


MAX_ARROWS = 3  # more intended moves than this are said in words, not drawn


side = side_name  # "White", "Black"


def make_row(game: Game, san: str, uci: str, *, after_end: bool = False) -> MoveRow:
    """The move-list row of the move just played on ``game`` (``san`` and
    ``uci``: its words, taken before it was played). Reads the game only."""
    white = game.turn == chess.BLACK  # the side that moved
    number = game.fullmove_number if white else game.fullmove_number - 1
    return {
        "ply": game.ply,
        "san": san,
        "uci": uci,
        "fen": game.fen(),
        "label": numbered(number, white, san),
        "number": number,
        "white": white,
        "repetition_count": game.repetition_count(),
        "check": game.is_check(),
        "after_end": after_end,
    }


def _counter(
    value: int,
    claim_at: int,
    auto_at: int,
    claim_article: str,
    auto_article: str,
    text: str,
    auto_text: str,
    near: int,
    of: str = "/",
    playing: bool = True,
) -> Counter:
    level: Level = "over" if value >= auto_at else "claim" if value >= claim_at else "near" if value >= near else "none"
    # below a claim, the count towards it; from there on, towards the automatic end
    # ("claimable" only while the game goes on: after it, nothing is)
    limit = claim_at if value < claim_at else auto_at
    short = f"{value}/{limit}" if of == "/" else gettext("{count} of {limit}").format(count=value, limit=limit)
    if value >= auto_at:
        short += gettext(", game over")
    elif value >= claim_at and playing:
        short += gettext(", claimable")
    return {
        "value": value,
        "short": short,
        "claim_at": claim_at,
        "auto_at": auto_at,
        "claim_article": claim_article,
        "auto_article": auto_article,
        "text": text,
        "auto_text": auto_text,
        "level": level,
    }


def halfmove(clock: int, playing: bool = True) -> Counter:
    claim, auto = fifty.CLAIM_PLIES, fifty.AUTOMATIC_PLIES
    rule, art, auto_rule, auto_art = (
        laws.rule_name("fifty_moves"),
        laws.ARTICLE["fifty_moves"],
        laws.rule_name("seventyfive_moves"),
        laws.ARTICLE["seventyfive_moves"],
    )
    names = {"rule": rule, "article": art, "auto_rule": auto_rule, "auto_article": auto_art}
    return _counter(
        clock,
        claim,
        auto,
        art,
        auto_art,
        ngettext(
            "{count} ply without a capture or pawn move: a claim is possible at {claim} "
            "({rule}, FIDE {article}), the game ends at {auto} ({auto_rule}, FIDE {auto_article})",
            "{count} plies without a capture or pawn move: a claim is possible at {claim} "
            "({rule}, FIDE {article}), the game ends at {auto} ({auto_rule}, FIDE {auto_article})",
            clock,
        ).format(count=clock, claim=claim, auto=auto, **names),
        gettext("{rule}: {count} of {limit} plies{reached} (FIDE {article})").format(
            rule=auto_rule, count=clock, limit=auto, reached=_reached(clock, auto), article=auto_art
        ),
        claim - 10,
        playing=playing,
    )


def repetitions(count: int, earlier: list[int], label: Labeller, playing: bool = True) -> Repetition:
    claim, auto = repetition.CLAIM_COUNT, repetition.AUTOMATIC_COUNT
    art, auto_art = laws.ARTICLE["threefold_repetition"], laws.ARTICLE["fivefold_repetition"]
    base = _counter(
        count,
        claim,
        auto,
        art,
        auto_art,
        ngettext(
            "{count} occurrence of this position so far "
            "({claim} allow a claim, FIDE {article}; {auto} end the game, FIDE {auto_article})",
            "{count} occurrences of this position so far "
            "({claim} allow a claim, FIDE {article}; {auto} end the game, FIDE {auto_article})",
            count,
        ).format(count=count, claim=claim, auto=auto, article=art, auto_article=auto_art),
        gettext("{rule}: {count} of {limit}{reached} (FIDE {article})").format(
            rule=_capitalized(laws.rule_name("fivefold_repetition")),
            count=count,
            limit=auto,
            reached=_reached(count, auto),
            article=auto_art,
        ),
        claim - 1,
        " of ",
        playing,
    )
    occ: list[Occurrence] = [
        {"ply": p, "label": gettext("the start") if p == 0 else gettext("after {move}").format(move=label(p))}
        for p in earlier
    ]
    return {**base, "earlier": occ}


def outcome_view(outcome: Outcome, *, ended_at: int | None = None, ended_at_label: str | None = None) -> OutcomeView:
    t = outcome.termination
    how: How = "declared" if t in _DECLARED else "claimed" if outcome.claimed else "automatic"
    # a claimed ending's reason already says "claimed" ("Threefold repetition, claimed"): only who claimed is added
    how_text = gettext(_HOW_TEXT[how])
    winner = None if outcome.winner is None else color_name(outcome.winner)
    head = gettext("{side} wins").format(side=side(winner)) if winner else gettext("Draw")
    reason = outcome.reason()
    article = outcome.claim_article or outcome.article  # a claim's, as the claim's verdict cites it
    detail = gettext("{reason} (FIDE {article}, {how})").format(reason=reason, article=article, how=how_text)
    if ended_at is not None:
        detail = gettext("{reason} {ended_at} (FIDE {article}); the moves after it were played after the end").format(
            reason=reason, ended_at=ended_at_label, article=article
        )
    return {
        "termination": termination_name(t),
        "result": outcome.result(),
        "winner": winner,
        "article": article,
        "reason": reason,
        "how": how,
        "headline": f"{head}: {outcome.result()}",
        "detail": detail,
        "ended_at": ended_at,
        "ended_at_label": ended_at_label,
    }


def recorded_view(result: ResultName, termination_tag: str | None, details: str | None = None) -> OutcomeView:
    """A recorded result as recorded: the reason only where the record names
    one of the rules (the Termination tag's words, old or standard, or the
    article in pychessdraw's TerminationDetails tag ``details``: see
    :func:`~pychessdraw.outcome.termination_from_record`), else
    ``termination: "unknown"``. Never guessed."""
    tag = (termination_tag or "").strip()
    named = termination_from_record(tag, details)
    winner: ColorName | None = "white" if result == "1-0" else "black" if result == "0-1" else None
    head = gettext("{side} wins").format(side=side(winner)) if winner else gettext("Draw")
    reason = gettext('as recorded, Termination "{tag}"').format(tag=tag) if tag else gettext("reason not recorded")
    return {
        "termination": "unknown" if named is None else termination_name(named),
        "result": result,
        "winner": winner,
        "article": None,
        "reason": reason,
        "how": "recorded",
        "headline": f"{head}: {result}",
        "detail": gettext("{result}, {reason} (the result of the imported game)").format(result=result, reason=reason),
        "ended_at": None,
        "ended_at_label": None,
    }


MAX_LINE = 8  # plies of a mating line shown; the rest is counted


def proof_line(board: chess.Board, color: chess.Color, line: list[str] | None) -> list[str] | None:
    """The mating line shown to people for ``color`` from ``board``: the
    search's, tightened where a shorter one is cheap to find
    (:mod:`pychessdraw.deadposition.tighten`). The one place every view
    (the panel, a flag fall's banner, the Arbiter view) gets it, so that
    they show the same line; remembered, since the same proof is shown
    again at each look at the position."""
    if not line:
        return line
    return list(_tightened(board.fen(), board.chess960, color, tuple(line)))


@functools.lru_cache(maxsize=256)
def _tightened(fen: str, chess960: bool, color: chess.Color, line: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(tighten_san(chess.Board(fen, chess960=chess960), color, line))


def numbered_line(board: chess.Board, line: list[str] | None, limit: int = MAX_LINE) -> str:
    """A line of SAN moves from ``board`` with move numbers ("12...Kb8 13.Ra1"),
    cut to ``limit`` plies with the length of the whole line said."""
    if not line:
        return ""
    number, white = board.fullmove_number, board.turn == chess.WHITE
    out = []
    for i, san in enumerate(line[:limit]):
        if white:
            out.append(f"{number}.{san}")
        else:
            out.append(f"{number}...{san}" if i == 0 else san)
            number += 1
        white = not white
    more = len(line) - limit
    total = ngettext(" … ({count} ply in all)", " … ({count} plies in all)", len(line)).format(count=len(line))
    return " ".join(out) + (total if more > 0 else "")


def winnability(
    status: Status, board: chess.Board, color: chess.Color, *, can_search: bool, game_over: bool = False
) -> Winnability:
    name = side(color)
    detail: dict[str, Any] = dict((status.winnable_detail or {}).get(color) or {})
    answer = None if status.winnable is None else status.winnable.get(color)
    if status.cannot_mate[color]:
        answer = False
    if answer is True:
        line = numbered_line(board, proof_line(board, color, detail.get("line")))
        return {
            "answer": "yes",
            "text": gettext("{side} can still checkmate").format(side=name),
            "proof": gettext("a mating line: {line}").format(line=line)
            if line
            else str(detail.get("reason") or gettext("checkmate")),
            "searching": False,
            "word": gettext("Yes"),
        }
    if answer is False:
        reason = str(detail.get("reason") or "") or gettext("not enough material to checkmate")
        return {
            "answer": "no",
            "text": gettext("{side} cannot checkmate by any series of legal moves").format(side=name),
            "proof": gettext("proven: {reason}").format(reason=reason),
            "searching": False,
            "word": gettext("No"),
        }
    if game_over or status.outcome is not None:  # nothing is searched once the game is over
        return {
            "answer": "unknown",
            "text": gettext("{side}: not searched, the game is over").format(side=name),
            "proof": "",
            "searching": False,
            "word": gettext("Not searched"),
        }
    return {
        "answer": "unknown",
        "text": gettext("{side}: not decided yet").format(side=name),
        "proof": gettext("still searching") if can_search else gettext("the search ran out of time"),
        "searching": can_search,
        "word": gettext("Not decided yet"),
    }


def _dead_text(status: Status, win: ByColor[Winnability]) -> str:
    out = status.outcome
    if out is not None and out.termination in (Termination.DEAD_POSITION, Termination.INSUFFICIENT_MATERIAL):
        return gettext("Neither side can checkmate: dead position, the game is drawn ({article})").format(article=_DEAD)
    if out is not None:
        return gettext("The game is over.")
    sides: tuple[ColorName, ColorName] = ("white", "black")
    yes = [c for c in sides if win[c]["answer"] == "yes"]
    if yes:
        if len(yes) == 1:
            return gettext("Not a dead position: {side} can still checkmate ({article})").format(
                side=side(yes[0]), article=_DEAD
            )
        return gettext("Not a dead position: {white} and {black} can still checkmate ({article})").format(
            white=side("white"), black=side("black"), article=_DEAD
        )
    no = [c for c in sides if win[c]["answer"] == "no"]
    if no:
        return gettext("{side} cannot checkmate; whether {other} can is not decided yet ({article})").format(
            side=side(no[0]), other=side("black" if no[0] == "white" else "white"), article=_DEAD
        )
    return gettext("Dead position ({article}): not decided yet").format(article=_DEAD)


def _hints(board: chess.Board, status: Status, win: ByColor[Winnability]) -> list[str]:
    """Chess knowledge, never rules: nothing once the game is over, nothing
    about a side the rules already proved unable to mate."""
    if status.outcome is not None:
        return []
    out: list[str] = []
    for color in chess.COLORS:
        if win[color_name(color)]["answer"] != "no":
            out += side_notes(board, color, can_force_mate(board, color))
    if all(win[c]["answer"] != "no" for c in ("white", "black")):
        drawn = practical_draw(board)
        if drawn:
            out.append(gettext("Practically drawn: {why}").format(why=drawn))
    return out


def _claim_groups(status: Status, board: chess.Board) -> list[ClaimGroup]:
    if status.outcome is not None:
        return []
    who = side(board.turn)
    groups: list[ClaimGroup] = []
    by_rule: dict[ClaimRuleName, list[ClaimChoice]] = {}
    for claim in status.claims:
        rule = claim.rule_name
        if claim.uci is None:
            article = claim.article
            groups.append(
                {
                    "rule": rule,
                    "article": article,
                    "rule_label": _RULE_LABEL(rule),
                    "now": True,
                    "text": gettext("{side} may claim a draw now: {rule} (FIDE {article})").format(
                        side=who, rule=_RULE_LABEL(rule), article=article
                    ),
                    "moves": [],
                    "arrows": False,
                }
            )
        else:
            by_rule.setdefault(rule, []).append(
                {
                    "uci": claim.uci,
                    "san": claim.san or claim.uci,
                    "question": claim_question(rule, claim.san or claim.uci),
                }
            )
    for rule, moves in by_rule.items():
        article = claim_article(Termination(rule), with_move=True)
        name = _RULE_LABEL(rule)
        if rule == Termination.FIFTY_MOVES.value and len(moves) > MAX_ARROWS:
            text = gettext(
                "Any move that is not a pawn move or a capture lets {side} claim a draw by the "
                "fifty-move rule (FIDE {article}): pick it below, or just play it"
            ).format(side=who, article=article)
        elif len(moves) == 1:
            text = gettext("{move} lets {side} claim a draw by {rule} (FIDE {article})").format(
                move=moves[0]["san"], side=who, rule=name, article=article
            )
        else:
            more = len(moves) - 8
            sans = ", ".join(m["san"] for m in moves[:8])
            sans += ngettext(" and {count} more", " and {count} more", more).format(count=more) if more > 0 else ""
            text = gettext("{moves}: each lets {side} claim a draw by {rule} (FIDE {article})").format(
                moves=sans, side=who, rule=name, article=article
            )
        groups.append(
            {
                "rule": rule,
                "article": article,
                "rule_label": name,
                "now": False,
                "text": text,
                "moves": moves,
                "arrows": len(moves) <= MAX_ARROWS,
            }
        )
    return groups


def claim_question(rule: str, san: str) -> str:
    if rule == Termination.THREEFOLD_REPETITION.value:
        return gettext("{move} repeats the position a third time: claim a draw with this move?").format(move=san)
    return gettext("{move} completes fifty moves without a pawn move or capture: claim a draw with this move?").format(
        move=san
    )


def claims_text(
    groups: list[ClaimGroup], status: Status, board: chess.Board, live: bool, claimant: chess.Color | None = None
) -> str:
    """The claims' heading; for an earlier position (``live`` False), what
    the current position offers (``claimant``: the side that may claim
    there), since a claim is always made there."""
    if not live:
        if claimant is None:
            return gettext("No draw claim in the current position.")
        return gettext("{side} may claim a draw in the current position (End returns to it).").format(
            side=side(claimant)
        )
    if status.outcome is not None:
        return gettext("The game is over: nothing to claim.")
    if not groups:
        return gettext("{side} has no draw claim now.").format(side=side(board.turn))
    return gettext("{side} may claim a draw:").format(side=side(board.turn))


def describe(board: chess.Board) -> str:
    """The position in words: who is to move, then each side's pieces."""
    to_move = gettext("{side} to move, in check.") if board.is_check() else gettext("{side} to move.")
    parts = [to_move.format(side=side(board.turn))]
    for color in chess.COLORS:
        words = []
        for ptype in (chess.KING, chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT, chess.PAWN):
            squares = sorted(chess.square_name(s) for s in board.pieces(ptype, color))
            if squares:
                one, many = _PIECE_WORDS[ptype]
                words.append(f"{ngettext(one, many, len(squares))} {', '.join(squares)}")
        parts.append(f"{side(color)}: {'; '.join(words)}.")
    return " ".join(parts)


def facts(
    game: Game,
    status: Status,
    *,
    label: Labeller,
    live: bool = True,
    outcome: OutcomeView | None = None,
    can_search: bool = True,
    claimant: chess.Color | None = None,
    language: str | None = None,
) -> Facts:
    """The panel's facts for ``status`` (a status of ``game``'s current
    position, with legal moves). ``outcome`` overrides the status's own
    (a recorded result, or an ending the rules reached earlier).  For an
    earlier position (``live`` False), ``claimant``: the side that may
    claim a draw in the game's current position, if any. The sentences
    are in ``language`` (None: the current one, :mod:`pychessdraw.i18n`);
    an ``outcome`` passed in stays in the words it was made in."""
    with i18n.language(language):
        return _facts(game, status, label, live, outcome, can_search, claimant)


def _facts(
    game: Game,
    status: Status,
    label: Labeller,
    live: bool,
    outcome: OutcomeView | None,
    can_search: bool,
    claimant: chess.Color | None,
) -> Facts:
    board = game.current_board()
    searchable = can_search and status.outcome is None and outcome is None
    win: ByColor[Winnability] = {
        "white": winnability(status, board, chess.WHITE, can_search=searchable, game_over=outcome is not None),
        "black": winnability(status, board, chess.BLACK, can_search=searchable, game_over=outcome is not None),
    }
    groups = _claim_groups(status, board) if live and outcome is None else []
    over = status.outcome is not None or outcome is not None
    out_view = outcome if outcome is not None else (None if status.outcome is None else outcome_view(status.outcome))
    ply = status.ply
    where = gettext("the start position") if ply == 0 else gettext("the position after {move}").format(move=label(ply))
    flag: ByColor[FlagView] | None = None
    if status.flag_results is not None and not over:
        flag = {
            "white": flag_view(
                status.flag_results[chess.WHITE], chess.WHITE, win["black"]["answer"], status.flag_rules
            ),
            "black": flag_view(
                status.flag_results[chess.BLACK], chess.BLACK, win["white"]["answer"], status.flag_rules
            ),
        }
    offer: Offer | None = None
    if not over and live:
        by, to = color_name(not board.turn), color_name(board.turn)
        offer = {
            "by": by,
            "to": to,
            "text": gettext("{side} offers a draw (the player who has just moved, {article}). {other}:").format(
                side=side(by), article=_OFFER, other=side(to)
            ),
        }
    legal: list[LegalMove] = list(status.legal_moves or ()) if live and not over else []
    return {
        "ply": ply,
        "turn": color_name(board.turn),
        "fen": status.fen,
        "check": status.check,
        "where": where,
        "turn_text": gettext("Game over") if over else _turn_text(board.turn, status.check),
        "description": describe(board),
        "halfmove": halfmove(status.halfmove_clock, not over),
        "repetition": repetitions(status.repetition_count, list(status.repetitions), label, not over),
        "outcome": out_view,
        "claims": groups,
        "claims_text": claims_text(groups, status, board, live, claimant)
        if outcome is None
        else gettext("The game is over: nothing to claim."),
        "winnable": win,
        "dead_text": _dead_text(status, win) if outcome is None else gettext("The game is over."),
        "flag_fall": flag,
        "flag_rules": status.flag_rules,
        "hints": _hints(board, status, win) if not over else [],
        "offer": offer,
        "legal_moves": legal,
        "live": live,
        "can_undo": live and (game.ply > 0 or game.declared_outcome() is not None),
        "material": material(board),
    }


def _turn_text(turn: chess.Color, check: bool) -> str:
    return (gettext("{side} to move (check)") if check else gettext("{side} to move")).format(side=side(turn))


def flag_view(result: ResultName | None, flagged: chess.Color, opponent_answer: str, rules: str = "fide") -> FlagView:
    """What a flag fall of ``flagged`` would give, in words that never state
    more than the referee proved: a draw with its reason (the opponent
    proven unable to mate, FIDE 6.9; or US Chess 14E), a win where the
    opponent is shown able to mate, and otherwise the rule's default
    said as a default: the win stands unless a draw is proven, and whether
    it can be is not decided yet. ``opponent_answer``: the opponent's
    "can it still checkmate?" answer (yes / no / unknown); ``rules``: the
    flag-fall rules ("fide" or "uscf"), whose citation the words give."""
    who, cited = side(not flagged), laws.flag_citation(rules)
    if result == "1/2-1/2":
        why = (
            gettext("{side} cannot checkmate, {rules}").format(side=who, rules=cited)
            if opponent_answer == "no"
            else laws.USCF_INSUFFICIENT
        )
        return {"result": result, "text": gettext("{result} (draw: {why})").format(result=result, why=why)}
    if opponent_answer == "yes":
        text = gettext("{result} ({side} wins: {side} can still checkmate, {rules})")
        return {"result": result, "text": text.format(result=result, side=who, rules=cited)}
    return {
        "result": result,
        "text": gettext(
            "{result} unless a draw is proven: undecided, whether {side} can checkmate is not decided yet ({rules})"
        ).format(result=result, side=who, rules=cited),
    }


def auto_claim_note(claimer: chess.Color, lead: str = "") -> str:
    """What the record says of a claim made by the auto-claim setting (no
    FIDE article in it: the PGN reader takes the ending's from the last one)."""
    return lead + gettext("{side}'s claim was made automatically, by the page's auto-claim setting.").format(
        side=side(claimer)
    )


def claim_verdict(result: ClaimResult, san: str | None, claimer: chess.Color, *, auto: bool = False) -> ClaimVerdict:
    """The arbiter's answer to ``claimer``'s claim, which it names (the
    claim may come from either side); a refused one says what FIDE 9.5.3
    gives the opponent where clocks run (the page adds the time). ``auto``:
    the claim was made by the player's auto-claim setting, which the text says."""
    who = side(claimer)
    if result.accepted:
        headline = gettext("{side}'s claim accepted").format(side=who)
    else:
        headline = gettext("{side}'s claim refused").format(side=who)
    text = result.reason + (auto_claim_note(claimer, lead=" ") if auto else "")
    rule: ClaimRuleName | None = None if result.rule is None else result.to_dict()["rule"]
    wrong: WrongClaim | None = None
    if not result.accepted:
        to, article = side(not claimer), laws.fide(laws.WRONG_CLAIM)
        wrong = {
            "to": color_name(not claimer),
            "bonus_ms": laws.WRONG_CLAIM_BONUS_MS,
            "text": gettext(" Two minutes were added to {side}'s clock ({article}).").format(side=to, article=article),
            "note": gettext("{article}: {side} got two more minutes for the wrong claim.").format(
                article=article, side=to
            ),
        }
    return {
        "accepted": result.accepted,
        "rule": rule,
        "move": result.move,
        "san": san,
        "headline": headline,
        "text": text,
        "wrong_claim": wrong,
    }
