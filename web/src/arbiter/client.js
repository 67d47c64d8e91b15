// SPDX-License-Identifier: GPL-3.0-or-later
// The arbiter's worker: arbiter-worker.js (made by web/build.py from the
// page's worker, answering with pychessdraw.web.follow.Bridge), a Python of its
// own, so that following a round and the game on the board never wait on
// each other. Talks through the page's referee client.
import { Referee } from "../referee/client.js";
import { currentLocale } from "../i18n.js";

export class ArbiterClient {
  constructor() {
    /** @type {Referee<import("../contract.js").FollowOperations> | null} */
    this.referee = null;
  }

  /** The worker's sentences in the page's language from now on (none is asked of a worker not started). */
  async speak() {
    if (this.referee) await this.referee.request("set_language", { language: currentLocale() });
    return this.referee !== null;
  }

  /** Source `source`'s log and boards said again in the page's language. @param {number} source */
  again(source) {
    return this.warm().request("follow_again", { source });
  }

  /** Start the worker (Python loads meanwhile). */
  warm() {
    if (!this.referee) {
      /** @type {Referee<import("../contract.js").FollowOperations>} */
      const referee = new Referee({}, { workerUrl: new URL("arbiter-worker.js", document.baseURI) });
      referee.start();
      this.referee = referee;
    }
    return this.referee;
  }

  /**
   * A new follower for source `source` (its old one dropped); without a
   * source, every source's follower is dropped.
   * @param {import("../contract.js").FlagRulesName} flagRules @param {number} [source]
   */
  async start(flagRules, source) {
    const referee = this.warm();
    // the boards' and events' sentences in the page's language (the worker starts in English)
    await referee.request("set_language", { language: currentLocale() });
    return referee.request("follow_start", source == null ? { flag_rules: flagRules } : { flag_rules: flagRules, source });
  }

  /** A source no longer followed: its follower is freed. @param {number} source */
  drop(source) {
    return this.warm().request("follow_drop", { source });
  }

  /** What a stream sent next (the worker puts the round together). @param {string} text @param {number} [source] */
  feed(text, source = 0) {
    return this.warm().request("follow_feed", { text, source });
  }

  /** The source's whole new text. @param {string} text @param {number} [source] */
  update(text, source = 0) {
    return this.warm().request("follow_update", { text, source });
  }
}
