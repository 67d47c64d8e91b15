"""The sources of ``pychessdraw watch``: a file another program keeps
rewriting, or an http(s) URL, read again every interval (:func:`ticks`);
what is new in each text is the pure tracker's
(:class:`pychessdraw.records.tracker.Tracker`).
"""

from __future__ import annotations

import contextlib
import email.utils
import http.client
import os
import socket
import ssl
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import zlib
from collections.abc import Callable, Iterator
from http.client import HTTPException, HTTPMessage
from typing import IO, Protocol

from .. import i18n
from ..errors import BadRequestError
from ..i18n import gettext
from ..records.tracker import DEFAULT_MAX_BYTES

DEFAULT_INTERVAL = 2.0
HTTP_TIMEOUT = 10.0  # seconds for one request: a host that hangs is a host down
MAX_BACKOFF = 60.0  # seconds between tries of a source that keeps failing


class SourceDown(Exception):
    """The source did not answer (a missing file, a refused connection, an
    HTTP error): the watch keeps its state and tries again later."""


class Source(Protocol):
    """Something to read again and again: the text when it changed, None
    when it did not; raises SourceDown when it does not answer."""

    name: str
    cut: str | None  # why the last text read was cut short, if it was

    def read(self) -> str | None: ...


def _cut(data: bytes, limit: int, why: str | None = None) -> tuple[str, str | None]:
    """The bytes as text, cut at ``limit`` and at their last whole line when
    they are more (or when ``why`` says they were cut short anyway)."""
    if len(data) > limit:
        why = gettext("larger than the limit ({limit} bytes, --max-mb): only its first lines are read")
        data, why = data[:limit], why.format(limit=i18n.number(limit))
    if why is not None:
        data = data[: data.rfind(b"\n") + 1]
    return data.decode("utf-8", errors="replace"), why


class FileSource:
    """A file, read again when its size or modification time changes (a
    pipe or a device every time), at most ``limit`` bytes. A file that
    changed while it was read is read again at the next tick, not taken half
    written. Limit: a writer that truncates the file and writes it anew may
    still be caught in between (a shorter text: ``corrected`` events); one
    that writes a new file and renames it over the old one never is."""

    def __init__(self, path: str, limit: int = DEFAULT_MAX_BYTES) -> None:
        self.name, self.limit = path, limit
        self.cut: str | None = None
        self.stamp: tuple[int, int] | None = None

    def read(self) -> str | None:
        try:
            with open(self.name, "rb") as handle:
                before = _stamp(os.fstat(handle.fileno()))
                regular = os.path.isfile(self.name)
                if regular and before == self.stamp:
                    return None
                data = handle.read(self.limit + 1)
                after = _stamp(os.fstat(handle.fileno()))
        except OSError as exc:
            raise SourceDown(
                gettext("cannot read {name}: {reason}").format(name=repr(self.name), reason=exc.strerror or exc)
            ) from None
        if regular and (after != before or (len(data) != after[0] and len(data) <= self.limit)):
            return None  # written while read: the next tick reads it whole
        self.stamp = before if regular else None
        text, self.cut = _cut(data, self.limit)
        return text


class _HttpRedirects(urllib.request.HTTPRedirectHandler):
    """Redirects to http(s) only (urllib also follows them to ftp)."""

    def redirect_request(
        self, req: urllib.request.Request, fp: IO[bytes], code: int, msg: str, headers: HTTPMessage, newurl: str
    ) -> urllib.request.Request | None:
        if not newurl.lower().startswith(("http://", "https://")):
            raise urllib.error.HTTPError(newurl, code, f"redirect to {newurl[:60]!r} refused: not http(s)", headers, fp)
        return super().redirect_request(req, fp, code, msg, headers, newurl)


class Deadline:
    """One request's whole time, headers and body: when it is up, every
    socket the request opened is shut, so that a host sending one byte a
    second (each within the socket's timeout) cannot hold the watch."""

    def __init__(self, seconds: float) -> None:
        self.at = time.monotonic() + seconds
        self.expired = False
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._timer = threading.Timer(seconds, self._expire)
        self._timer.daemon = True
        self._timer.start()

    def watch(self, sock: socket.socket) -> None:
        with self._lock:
            self._sockets.append(sock)
            if self.expired:
                _shut(sock)

    def left(self) -> float:
        return max(0.0, self.at - time.monotonic())

    def _expire(self) -> None:
        with self._lock:
            self.expired = True
            for sock in self._sockets:
                _shut(sock)

    def cancel(self) -> None:
        self._timer.cancel()


def _shut(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)


class _WatchedHTTP(http.client.HTTPConnection):
    deadline: Deadline

    def connect(self) -> None:
        super().connect()
        self.deadline.watch(self.sock)


class _WatchedHTTPS(http.client.HTTPSConnection):
    deadline: Deadline

    def connect(self) -> None:
        super().connect()
        self.deadline.watch(self.sock)


class _DeadlineHandler(urllib.request.HTTPHandler, urllib.request.HTTPSHandler):
    """Opens http and https connections whose sockets the deadline watches."""

    def __init__(self, deadline: Deadline, context: ssl.SSLContext | None = None) -> None:
        urllib.request.HTTPHandler.__init__(self)
        urllib.request.HTTPSHandler.__init__(self, context=context)
        self.deadline, self.context = deadline, context  # None: Python's default, certificates checked

    def http_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        return self.do_open(self._connection(_WatchedHTTP), req)

    def https_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        return self.do_open(self._connection(_WatchedHTTPS), req, context=self.context)

    def _connection(self, base: type[http.client.HTTPConnection]) -> type[http.client.HTTPConnection]:
        return type(base.__name__, (base,), {"deadline": self.deadline})


def encode_url(url: str) -> str:
    """An http(s) URL as a request line can carry it: a non-ASCII host in
    IDNA, a non-ASCII path or query percent-encoded in UTF-8 (what is
    already encoded stays). Refused with ``bad_request``: no host, a space
    or control character, a host IDNA cannot encode, a bad port."""
    if any(ch.isspace() or not ch.isprintable() for ch in url):
        raise BadRequestError(
            gettext("the URL {url} holds a space or a control character: encode it first").format(url=repr(url[:60]))
        )
    parts = urllib.parse.urlsplit(url)
    try:
        port = parts.port
        host = (parts.hostname or "").encode("idna").decode("ascii")
    except (ValueError, UnicodeError):
        raise BadRequestError(
            gettext("the URL {url} has a host or port that cannot be used").format(url=repr(url[:60]))
        ) from None
    if not host:
        raise BadRequestError(gettext("the URL {url} names no host").format(url=repr(url[:60])))
    if ":" in host:
        host = f"[{host}]"  # an IPv6 address
    netloc = host if port is None else f"{host}:{port}"
    safe = "/%:@!$&'()*+,;=-._~"
    path = urllib.parse.quote(parts.path, safe=safe)
    query = urllib.parse.quote(parts.query, safe=safe + "?")
    return urllib.parse.urlunsplit((parts.scheme.lower(), netloc, path, query, ""))


#: Compressed bodies by their first bytes: gzip is decoded, the others refused.
_MAGIC = {b"\x1f\x8b": "gzip", b"\x28\xb5\x2f\xfd": "zstd", b"BZh": "bzip2", b"\xfd7zXZ\x00": "xz"}


def _decoded(data: bytes, encoding: str | None, limit: int) -> tuple[bytes, str | None]:
    """The body as sent, decoded when it is compressed (``Content-Encoding``
    gzip or deflate, or gzip's first bytes), at most ``limit + 1`` bytes of
    it (a bomb is cut there); with why it is cut short, if it is. Raises
    SourceDown for a compression it cannot read: never read as PGN."""
    encoding = (encoding or "identity").strip().lower()
    named = next((name for magic, name in _MAGIC.items() if data.startswith(magic)), None)
    if encoding in ("gzip", "x-gzip", "deflate") or named == "gzip":
        wbits = 47 if encoding != "deflate" else 15 + 32  # 47: gzip or zlib header, found in the data
        kind = encoding if encoding != "identity" else "gzip"
        try:
            body, whole = _inflate(data, wbits, limit)
        except zlib.error:
            if encoding != "deflate":
                raise SourceDown(gettext("a body sent as {kind} does not decode").format(kind=kind)) from None
            try:
                body, whole = _inflate(data, -15, limit)  # deflate without its zlib header, as some servers send it
            except zlib.error:
                raise SourceDown(gettext("a body sent as {kind} does not decode").format(kind="deflate")) from None
        return body, None if whole or len(body) > limit else gettext("the {kind} body ends early").format(kind=kind)
    if encoding != "identity" or named is not None:
        raise SourceDown(
            gettext("the body is compressed ({encoding}), which watch does not read").format(
                encoding=encoding if encoding != "identity" else named
            )
        )
    return data, None


def _inflate(data: bytes, wbits: int, limit: int) -> tuple[bytes, bool]:
    """At most ``limit + 1`` bytes of ``data`` decompressed, and whether its end was reached."""
    out = zlib.decompressobj(wbits)
    return out.decompress(data, limit + 1), out.eof


class HttpSource:
    """An http(s) URL, asked with conditional requests (ETag,
    If-Modified-Since), ``Accept-Encoding: identity`` and a deadline for the
    whole request (:class:`Deadline`: headers and body, however slowly a
    host sends them); at most ``limit`` bytes of a body are read (an endless
    stream is cut at the deadline or the limit), as UTF-8 (bad bytes
    replaced). A body compressed all the same is decoded (gzip, deflate) or
    refused (any other). Redirects are followed to http(s) only; no
    cookies, no credentials; the environment's proxy settings apply, as for
    any urllib client; ``context``: TLS settings (None: Python's default,
    certificates checked). A URL it cannot encode is refused when made."""

    def __init__(
        self,
        url: str,
        limit: int = DEFAULT_MAX_BYTES,
        timeout_s: float = HTTP_TIMEOUT,
        context: ssl.SSLContext | None = None,
    ) -> None:
        self.name, self.limit, self.timeout, self.context = url, limit, timeout_s, context
        self.url = encode_url(url)
        self.cut: str | None = None
        self.etag: str | None = None
        self.modified: str | None = None

    def read(self) -> str | None:
        request = urllib.request.Request(
            self.url, headers={"User-Agent": "pychessdraw-watch", "Accept-Encoding": "identity"}
        )
        if self.etag:
            request.add_header("If-None-Match", self.etag)
        if self.modified:
            request.add_header("If-Modified-Since", self.modified)
        deadline = Deadline(self.timeout)
        opener = urllib.request.build_opener(_HttpRedirects, _DeadlineHandler(deadline, self.context))
        try:
            with opener.open(request, timeout=self.timeout) as response:
                if deadline.expired:  # the headers were cut by the deadline: they may look whole
                    raise TimeoutError
                data, why = self._body(response, deadline)
                encoding = response.headers.get("Content-Encoding")
                etag, modified = response.headers.get("ETag"), response.headers.get("Last-Modified")
        except urllib.error.HTTPError as exc:
            if exc.code == 304:
                return None
            raise SourceDown(f"{self.name}: HTTP {exc.code} {exc.reason}") from None
        except (OSError, HTTPException, ValueError) as exc:  # timeouts, resets, broken replies, a bad redirect
            raise SourceDown(f"{self.name}: {self._failure(exc, deadline)}") from None
        finally:
            deadline.cancel()
        data, bad = _decoded(data, encoding, self.limit)
        self.etag = etag
        self.modified = modified if modified and email.utils.parsedate_tz(modified) else None
        text, self.cut = _cut(data, self.limit, why or bad)
        return text

    def _failure(self, exc: BaseException, deadline: Deadline) -> str:
        if deadline.expired:
            return gettext("no whole answer within {seconds} s (a host too slow, or stalling)").format(
                seconds=f"{self.timeout:g}"
            )
        reason = exc.reason if isinstance(exc, urllib.error.URLError) else exc
        return str(reason) or type(exc).__name__

    def _body(self, response: IO[bytes], deadline: Deadline) -> tuple[bytes, str | None]:
        """The body, up to ``limit + 1`` bytes, read until the request's
        deadline: an endless stream is cut then, at its last whole line."""
        pieces: list[bytes] = []
        size = 0
        read1 = getattr(response, "read1", response.read)
        while size <= self.limit:
            try:
                piece = read1(min(1 << 16, self.limit + 1 - size)) if not deadline.expired else b""
            except (OSError, HTTPException):
                if not deadline.expired:
                    raise
                piece = b""
            if deadline.expired:
                return b"".join(pieces), (
                    gettext(
                        "still sending after {seconds} s (a stream?): only what came by then is read, at each tick"
                    ).format(seconds=f"{self.timeout:g}")
                )
            if not piece:
                break
            pieces.append(piece)
            size += len(piece)
        return b"".join(pieces), None


def _stamp(stat: os.stat_result) -> tuple[int, int]:
    return stat.st_size, stat.st_mtime_ns


def open_source(name: str, limit: int = DEFAULT_MAX_BYTES) -> FileSource | HttpSource:
    """An http(s) URL or a file name (``file://`` is refused: give the path;
    so is ``-``: standard input cannot be read again)."""
    if name == "-":
        raise BadRequestError(
            gettext("watch reads its source again and again: standard input cannot be; give a file or an http(s) URL")
        )
    lower = name.lower()
    if lower.startswith(("http://", "https://")):
        return HttpSource(name, limit)
    if "://" in name:
        raise BadRequestError(gettext("watch reads a file or an http(s) URL, not {name}").format(name=repr(name[:60])))
    return FileSource(name, limit)


def ticks(
    source: Source,
    interval: float,
    say: Callable[[str], None],
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> Iterator[str]:
    """Each new text of ``source``, forever: asked at most once per
    ``interval`` seconds; a source that does not answer is said once on
    ``say``, asked again after 2, 4, 8... intervals (at most MAX_BACKOFF
    seconds, or the interval if longer), and said again when it answers."""
    failures = 0
    was_cut: str | None = None
    while True:
        start = clock()
        try:
            text = source.read()
        except SourceDown as exc:
            if failures == 0:
                say(gettext("{reason}; trying again, less often, until it answers").format(reason=exc))
            failures += 1
        else:
            if failures:
                say(gettext("{source} answers again").format(source=source.name))
            failures = 0
            if text is not None:
                if source.cut and source.cut != was_cut:
                    say(f"{source.name}: {source.cut}")
                was_cut = source.cut
                yield text
        wait = interval if failures == 0 else min(interval * 2 ** min(failures, 16), max(interval, MAX_BACKOFF))
        sleep(max(0.0, start + wait - clock()))
