// SPDX-License-Identifier: GPL-3.0-or-later
// The address and storage: the game is saved in both after each change;
// the address (a link, Back, Forward) names the game the page shows.
import { clearRecord, decodeHash, encodeHash, isEmpty, loadRecord, restoreArgs, saveRecord } from "../persist.js";
import { t } from "../i18n.js";

/** @typedef {import("./base.js").ControllerBase} Controller */
/** @typedef {import("../persist.js").GameRecord} GameRecord */
/** @typedef {import("./state.js").Nav} Nav */

export class Address {
  /** @param {Controller} ctrl @param {Storage} storage @param {Nav} nav */
  constructor(ctrl, storage, nav) {
    this.ctrl = ctrl;
    this.storage = storage;
    this.nav = nav;
  }

  /** @param {boolean} push  a new history entry (the game was replaced): Back returns to the old one */
  save(push) {
    const rec = this.ctrl.record();
    if (!rec) return;
    saveRecord(this.storage, rec, this.ctrl.state.live ? this.ctrl.state.live.fen : null);
    this.nav.set(encodeHash(rec), push);
  }

  /**
   * The game to restore at start-up: the address's, else the stored one;
   * notice says why one could not be read (a stored one is then cleared).
   * @returns {{record: GameRecord|null, notice: string}}
   */
  saved() {
    const fromHash = decodeHash(this.nav.get());
    const stored = fromHash ? null : loadRecord(this.storage);
    const pick = fromHash || stored;
    if (pick && !pick.ok) {
      if (stored) this.forget();
      return { record: null, notice: t("The saved game could not be restored ({reason}); a new game was started.", { reason: pick.problem }) };
    }
    return { record: pick && !isEmpty(pick.record) ? pick.record : null, notice: "" };
  }

  /** The stored game could not be restored: not again at the next visit. */
  forget() {
    clearRecord(this.storage);
  }

  /** Back/forward or an edited link: show the game the URL names. */
  follow() {
    const ctrl = this.ctrl;
    if (ctrl.state.engine !== "ready") return;
    const rec = decodeHash(this.nav.get());
    const current = ctrl.record();
    if (rec && !rec.ok) return ctrl.showError({ code: "bad_link", message: t("This link holds no game the page can show ({reason}).", { reason: rec.problem }) });
    const target = rec ? rec.record : null;
    if (current && target && encodeHash(current) === encodeHash(target)) return;
    // a new game already (the address changed its view only): nothing to start
    if (!target && current && isEmpty(current)) return;
    if (!target) void ctrl.act("new", {}, { push: false });
    else void ctrl.act("restore", restoreArgs(target), { push: false });
  }
}
