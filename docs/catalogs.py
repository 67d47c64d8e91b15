"""The catalogs of the referee's sentences: extract, update, compile, check (Babel).

Run from a checkout (``make catalogs``)::

    python docs/catalogs.py            # check only: prints the problems, exit 1 if any
    python docs/catalogs.py --update   # sources -> pychessdraw.pot -> each .po (new messages untranslated)
    python docs/catalogs.py --compile  # each .po -> its .mo (committed: the wheel and the page use them)

The sources mark their sentences with :func:`pychessdraw.i18n.gettext`,
``ngettext``, ``marked`` and ``marked_n``; the message ids are the English
sentences. Babel is needed here only (the ``test`` extra): at run time the
package reads the compiled ``.mo`` files with the standard library's gettext.

:func:`problems` is what ``tests/test_catalogs.py`` asserts empty: a message
of the sources missing from the template or a catalog (stale), a message
without a translation or marked fuzzy, a translation whose placeholders
differ from its message's, a plural with the wrong number of forms, and a
``.mo`` that is not its ``.po`` compiled.
"""

from __future__ import annotations

import argparse
import io
import re
import sys
from datetime import UTC, datetime
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


def po_path(language: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def template() -> Catalog:
    """Every marked sentence of the package's sources, as a catalog without translations."""
    catalog = _new_catalog(None)
    found = extract_from_dir(str(PACKAGE), method_map=[("**.py", "python")], keywords=KEYWORDS, comment_tags=())
    for _filename, _line, message, _comments, context in found:
        catalog.add(message, None, context=context)
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


def read(language: str) -> Catalog:
    with po_path(language).open("rb") as f:
        return read_po(f, locale=language, domain=DOMAIN)


def _new_catalog(language: str | None) -> Catalog:
    catalog = Catalog(
        locale=language,
        domain=DOMAIN,
        header_comment=f"# pychessdraw's sentences{f' ({language})' if language else ''}.\n"
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
    """Write the template and bring each ``.po`` to it (a new message comes in untranslated)."""
    pot = template()
    TEMPLATE.parent.mkdir(parents=True, exist_ok=True)
    TEMPLATE.write_bytes(_po_bytes(pot))
    for language in languages():
        path = po_path(language)
        if path.exists():
            catalog = read(language)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            catalog = _new_catalog(language)
        catalog.update(pot, no_fuzzy_matching=True)
        catalog.obsolete.clear()  # a message gone from the sources goes from the catalogs
        path.write_bytes(_po_bytes(catalog))


def compile_all() -> None:
    for language in languages():
        po_path(language).with_suffix(".mo").write_bytes(mo_bytes(read(language)))


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


def problems() -> list[str]:
    """Everything that is wrong with the catalogs against the sources (empty: all is well)."""
    pot = template()
    wanted = {_ids(m.id) for m in pot if m.id}
    out = []
    if not TEMPLATE.exists() or {_ids(m.id) for m in read_po(TEMPLATE.open("rb")) if m.id} != wanted:
        out.append(f"{TEMPLATE.relative_to(ROOT)} is stale: run python docs/catalogs.py --update")
    for language in languages():
        if not po_path(language).exists():
            out.append(f"{language}: no catalog")
            continue
        catalog = read(language)
        out += catalog_problems(language, catalog, wanted)
        mo = po_path(language).with_suffix(".mo")
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
