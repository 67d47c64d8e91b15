# SPDX-License-Identifier: GPL-3.0-or-later
"""The page's catalogs in dist/i18n/<code>.json, from the compiled page
domain (pychessdraw/locale/<code>/LC_MESSAGES/page.mo, made by ``make
catalogs`` from its .po) with the standard library's gettext: ``{"plural":
the Plural-Forms expression, "messages": {msgid: text or [forms]}}``.
English has none (its words are the message ids). The page fetches one
catalog, its language's, at start (web/src/ui/language.js), which knows
each plural expression: an expression it does not know stops the build.

The referee's words the page has from the generated contract rather than
from a reply (web/src/contract.js: the rules' names, the verdicts' words)
are English there; each page catalog also carries their translations from
the referee's own catalog (pychessdraw.mo), for tMarked() to say them: the
words keep one owner (pychessdraw.laws, pychessdraw.records.judge)."""

from __future__ import annotations

import gettext
import json
import re
from pathlib import Path

from build_common import ROOT, SRC, die, say

LOCALE = ROOT / "pychessdraw" / "locale"
DOMAIN = "page"


def known_plurals() -> set[str]:
    """The plural expressions web/src/ui/language.js has a function for."""
    text = (SRC / "ui" / "language.js").read_text(encoding="utf-8")
    block = text.split("export const PLURALS = {", 1)[1].split("};", 1)[0]
    return set(re.findall(r'^  "([^"]+)":', block, re.M))


def contract_words() -> set[str]:
    """Every English word of the generated contract's facts (web/src/contract.js) a person reads:
    the rules' names (also as a sentence names them) and the verdicts' words."""
    from pychessdraw import laws
    from pychessdraw.web.contract import sent_facts

    facts = sent_facts()
    words = set(laws.RULE_NAME.values()) | {laws.rule_in_sentence(rule) for rule in laws.RULE_NAME}
    verdicts = facts["VERDICT_WORDS"]
    assert isinstance(verdicts, dict)
    return words | {str(w) for w in verdicts.values()}


def referee_words(mo: Path) -> dict[str, str]:
    """The translations of :func:`contract_words` in the referee's catalog beside ``mo``."""
    with (mo.parent / "pychessdraw.mo").open("rb") as f:
        tr = gettext.GNUTranslations(f)
    return {word: tr.gettext(word) for word in sorted(contract_words())}


def catalog(mo: Path) -> dict[str, object]:
    """One .mo as the page's JSON catalog (with the referee's words of the contract: :func:`referee_words`)."""
    with mo.open("rb") as f:
        tr = gettext.GNUTranslations(f)
    plural = ""
    for line in tr.info().get("plural-forms", "").split(";"):
        if line.strip().startswith("plural="):
            plural = line.strip()[len("plural=") :].strip()
    messages: dict[str, object] = dict(referee_words(mo))  # the page's own words win over them
    forms: dict[str, dict[int, str]] = {}
    for key, text in tr._catalog.items():  # noqa: SLF001 (the stdlib keeps the messages there)
        if isinstance(key, tuple):
            forms.setdefault(key[0], {})[key[1]] = text
        elif key:
            messages[key] = text
    for msgid, by_index in forms.items():
        messages[msgid] = [by_index[i] for i in sorted(by_index)]
    return {"plural": plural, "messages": messages}


def write_catalogs(dist: Path) -> int:
    """dist/i18n/<code>.json for each language with a page catalog; returns the bytes written."""
    out = dist / "i18n"
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.json"):
        old.unlink()
    known = known_plurals()
    total = 0
    for mo in sorted(LOCALE.glob(f"*/LC_MESSAGES/{DOMAIN}.mo")):
        code = mo.parent.parent.name
        cat = catalog(mo)
        if cat["plural"] not in known:
            die(f"{mo}: plural expression {cat['plural']!r} unknown to web/src/ui/language.js's PLURALS")
        data = json.dumps(cat, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode()
        (out / f"{code}.json").write_bytes(data)
        total += len(data)
    say(
        f"i18n: {len(list(out.glob('*.json')))} page catalogs -> dist/i18n/ ({total / 1000:.0f} KB in all, one fetched)"
    )
    return total
