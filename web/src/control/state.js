// SPDX-License-Identifier: GPL-3.0-or-later
// The page's state, its parts and the controller's events: the types every
// controller and view shares, and the state a page starts with.
import { loadPrefs, positionBeforeReferee } from "../persist.js";
import { t } from "../i18n.js";

/** @typedef {import("../contract.js").Answer_} Answer */
/** @typedef {import("../contract.js").Facts} Facts */
/** @typedef {import("../contract.js").MoveRow} MoveRow */
/** @typedef {import("../contract.js").GameInfo} GameInfo */
/** @typedef {import("../contract.js").LegalMove} LegalMove */
/** @typedef {import("../contract.js").ClaimAsk} ClaimAsk */
/** @typedef {import("../contract.js").ClaimVerdict} ClaimVerdict */
/** @typedef {import("../contract.js").ErrorInfo} ErrorInfo */
/** @typedef {import("../contract.js").Ending} Ending */
/** @typedef {import("../contract.js").Offer} Offer */
/** @typedef {import("../contract.js").PgnGameInfo} PgnGameInfo */
/** @typedef {"white"|"black"} Color */

/**
 * @typedef {Object} Confirm
 * @property {string} text
 * @property {string} yes
 * @property {string} no
 * @property {() => void} run
 * @property {"game"} [kind]  about the game in progress (resigning): closed when the game ends
 */

/**
 * @typedef {Object} CtrlState
 * @property {"loading"|"ready"|"failed"} engine
 * @property {string} engineText
 * @property {{step: number, steps: number}} progress
 * @property {GameInfo|null} game
 * @property {MoveRow[]} rows
 * @property {{keep: number, added: number}} rowsChange  the last change of rows (for incremental views)
 * @property {Facts|null} live  the current position
 * @property {number|null} browse  the ply shown, null = the current position
 * @property {Facts|null} browseFacts
 * @property {Ending|null} ending
 * @property {Offer|null} offer  a draw offer waiting for an answer
 * @property {ClaimAsk|null} ask  "claim a draw with this move?"
 * @property {Confirm|null} confirm  "the game will be replaced: go on?"
 * @property {ErrorInfo|null} error
 * @property {ClaimVerdict|null} claim
 * @property {LegalMove[]|null} promotion  the promotions to choose from
 * @property {{pgn: string, games: PgnGameInfo[]}|null} pgnGames
 * @property {string} exported
 * @property {string} announce
 * @property {string} notice  a note that is not an error (restore problems)
 * @property {Color} orientation
 * @property {{white: boolean, black: boolean}} seats  the sides the visitor plays (both, unless
 *   a feature plays one: the computer); resigning and claiming are for these sides only
 * @property {boolean} clocksDecide  live clocks decide flag falls (no manual flag buttons)
 * @property {{fen: string, known: boolean}} early  the position drawn before the referee has
 *   answered (the saved game's); known: false when it is only the game's start position
 * @property {string[]} queued  moves made while the referee was starting, judged once it is ready (in order)
 * @property {import("./premove.js").Premove|null} premove  a move made while the computer is to move,
 *   played after its reply (control/premove.js)
 * @property {number} seq  answers applied (test hook)
 * @property {import("../features/proof.js").ProofShown|null} proof  a proof shown on the board
 *   instead of the game's position (features/proof.js); the game is not changed
 */

/**
 * What changed, so that the one redraw draws only the views that show it.
 * @typedef {"engine"|"game"|"moves"|"board"|"panel"|"dialogs"|"error"|"announce"|"browse"|"idle"|"orientation"|"export"|"seats"|"queue"} Part
 */

/**
 * The controller's events and what each passes to its listeners ("change":
 * after each redraw, the parts it drew, for controllers, not views).
 * @typedef {{
 *   change: [CtrlState, Set<Part>],
 *   reply: [string, Record<string, unknown>, Answer],
 *   acting: [string, Record<string, unknown>],
 *   move: [MoveRow],
 *   perf: [PerfRecord],
 *   "engine-ready": [{timings: Record<string, number>, python?: string}],
 *   ready: [CtrlState],
 * }} CtrlEvents
 */

/**
 * @typedef {Object} Nav  the URL hash, injected so that the controllers stay DOM-free
 * @property {() => string} get
 * @property {(hash: string, push: boolean) => void} set
 */

/**
 * The state of a page that has just opened: the referee loading, the
 * saved game's position drawn (from the address or storage).
 * @param {Storage} storage @param {Nav} nav
 * @returns {CtrlState}
 */
export function initialState(storage, nav) {
  return {
    engine: "loading", engineText: t("Loading the Python referee…"), progress: { step: 0, steps: 4 },
    game: null, rows: [], rowsChange: { keep: 0, added: 0 },
    live: null, browse: null, browseFacts: null, ending: null, proof: null,
    offer: null, ask: null, confirm: null, error: null, claim: null, promotion: null, pgnGames: null,
    exported: "", announce: "", notice: "",
    orientation: loadPrefs(storage).orientation,
    seats: { white: true, black: true },
    clocksDecide: false,
    early: positionBeforeReferee(nav.get(), storage),
    queued: [],
    premove: null,
    seq: 0,
  };
}
