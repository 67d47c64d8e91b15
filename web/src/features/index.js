// SPDX-License-Identifier: GPL-3.0-or-later
// The features installed on the page, in order. A feature is a function
// ({ctrl, addSection}) => void: it listens to ctrl.on(...), calls ctrl's
// actions or ctrl.request(op, args), and adds its own section. See
// web/README.md ("Adding a feature").

import { clocksFeature } from "./clocks.js";
import { reviewFeature } from "./review.js";
import { computerFeature } from "./computer.js";
import { soundsFeature } from "./sounds.js";
import { autoClaimFeature } from "./autoclaim.js";
import { playersFeature } from "./players.js";

/** @typedef {import("../ctrl.js").Controller} Controller */
/** @typedef {(env: {ctrl: Controller, addSection: typeof import("../ui/sections.js").addSection}) => void} Feature */

/** @type {Feature[]} */
export const FEATURES = [clocksFeature, reviewFeature, computerFeature, autoClaimFeature, playersFeature, soundsFeature];
