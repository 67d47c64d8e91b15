// SPDX-License-Identifier: GPL-3.0-or-later
// The JSON contract between pychessdraw.bridge and the page, as JSDoc types.
// They mirror pychessdraw/bridge_contract.py name for name (tests/test_contract.py
// checks that they agree); `tsc --noEmit --checkJs` checks every module
// against them. The facts are display-ready: the page parses no FEN and no
// sentence.

/** @typedef {"white"|"black"} Color */
/** @typedef {"yes"|"no"|"unknown"} Answer */

/**
 * @typedef {Object} LegalMove
 * @property {string} uci
 * @property {string} san
 * @property {string} from
 * @property {string} to
 * @property {string|null} promotion
 */

/**
 * @typedef {Object} ErrorInfo
 * @property {string} code  stable: illegal_move, bad_fen, bad_pgn, promotion_needed, bad_request, ...
 * @property {string} message  short, in chess words, no FEN
 * @property {LegalMove[]} [choices]  promotion_needed: the moves to choose from
 */

/**
 * @typedef {Object} MoveRow
 * @property {number} ply
 * @property {string} san
 * @property {string} uci
 * @property {string} fen
 * @property {string} label  "3...Qxf7"
 * @property {number} number
 * @property {boolean} white
 * @property {number} repetition_count
 * @property {boolean} after_end  played after the rules had ended the game (imported)
 * @property {number|null} [clock_ms]  the mover's [%clk] time after the move (imported PGN)
 */

/**
 * @typedef {Object} MovesDelta
 * @property {number} keep  rows the page keeps (rows[0:keep])
 * @property {MoveRow[]} add  rows that follow them
 */

/**
 * @typedef {Object} Counter
 * @property {number} value
 * @property {number} claim_at
 * @property {number} auto_at
 * @property {string} claim_article
 * @property {string} auto_article
 * @property {string} text
 * @property {string} auto_text
 * @property {"none"|"near"|"claim"|"over"} level
 */

/**
 * @typedef {Object} Occurrence
 * @property {number} ply
 * @property {string} label
 */

/** @typedef {Counter & {earlier: Occurrence[]}} Repetition */

/**
 * @typedef {Object} OutcomeView
 * @property {string} termination  a rule, or "unknown" for a recorded result without a known reason
 * @property {string} result
 * @property {Color|null} winner
 * @property {string|null} article
 * @property {string} reason
 * @property {"automatic"|"claimed"|"declared"|"recorded"} how
 * @property {string} headline
 * @property {string} detail
 * @property {number|null} ended_at
 * @property {string|null} ended_at_label
 */

/**
 * @typedef {Object} ClaimChoice
 * @property {string} uci
 * @property {string} san
 * @property {string} question
 */

/**
 * @typedef {Object} ClaimGroup
 * @property {string} rule
 * @property {string} article
 * @property {string} rule_label
 * @property {boolean} now
 * @property {string} text
 * @property {ClaimChoice[]} moves
 * @property {boolean} arrows
 */

/**
 * @typedef {Object} Winnability
 * @property {Answer} answer
 * @property {string} text
 * @property {string} proof
 * @property {boolean} searching
 * @property {string} word  "Yes", "No", "Not decided yet", "Not searched" (game over)
 */

/**
 * @typedef {Object} FlagView
 * @property {string|null} result
 * @property {string} text
 */

/**
 * @typedef {Object} Offer
 * @property {Color} by  the player who has just moved (FIDE 9.1.2.2)
 * @property {Color} to
 * @property {string} text
 */

/**
 * @typedef {Object} Facts
 * @property {number} ply
 * @property {Color} turn
 * @property {string} fen
 * @property {boolean} check
 * @property {string} where
 * @property {string} turn_text
 * @property {string} description
 * @property {Counter} halfmove
 * @property {Repetition} repetition
 * @property {OutcomeView|null} outcome
 * @property {ClaimGroup[]} claims
 * @property {string} claims_text
 * @property {Record<string, Winnability>} winnable
 * @property {string} dead_text
 * @property {Record<string, FlagView>|null} flag_fall
 * @property {string} flag_rules
 * @property {string[]} hints
 * @property {Offer|null} offer
 * @property {LegalMove[]} legal_moves
 * @property {boolean} live
 */

/**
 * @typedef {Object} GameInfo
 * @property {string} start_fen
 * @property {boolean} chess960
 * @property {Record<string, string>} headers
 * @property {OutcomeView|null} recorded
 */

/**
 * @typedef {Object} ClaimVerdict
 * @property {boolean} accepted
 * @property {string|null} rule
 * @property {string|null} move
 * @property {string|null} san
 * @property {string} headline
 * @property {string} text
 */

/**
 * @typedef {Object} ClaimAsk
 * @property {string} rule
 * @property {string} uci
 * @property {string} san
 * @property {string} question
 */

/**
 * @typedef {Object} PgnGameInfo
 * @property {number} index
 * @property {string} label
 */

/**
 * @typedef {Object} Analysed
 * @property {number} level
 * @property {boolean} final
 */

/**
 * @typedef {Object} Ending
 * @property {string} op  agree | resign | flag | claim | recorded
 * @property {Color} [color]
 */

/**
 * @typedef {Object} Reply
 * @property {boolean} ok
 * @property {ErrorInfo} [error]
 * @property {Facts} [facts]
 * @property {MovesDelta} [moves]
 * @property {GameInfo} [game]
 * @property {ClaimVerdict} [claim]
 * @property {ClaimAsk} [ask]
 * @property {string} [pgn]
 * @property {PgnGameInfo[]} [games]
 * @property {Analysed} [analysed]
 * @property {Ending|null} [ending]
 * @property {ReviewResult[]} [results]  review_start/feed/finish: the games completed
 * @property {EngineFactsDict} [engine_facts]
 */

/**
 * @typedef {Object} ReviewEvent
 * @property {number} ply
 * @property {string} rule
 * @property {string} kind  automatic | claimable | claimable_with_move
 */

/**
 * One reviewed game as the review table shows it (pychessdraw/review.py).
 * @typedef {Object} ReviewRow
 * @property {number} game
 * @property {string} white
 * @property {string} black
 * @property {string} result  as recorded
 * @property {"ok"|"wrong_result"|"ended_earlier"|"undecided"|"error"} verdict
 * @property {string|null} expected_result
 * @property {number|null} ended_at
 * @property {number} plies
 * @property {ReviewEvent[]} events
 * @property {string|null} error  in chess words
 * @property {number|null} error_ply
 * @property {number} first_move  the start position's move number
 * @property {boolean} black_first
 * @property {number} start  character offsets of the game in the text fed
 * @property {number} end
 */

/**
 * @typedef {Object} ReviewResult
 * @property {string} line  the game's report as the CLI's scan prints it
 * @property {ReviewRow} row
 */

/**
 * The computer's question before it moves (op engine_facts; pychessdraw/probe.py).
 * @typedef {Object} EngineFactsDict
 * @property {Color} turn
 * @property {number} ply
 * @property {import("./engine/policy.js").ClaimOption[]} claims  open to the side to move, now or with a move
 * @property {number} repetition_count
 * @property {number} halfmove_clock
 * @property {string|null} practical_draw  the referee's hint (knowledge, not a rule)
 * @property {import("./engine/policy.js").MoveProbe[]} probes
 */

/**
 * @typedef {Object} Request
 * @property {string} op
 * @property {Record<string, unknown>} [args]
 */

/**
 * What the worker adds to a reply (timings for window.__perf).
 * @typedef {Object} Timing
 * @property {number} [worker_ms]
 * @property {number} [t_worker_recv]
 * @property {number} [t_worker_sent]
 * @property {number} [t_main_sent]
 * @property {number} [t_main_recv]
 * @property {number} [recv_at]
 */

/** @typedef {Reply & Timing} Answer_ */

export {};
