// SPDX-License-Identifier: GPL-3.0-or-later
// The computer as a player: the engine proposes, the referee informs, the
// policy decides. No DOM: the controller calls `think()` when it is the
// computer's turn and carries out the decision (claim, accept, move, offer)
// through the referee like a human's action.
//
// One turn: a MultiPV search; the referee's facts about the position and
// about each candidate (bridge op `engine_facts`); the policy's decision. When
// the computer is winning and every candidate would hand the opponent a
// draw, a second search restricted to the moves the referee says are safe
// (`go searchmoves`) looks for one that keeps the advantage.

import { centipawns, decide, letsDraw, WINNING_CP } from "./policy.js";

/**
 * @typedef {Object} Level
 * @property {string} id
 * @property {string} label
 * @property {number} skill  Stockfish "Skill Level", 0..20
 * @property {number} movetime  milliseconds per move (the cap when a clock runs)
 */

/** A handful of steps from beginner to strong. */
/** @type {Level[]} */
export const LEVELS = [
  { id: "1", label: "Beginner", skill: 0, movetime: 100 },
  { id: "2", label: "Casual", skill: 4, movetime: 200 },
  { id: "3", label: "Club", skill: 8, movetime: 400 },
  { id: "4", label: "Expert", skill: 14, movetime: 1000 },
  { id: "5", label: "Strong", skill: 20, movetime: 2000 },
];
export const DEFAULT_LEVEL = "3";
/** Candidate lines per search: enough to find a non-drawing alternative. */
export const MULTIPV = 4;

/** @param {string} id @returns {Level} */
export function levelById(id) {
  return LEVELS.find((l) => l.id === id) ?? /** @type {Level} */ (LEVELS.find((l) => l.id === DEFAULT_LEVEL));
}

/**
 * The referee's answer to `engine_facts` (pychessdraw.web.probe.engine_facts).
 * @typedef {import("./policy.js").PositionFacts & {turn: "white"|"black", probes: import("./policy.js").MoveProbe[]}} EngineFacts
 */

/**
 * @typedef {Object} Turn
 * @property {"white"|"black"} side  the computer (to move)
 * @property {string} fen  the game's start position
 * @property {string[]} moves  UCI moves played since
 * @property {boolean} chess960
 * @property {string[]} legal  UCI of every legal move now
 * @property {Level} level
 * @property {import("./client.js").Clock|null} clock
 * @property {boolean} offer_pending
 * @property {number|null} last_offer_ply
 */

/**
 * @typedef {Object} Engine  what the player needs of EngineClient
 * @property {(req: import("./client.js").SearchRequest) => Promise<import("./client.js").SearchResult>} search
 * @property {() => void} abort
 */

export class ComputerPlayer {
  /**
   * @param {Engine} engine
   * @param {(moves: string[]) => Promise<EngineFacts>} askReferee  the bridge's engine_facts
   */
  constructor(engine, askReferee) {
    this.engine = engine;
    this.askReferee = askReferee;
    this.generation = 0;
  }

  /** Forget the turn in progress (undo, new game, the visitor took over). */
  abort() {
    this.generation += 1;
    this.engine.abort();
  }

  /**
   * Think about one turn. Resolves with the decision, or null when aborted
   * meanwhile; rejects when the engine or the referee fails.
   * @param {Turn} t
   * @returns {Promise<import("./policy.js").Decision|null>}
   */
  async think(t) {
    const gen = this.generation;
    const base = { fen: t.fen, moves: t.moves, turn: t.side, chess960: t.chess960, skill: t.level.skill,
                   movetime: t.level.movetime, clock: t.clock };
    const first = await this.engine.search({ ...base, multipv: MULTIPV });
    if (first.aborted || gen !== this.generation) return null;
    if (!first.bestmove && !first.candidates.length) return null;
    let candidates = first.candidates;
    const ucis = [...new Set([...candidates.map((c) => c.uci), ...(first.bestmove ? [first.bestmove] : [])])];
    let facts = await this.askReferee(ucis);
    if (gen !== this.generation) return null;
    let probes = facts.probes;

    const byUci = new Map(probes.map((p) => [p.uci, p]));
    const best = candidates.length ? centipawns(candidates[0].score) : 0;
    const allDraw = candidates.every((c) => letsDraw(byUci.get(c.uci)));
    if (best >= WINNING_CP && allDraw && t.legal.length > ucis.length) {
      // Winning, but every line the engine looked at lets the game be drawn:
      // ask the referee about every legal move and search only the safe ones.
      const all = await this.askReferee(t.legal);
      if (gen !== this.generation) return null;
      const safe = all.probes.filter((p) => !letsDraw(p)).map((p) => p.uci);
      if (safe.length) {
        const second = await this.engine.search({ ...base, multipv: 1, searchmoves: safe });
        if (second.aborted || gen !== this.generation) return null;
        const extra = second.candidates.filter((c) => !ucis.includes(c.uci))
          .map((c, i) => ({ ...c, rank: candidates.length + 1 + i }));
        candidates = [...candidates, ...extra];
        facts = all;
        probes = all.probes;
      }
    }
    return decide({
      side: t.side,
      facts,
      candidates,
      bestmove: first.bestmove ?? candidates[0].uci,
      probes,
      offer_pending: t.offer_pending,
      last_offer_ply: t.last_offer_ply,
    });
  }
}
