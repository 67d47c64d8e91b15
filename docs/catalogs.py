"""The catalogs of the referee's sentences: extract, update, compile, check (Babel).

Run from a checkout (``make catalogs``)::

    python docs/catalogs.py            # check only: prints the problems, exit 1 if any
    python docs/catalogs.py --update   # sources -> pychessdraw.pot -> each .po (new messages untranslated)
    python docs/catalogs.py --compile  # each .po -> its .mo (committed: the wheel and the page use them)

Two domains, the same machinery: ``pychessdraw`` (the referee's sentences:
the package's sources mark them with :func:`pychessdraw.i18n.gettext`,
``ngettext``, ``marked`` and ``marked_n``) and ``page`` (the page's own
words: ``t()``, ``tn()``, ``tText()``, ``tAttr()`` in ``web/src``, and
``marked()`` where a message is made but said elsewhere (the worker, which
has no catalog: the page says it with ``tMarked()``), read by Babel's
JavaScript extractor, and ``web/src/index.html``'s ``data-i18n`` and
``data-i18n-attr`` marks; ``page.mo`` becomes ``dist/i18n/<lang>.json`` at
the build, web/build_i18n.py). The message ids are the English sentences.
Babel is needed here only (the ``test`` extra): at run time the package reads
the compiled ``.mo`` files with the standard library's gettext.

:func:`problems` is what ``tests/test_catalogs.py`` asserts empty: a message
of the sources missing from the template or a catalog (stale), a message
without a translation or marked fuzzy, a translation whose placeholders
differ from its message's, a plural with the wrong number of forms, and a
``.mo`` that is not its ``.po`` compiled.
"""

from __future__ import annotations

import argparse
import functools
import io
import re
import sys
from datetime import UTC, datetime
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "pychessdraw"
LOCALE = PACKAGE / "locale"
TEMPLATE = LOCALE / "pychessdraw.pot"
DOMAIN = "pychessdraw"
#: The page's own words (web/src: t()/tn() calls and index.html's data-i18n marks), a domain of their own.
PAGE_DOMAIN = "page"
PAGE_SRC = ROOT / "web" / "src"
#: The page's markers, as Babel's keywords (web/src/i18n.js; tText, tAttr: web/src/ui/language.js).
PAGE_KEYWORDS: dict[str, Any] = {"t": None, "tn": (1, 2), "tText": None, "tAttr": (3,), "marked": None}
DOMAINS = (DOMAIN, PAGE_DOMAIN)
#: The markers of pychessdraw.i18n, as Babel's keywords (the plural ones take two message arguments).
KEYWORDS: dict[str, Any] = {"gettext": None, "ngettext": (1, 2), "marked": None, "marked_n": (1, 2)}
# A fixed date keeps the files the same from one run to the next (the header is not news).
_DATE = datetime(2026, 11, 28, tzinfo=UTC)
_PLACEHOLDER = re.compile(r"\{(\w*)\}")
# gettext's classic plural forms where CLDR adds a "many" for round millions,
# which no sentence here counts: two forms, as translators of these languages expect.
_PLURAL_FORMS = {
    "fr": "nplurals=2; plural=(n > 1);",
    "es": "nplurals=2; plural=(n != 1);",
    "it": "nplurals=2; plural=(n != 1);",
    "pt": "nplurals=2; plural=(n != 1);",
}


def languages() -> list[str]:
    """The shipped languages but English (whose sentences are the message ids)."""
    sys.path.insert(0, str(ROOT))
    from pychessdraw.i18n import ENGLISH, LANGUAGES

    return [code for code in LANGUAGES if code != ENGLISH]


def po_path(language: str, domain: str = DOMAIN) -> Path:
    return LOCALE / language / "LC_MESSAGES" / f"{domain}.po"


def template_path(domain: str = DOMAIN) -> Path:
    return LOCALE / f"{domain}.pot"


@functools.cache
def template(domain: str = DOMAIN) -> Catalog:
    """Every marked sentence of the sources of ``domain``, as a catalog
    without translations (read once a run: not to be changed by a caller)."""
    if domain == PAGE_DOMAIN:
        return page_template()
    catalog = _new_catalog(None)
    found = extract_from_dir(str(PACKAGE), method_map=[("**.py", "python")], keywords=KEYWORDS, comment_tags=())
    for _filename, _line, message, _comments, context in found:
        catalog.add(message, None, context=context)
    return catalog


def one_line(text: str) -> str:
    """Markup's text as the page reads it for a message id (web/src/ui/language.js): runs of white space as one space."""
    return " ".join(text.split())


class MarkedWords(HTMLParser):
    """The words index.html marks for translation: the text of an element
    with ``data-i18n`` (text only, no child element) and the attributes
    named by ``data-i18n-attr`` ("aria-label title")."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self.problems: list[str] = []
        self._open: list[str] | None = None  # the text of the data-i18n element being read
        self.feed(html)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if self._open is not None:
            self.problems.append(f"<{tag}> inside an element marked data-i18n (text only there)")
        for name in (a.get("data-i18n-attr") or "").split():
            value = one_line(a.get(name) or "")
            if value:
                self.found.append(value)
            else:
                self.problems.append(f"<{tag}> data-i18n-attr names {name!r}, which it does not have")
        if "data-i18n" in a:
            self._open = []

    def handle_data(self, data: str) -> None:
        if self._open is not None:
            self._open.append(data)

    def handle_endtag(self, tag: str) -> None:
        if self._open is not None:
            text = one_line("".join(self._open))
            if text:
                self.found.append(text)
            else:
                self.problems.append(f"an empty <{tag}> marked data-i18n")
            self._open = None


def page_template() -> Catalog:
    """The page's words: every t()/tn() call of web/src (Babel's JavaScript
    extractor: a call whose message is not a string literal is not seen, and
    the test of the page's message ids says so) and index.html's marks."""
    catalog = _new_catalog(None, PAGE_DOMAIN)
    found = extract_from_dir(
        str(PAGE_SRC), method_map=[("**.js", "javascript")], keywords=PAGE_KEYWORDS, comment_tags=()
    )
    for _filename, _line, message, _comments, context in found:
        catalog.add(message, None, context=context)
    for text in MarkedWords((PAGE_SRC / "index.html").read_text(encoding="utf-8")).found:
        catalog.add(text, None)
    return catalog


def _po_bytes(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=0, no_location=True, sort_output=True, omit_header=False)
    return out.getvalue()


def mo_bytes(catalog: Catalog) -> bytes:
    """``catalog`` compiled, as the committed ``.mo`` must be."""
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def read(language: str, domain: str = DOMAIN) -> Catalog:
    with po_path(language, domain).open("rb") as f:
        return read_po(f, locale=language, domain=domain)


def _new_catalog(language: str | None, domain: str = DOMAIN) -> Catalog:
    what = "pychessdraw's sentences" if domain == DOMAIN else "The page's own words (web/src)"
    catalog = Catalog(
        locale=language,
        domain=domain,
        header_comment=f"# {what}{f' ({language})' if language else ''}.\n"
        "# GPL-3.0-or-later, as the package. The message ids are the English sentences.",
        project=DOMAIN,
        copyright_holder="The pychessdraw authors",
        msgid_bugs_address="",
        last_translator="The pychessdraw authors",
        language_team="The pychessdraw authors",
        creation_date=_DATE,
        revision_date=_DATE,
        fuzzy=False,
    )
    if language in _PLURAL_FORMS:
        catalog.mime_headers = [("Plural-Forms", _PLURAL_FORMS[language])]
    return catalog


def update() -> None:
    """Write each domain's template and bring each ``.po`` to it (a new message comes in untranslated)."""
    for domain in DOMAINS:
        pot = template(domain)
        template_path(domain).parent.mkdir(parents=True, exist_ok=True)
        template_path(domain).write_bytes(_po_bytes(pot))
        for language in languages():
            path = po_path(language, domain)
            if path.exists():
                catalog = read(language, domain)
            else:
                path.parent.mkdir(parents=True, exist_ok=True)
                catalog = _new_catalog(language, domain)
            catalog.update(pot, no_fuzzy_matching=True)
            catalog.obsolete.clear()  # a message gone from the sources goes from the catalogs
            path.write_bytes(_po_bytes(catalog))


def compile_all() -> None:
    """Each ``.po`` into its ``.mo`` (the page's are read by web/build_i18n.py into JSON)."""
    for domain in DOMAINS:
        for language in languages():
            po_path(language, domain).with_suffix(".mo").write_bytes(mo_bytes(read(language, domain)))


def message_ids(message: Any) -> tuple[str, ...]:
    """A message's id as a tuple: (singular,) or (singular, plural)."""
    return tuple(message) if isinstance(message, (list, tuple)) else (message,)


_ids = message_ids


def catalog_problems(language: str, catalog: Catalog, wanted: set[tuple[str, ...]]) -> list[str]:
    """What is wrong with one language's ``catalog`` against the message ids
    the sources mark (``wanted``): missing or gone messages, then each
    message's own problems."""
    have = {_ids(m.id) for m in catalog if m.id}
    out = [f"{language}: missing {ids[0]!r} (run --update, then translate)" for ids in sorted(wanted - have)]
    out += [f"{language}: {ids[0]!r} is no longer in the sources" for ids in sorted(have - wanted)]
    for message in catalog:
        if not message.id:
            continue  # the header
        ids = _ids(message.id)
        forms = _ids(message.string)
        where = f"{language}: {ids[0]!r}"
        if message.fuzzy:
            out.append(f"{where}: marked fuzzy")
        if not all(forms):
            out.append(f"{where}: no translation")
            continue
        if len(ids) > 1 and len(forms) != catalog.num_plurals:
            out.append(f"{where}: {len(forms)} plural forms, the language has {catalog.num_plurals}")
        wanted = sorted(set(_PLACEHOLDER.findall(ids[-1])))
        for form in forms:
            if sorted(set(_PLACEHOLDER.findall(form))) != wanted:
                out.append(f"{where}: placeholders {sorted(set(_PLACEHOLDER.findall(form)))} instead of {wanted}")
    return out


def problems(domains: tuple[str, ...] = DOMAINS) -> list[str]:
    """Everything that is wrong with the catalogs against the sources (empty: all is well)."""
    out = []
    for domain in domains:
        out += _domain_problems(domain)
    return out


def _domain_problems(domain: str) -> list[str]:
    pot = template(domain)
    wanted = {_ids(m.id) for m in pot if m.id}
    out = []
    if domain == PAGE_DOMAIN:
        out += [f"web/src/index.html: {p}" for p in MarkedWords((PAGE_SRC / "index.html").read_text("utf-8")).problems]
    path = template_path(domain)
    if not path.exists() or {_ids(m.id) for m in read_po(path.open("rb")) if m.id} != wanted:
        out.append(f"{path.relative_to(ROOT)} is stale: run python docs/catalogs.py --update")
    for language in languages():
        where = language if domain == DOMAIN else f"{language} ({domain})"
        if not po_path(language, domain).exists():
            out.append(f"{where}: no catalog")
            continue
        catalog = read(language, domain)
        out += catalog_problems(where, catalog, wanted)
        mo = po_path(language, domain).with_suffix(".mo")
        if not mo.exists() or mo.read_bytes() != mo_bytes(catalog):
            out.append(f"{mo.relative_to(ROOT)} is not its .po compiled: run python docs/catalogs.py --compile")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--update", action="store_true", help="extract the sources and update each .po")
    parser.add_argument("--compile", action="store_true", help="compile each .po into its .mo")
    args = parser.parse_args(argv)
    if args.update:
        update()
    if args.compile:
        compile_all()
    found = problems()
    for line in found:
        print(line, file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
