// SPDX-License-Identifier: GPL-3.0-or-later
// The computer's draw policy: pure functions, no DOM, no engine, no clock.
//
// It decides, from the referee's facts and the engine's scored candidates,
// whether the computer claims a draw (now or with an intended move), offers
// one, accepts or declines an offer, and which move it plays; and it says why
// in one sentence. The rules come from the referee (pychessdraw): the policy
// never decides itself whether a claim is correct, it only chooses among the
// claims the referee lists and avoids the moves the referee says would let
// the opponent claim.
//
// Scores are centipawns from the computer's point of view (positive: it is
// better) in every decision; a mate score counts as MATE_CP less the number
// of moves. The sentences show them from White's point of view (scoreText).
// Limits: one ply ahead (what the opponent may claim on its next turn); the
// "drawn in practice" judgement is the referee's practical-draw hint, not a
// tablebase.

import { LAWS } from "../contract.js";
import { t, tMarked } from "../i18n.js";

/** Level or worse: at most this, the computer is "not better" and claims. */
export const NOT_BETTER_CP = 30;
/** Worse: accepts a draw offer. */
export const WORSE_CP = -100;
/** Clearly worse: offers a draw in a position drawn in practice. */
export const CLEARLY_WORSE_CP = -200;
/** Winning: avoids every move that lets the game be drawn by a rule. */
export const WINNING_CP = 150;
/** Level: within this of 0, a drawn-in-practice ending is accepted as a draw. */
export const LEVEL_CP = 50;
/** A mate in n scores MATE_CP - n (or -(MATE_CP - n) when being mated). */
export const MATE_CP = 100_000;
/** No second draw offer within this many plies of the last one. */
export const OFFER_INTERVAL_PLIES = 10;

// The referee's shapes come from the generated contract (pychessdraw/web/contract.py).
/** @typedef {import("../contract.js").Color} Side */
/** @typedef {import("../contract.js").ClaimRuleName} ClaimRule */
/** A claim the referee says is open to the computer (the side to move). @typedef {import("../contract.js").ClaimDict} ClaimOption */
/**
 * What the policy reads of the referee's facts about the current position (op engine_facts).
 * @typedef {Pick<import("../contract.js").EngineFactsDict, "claims"|"repetition_count"|"halfmove_clock"|"practical_draw"|"ply">} PositionFacts
 */
/**
 * What the policy reads of the referee's view of the position after one candidate move.
 * @typedef {Pick<import("../contract.js").MoveProbeDict,
 *   "uci"|"san"|"repetition_count"|"draw"|"automatic"|"opponent_claims_now"|"opponent_claims_with_move">} MoveProbe
 */

/**
 * @typedef {Object} Score
 * @property {number|null} cp
 * @property {number|null} mate  moves to mate, negative when being mated
 */

/**
 * One line of the engine's MultiPV search.
 * @typedef {Object} Candidate
 * @property {string} uci
 * @property {number} rank  1 = the engine's best line
 * @property {Score} score  from the computer's point of view
 */

/**
 * @typedef {Object} Situation
 * @property {Side} side  the computer's colour (it is to move)
 * @property {PositionFacts} facts
 * @property {Candidate[]} candidates  by rank
 * @property {string} bestmove  the engine's choice (at a reduced skill level it may not be rank 1)
 * @property {MoveProbe[]} probes  one per candidate (any order)
 * @property {boolean} offer_pending  the opponent offered a draw with its last move
 * @property {number|null} last_offer_ply  when the computer last offered a draw
 */

/**
 * @typedef {Object} Decision
 * @property {"claim"|"accept"|"move"} action
 *   claim: ask the referee to rule on `claim` (with its move, if any);
 *   accept: accept the opponent's offer; move: play `move`
 * @property {ClaimOption|null} claim
 * @property {string|null} move  UCI
 * @property {string|null} san
 * @property {boolean} offer  offer a draw after playing `move` (FIDE 9.1.2.2)
 * @property {boolean} declined  an offer was pending and the computer declined it by moving
 * @property {string|null} avoided  SAN of the engine's choice it replaced, to avoid a draw
 * @property {number} standing  the score the decision rests on
 * @property {"winning"|"better"|"level"|"worse"|"clearly worse"|"losing"} judgement
 * @property {string} text  the sentence the page shows
 */

/** @param {Score} score @returns {number} */
export function centipawns(score) {
  if (score.mate !== null && score.mate !== undefined) {
    return score.mate > 0 ? MATE_CP - score.mate : score.mate < 0 ? -(MATE_CP + score.mate) : -MATE_CP;
  }
  return score.cp ?? 0;
}

/** @param {number} cp @returns {Decision["judgement"]} */
export function judge(cp) {
  if (cp >= WINNING_CP) return "winning";
  if (cp > NOT_BETTER_CP) return "better";
  if (cp > WORSE_CP) return "level";
  if (cp > CLEARLY_WORSE_CP) return "worse";
  if (cp > -MATE_CP / 2) return "clearly worse";
  return "losing";
}

/**
 * A rule by the referee's name for it, as the object of "by": "the fifty-move rule", "threefold repetition".
 * @param {import("../contract.js").TerminationName} rule
 */
function ruleWords(rule) {
  // the referee's own words for the rule (its catalog's, merged into the page's by web/build_i18n.py)
  return tMarked(LAWS.rule_in_sentence[rule]);
}

/** @param {Side} side */
function name(side) {
  return side === "white" ? t("White") : t("Black");
}

/** A judgement in words. @param {Decision["judgement"]} judgement */
function judgementWords(judgement) {
  return {
    winning: () => t("winning"), better: () => t("better"), level: () => t("level"), worse: () => t("worse"),
    "clearly worse": () => t("clearly worse"), losing: () => t("losing"),
  }[judgement]();
}

/** @param {Side} side @returns {Side} */
function other(side) {
  return side === "white" ? "black" : "white";
}

/**
 * A score as the page shows it: in pawns from White's point of view, as
 * lichess and chess.com give every score (Black better: negative), whichever
 * side the computer plays; a mate in words, for the computer ("mate in 2":
 * it mates; "mated in 2": it is mated).
 * @param {number} cp  from the computer's point of view
 * @param {Side} side  the computer
 */
export function scoreText(cp, side) {
  if (cp >= MATE_CP / 2) return t("mate in {n}", { n: MATE_CP - cp });
  if (cp <= -MATE_CP / 2) return t("mated in {n}", { n: MATE_CP + cp });
  const white = side === "white" ? cp : -cp;
  const v = Math.abs(white / 100).toFixed(1);
  return v === "0.0" ? "0.0" : white > 0 ? `+${v}` : `\u2212${v}`;
}

/**
 * Whether playing `probe` hands the game a draw: the move ends it in a draw,
 * makes a third occurrence, or lets the opponent claim next.
 * @param {MoveProbe|undefined} probe
 */
export function letsDraw(probe) {
  if (!probe) return false;
  return probe.draw || probe.opponent_claims_now.length > 0 || probe.opponent_claims_with_move.length > 0;
}

/** @param {MoveProbe|undefined} probe @param {Side} opponent */
function drawWords(probe, opponent) {
  if (!probe) return "";
  if (probe.draw && probe.automatic) {
    return t("would end the game in a draw ({rule})", { rule: ruleWords(probe.automatic.termination) });
  }
  const rules = [...new Set([...probe.opponent_claims_now, ...probe.opponent_claims_with_move])].map(ruleWords)
    .join(t(" or "));
  const side = name(opponent);
  return probe.opponent_claims_now.length ? t("would let {side} claim a draw by {rules} at once", { side, rules })
    : t("would let {side} claim a draw by {rules} with its next move", { side, rules });
}

/**
 * The score the computer's position is worth if it does NOT take a draw:
 * the best candidate that neither claims nor lets a draw be claimed. (An
 * engine scores a repetition as 0.00, so the best line alone would make a
 * lost position look level whenever a repetition is at hand.)
 * @param {Candidate[]} candidates
 * @param {Map<string, MoveProbe>} probes
 */
export function standing(candidates, probes) {
  /** @type {number|null} */
  let best = null;
  for (const c of candidates) {
    const p = probes.get(c.uci);
    if (letsDraw(p)) continue;
    const cp = centipawns(c.score);
    if (best === null || cp > best) best = cp;
  }
  if (best !== null) return best;
  return candidates.length ? centipawns(candidates[0].score) : 0;
}

/**
 * The sentence of a move.
 * @param {"declines"|"offers"|"avoids"|"plays"} how
 * @param {{side: string, move: string, why: string, score: string, ending: string, avoided: string, consequence: string}} said
 */
function moveText(how, said) {
  if (how === "declines") return t("{side} declines the draw offer and plays {move}: {why}.", said);
  if (how === "offers") return t("{side} plays {move} and offers a draw: {why}, in an ending drawn in practice ({ending}).", said);
  if (how === "avoids") return t("{side} plays {move}, not {avoided}, which {consequence}: {why}.", said);
  return t("{side} plays {move} ({score}).", said);
}

/**
 * Decide what the computer does on its turn.
 * @param {Situation} s
 * @returns {Decision}
 */
export function decide(s) {
  const probes = new Map(s.probes.map((p) => [p.uci, p]));
  const score = standing(s.candidates, probes);
  const judgement = judge(score);
  const me = name(s.side);
  const shown = scoreText(score, s.side);
  const why = t("it judged its position {judgement} ({score})", { judgement: judgementWords(judgement), score: shown });
  const base = { claim: null, move: null, san: null, offer: false, declined: false, avoided: null,
                 standing: score, judgement };

  // 1. An offer from the opponent is answered first: accepting ends the game.
  if (s.offer_pending) {
    const drawnEnding = s.facts.practical_draw !== null;
    if (score <= WORSE_CP || (drawnEnding && score < LEVEL_CP)) {
      const reason = score <= WORSE_CP ? why
        : t("{why} in an ending drawn in practice ({ending})", { why, ending: s.facts.practical_draw || "" });
      return { ...base, action: "accept", text: t("{side} accepts the draw offer: {reason}.", { side: me, reason }) };
    }
  }

  // 2. A correct claim when not better: now first, else with the best-scored intended move.
  if (score <= NOT_BETTER_CP && s.facts.claims.length) {
    const now = s.facts.claims.find((c) => c.move === null);
    /** @type {ClaimOption|undefined} */
    let pick = now;
    if (!pick) {
      const rankOf = (/** @type {ClaimOption} */ c) => {
        const cand = s.candidates.find((x) => x.uci === c.move);
        return cand ? centipawns(cand.score) : -Infinity;
      };
      pick = [...s.facts.claims].sort((a, b) => rankOf(b) - rankOf(a))[0];
    }
    const said = { side: me, rule: ruleWords(pick.rule), move: pick.san || "", article: pick.article, why };
    return { ...base, action: "claim", claim: pick, move: pick.move, san: pick.san,
             text: pick.move ? t("{side} claims a draw by {rule} with {move} ({article}): {why}.", said)
               : t("{side} claims a draw by {rule} ({article}): {why}.", said) };
  }

  // 3. The move: the engine's choice, unless winning and it hands over a draw.
  // (at a reduced skill level the engine's choice may be a move without a
  // reliable score of its own: it is played unless it hands over a draw)
  let uci = s.bestmove || (s.candidates.length ? s.candidates[0].uci : "");
  /** @type {string|null} */
  let avoided = null;
  let avoidText = "";
  if (score >= WINNING_CP && letsDraw(probes.get(uci))) {
    const safe = s.candidates.find((c) => !letsDraw(probes.get(c.uci)) && centipawns(c.score) >= WINNING_CP);
    if (safe) {
      const p = probes.get(uci);
      avoided = p ? p.san : uci;
      avoidText = drawWords(p, other(s.side));
      uci = safe.uci;
    }
  }
  const probe = probes.get(uci);
  const san = probe ? probe.san : uci;

  const offer = !s.offer_pending && s.facts.practical_draw !== null && score <= CLEARLY_WORSE_CP
    && (s.last_offer_ply === null || s.facts.ply - s.last_offer_ply >= OFFER_INTERVAL_PLIES);

  const said = { side: me, move: san, why, score: shown, ending: s.facts.practical_draw || "", avoided: avoided || "",
                 consequence: avoidText };
  const text = moveText(s.offer_pending ? "declines" : offer ? "offers" : avoided ? "avoids" : "plays", said);
  return { ...base, action: "move", move: uci, san, offer, declined: s.offer_pending, avoided, text };
}
