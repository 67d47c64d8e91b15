"""The referee's sentences in the reader's language: one current language, the standard library's gettext.

Every sentence a person reads is written once, in English, as the message
id of a gettext catalog (``pychessdraw/locale/<lang>/LC_MESSAGES/pychessdraw.mo``,
compiled from the ``.po`` beside it). English is the default everywhere and
needs no catalog: its sentences are the message ids, byte for byte.

The one mechanism is a context-local current language: ::

    from pychessdraw import i18n
    with i18n.language("de"):
        facts = present.facts(game, game.status(), label=...)

Everything made inside the ``with`` (``Outcome.reason()``, a claim's
verdict, the page's facts, the CLI's sentences) is in German; a sentence
already made stays in the language it was made in. The entry points that
hand sentences out also take ``language=`` (``Status.to_dict``,
``Outcome.to_dict``, ``present.facts``), which is the same ``with`` around
the call. Threads and asyncio tasks each see their own language
(:mod:`contextvars`).

What never changes with the language: JSON codes and field names, PGN
tags, the PGN ``Termination`` word, SAN, FIDE article numbers.

Limits: the run-time side is the standard library only (the page runs it in
Pyodide); Babel is a build and test tool (``docs/catalogs.py``, ``make catalogs``:
it extracts and compiles; the tests hold the catalogs to the sources). Large
numbers are grouped in the language's way (:func:`number`).
Unknown languages are refused (``bad_request``), never silently English.
The catalogs load lazily: English reads none (and does not import
:mod:`gettext`); another language's ``.mo`` (36-46 KB) is read once, at
its first sentence.
"""

from __future__ import annotations

import contextvars
import functools
import importlib.util
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Final

from .errors import BadRequestError, shown

if TYPE_CHECKING:
    from gettext import GNUTranslations

DOMAIN: Final = "pychessdraw"  #: the catalogs' name: locale/<lang>/LC_MESSAGES/pychessdraw.mo
LOCALE_DIR: Final = Path(__file__).parent / "locale"
ENGLISH: Final = "en"
#: Every language with a catalog, English (the message ids) first.
LANGUAGES: Final = ("en", "de", "fr", "es", "ru", "it", "pt", "nl", "pl")
#: Each language's own name, for a picker.
NATIVE_NAME: Final = {
    "en": "English",
    "de": "Deutsch",
    "fr": "Français",
    "es": "Español",
    "ru": "Русский",
    "it": "Italiano",
    "pt": "Português",
    "nl": "Nederlands",
    "pl": "Polski",
}
# The thousands separator CLDR gives each language (a no-break space where it is a space).
_GROUP: Final = {
    "en": ",",
    "de": ".",
    "fr": "\u202f",
    "es": ".",
    "ru": "\u00a0",
    "it": ".",
    "pt": "\u00a0",
    "nl": ".",
    "pl": "\u00a0",
}

_GROUP_FROM_FIVE: Final = frozenset({"es", "pt", "pl"})

_current: contextvars.ContextVar[str] = contextvars.ContextVar("pychessdraw_language", default=ENGLISH)


def check_language(language: object) -> str:
    """The shipped language ``language`` names: a code from :data:`LANGUAGES`,
    or a browser's tag of one ("de-DE", "pt_BR", "FR": the first part
    decides). Raises :class:`~pychessdraw.errors.BadRequestError` for
    anything else, naming the languages there are."""
    if isinstance(language, str):
        primary = language.strip().replace("_", "-").split("-")[0].lower()
        if primary in LANGUAGES:
            return primary
    raise BadRequestError(f"language must be one of {', '.join(LANGUAGES)}, not {shown(language)}", field="language")


@functools.cache
def _catalog(language: str) -> GNUTranslations:
    # imported here: English (the default) never reads a catalog, so the page's start-up does not pay for it
    from gettext import GNUTranslations

    path = LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.mo"
    if not path.exists():
        # The page restored from a snapshot unpacks the package's files at the first import the
        # snapshot does not hold (web/snapshot_files.py): one lookup lets its finder do so now.
        importlib.util.find_spec("pychessdraw_catalog_files")
    with path.open("rb") as catalog:
        return GNUTranslations(catalog)


def current() -> str:
    """The current language's code ("en" unless a :func:`language` block says otherwise)."""
    return _current.get()


@contextmanager
def language(code: str | None) -> Iterator[str]:
    """Make ``code`` (see :func:`check_language`) the current language
    inside the ``with``; ``None`` keeps the current one. Yields the code."""
    if code is None:
        yield _current.get()
        return
    token = _current.set(check_language(code))
    try:
        yield _current.get()
    finally:
        _current.reset(token)


def gettext(message: str) -> str:
    """``message`` (an English message id) in the current language."""
    language = _current.get()
    return message if language == ENGLISH else _catalog(language).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message for the count ``n`` in the current language
    (Russian and Polish have three, which their catalogs' Plural-Forms pick)."""
    language = _current.get()
    if language == ENGLISH:
        return singular if n == 1 else plural
    return _catalog(language).ngettext(singular, plural, n)


def marked(message: str) -> str:
    """Marks ``message`` for the catalogs where it is written (a table of
    names) and returns it unchanged: :func:`gettext` translates it where it is used."""
    return message


def number(n: int) -> str:
    """A large whole number as the current language groups it, for the
    sentences that group theirs: 12345 is "12,345" in English (as
    ``f"{n:,}"``), "12.345" in German, "12 345" (narrow no-break space) in
    French; Spanish, Portuguese and Polish group from five digits on only
    (CLDR), the others from four. Counts a referee says (plies, moves) are
    written as plain digits, not through this."""
    language = _current.get()
    if language in _GROUP_FROM_FIVE and abs(n) < 10_000:
        return str(n)
    return f"{n:,}".replace(",", _GROUP[language])


def marked_n(singular: str, plural: str) -> tuple[str, str]:
    """Marks a message with a plural for the catalogs (a table's entry) and
    returns the pair unchanged, for :func:`ngettext` where it is used."""
    return singular, plural
