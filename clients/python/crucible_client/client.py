"""The Client: authentication (API key, or email and password with tokens kept in memory only),
an Idempotency-Key on every write that takes one (the same key on each retry), retries driven by
the problem's ``retry`` hint, and the decoding of answers into the generated dataclasses."""

from __future__ import annotations

import os
import random
import threading
import time
import uuid
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import httpx

from ._operations import Operations
from ._runtime import OMIT, decode, encode
from .errors import ProblemError
from .helpers import Helpers

if TYPE_CHECKING:
    from ._models import MessageResponse

__all__ = ["Client", "DEFAULT_BASE_URL"]

DEFAULT_BASE_URL = "http://127.0.0.1:8000"
#: Refresh the access token when it has less than this many seconds left.
REFRESH_MARGIN_SEC = 60.0


class Client(Helpers, Operations):
    """A client of one Crucible server.

    ``Client(base_url, api_key="crk_...")`` or ``Client(base_url, email=..., password=...)`` (logs in
    at once). Without arguments it reads ``CRUCIBLE_URL`` and ``CRUCIBLE_API_KEY``. Every operation of
    the API is a method named after its operationId in snake_case (``client.submit_job(...)``,
    ``client.get_job_result(process_id=...)``); errors raise ``ProblemError``.

    Retries: a request that may be sent again (a read, a read-scoped POST such as an estimate or a
    lookup, a write with its Idempotency-Key) is retried up to ``max_retries`` times when the
    problem's ``retry`` hint is ``upstream`` or ``timeout`` or the connection failed, with
    exponential backoff and jitter; a 429 and an ``idempotency-key-in-progress`` 409 are waited out
    (``Retry-After``, at most ``max_retry_wait`` seconds). Other problems are raised at once.
    """

    def __init__(
        self,
        base_url: str | None = None,
        *,
        api_key: str | None = None,
        email: str | None = None,
        password: str | None = None,
        timeout: float = 60.0,
        max_retries: int = 3,
        max_retry_wait: float = 60.0,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.base_url = (base_url or os.environ.get("CRUCIBLE_URL") or DEFAULT_BASE_URL).rstrip("/")
        if api_key is None and email is None:
            api_key = os.environ.get("CRUCIBLE_API_KEY") or None
        if api_key is not None and email is not None:
            raise ValueError("give an api_key or an email and password, not both")
        self.max_retries = max_retries
        self.max_retry_wait = max_retry_wait
        self._http = httpx.Client(
            base_url=self.base_url,
            timeout=httpx.Timeout(timeout, connect=10.0),
            transport=transport,
            headers={"user-agent": "crucible-client-python/0.1"},
        )
        self._api_key = api_key
        # The session's tokens live in this object only: never written anywhere, never shown by repr.
        self._access_token: str | None = None
        self._refresh_token: str | None = None
        self._expires_at = 0.0
        self._auth_lock = threading.Lock()
        if email is not None:
            if password is None:
                raise ValueError("email needs a password")
            self.login(email, password)

    def __repr__(self) -> str:
        how = "api key" if self._api_key else "access token" if self._access_token else "no credential"
        return f"Client({self.base_url!r}, {how})"

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Closes the connections (the session stays valid until logout or expiry)."""
        self._http.close()

    # Authentication ---------------------------------------------------------------------------

    def login(self, email: str, password: str) -> None:
        """Logs in with email and password: the access and refresh tokens are kept in this object only."""
        tokens = self.login_with_email(username=email, password=password)
        self._keep(tokens)

    def refresh(self) -> None:
        """Trades the refresh token for a new pair (each refresh token is good for one use)."""
        with self._auth_lock:
            self._refresh_locked()

    def _refresh_locked(self) -> None:
        if self._refresh_token is None:
            raise RuntimeError("no session to refresh: log in first")
        token, self._refresh_token = self._refresh_token, None
        self._keep(self.refresh_tokens(refresh_token=token))

    def _keep(self, tokens: Any) -> None:
        self._api_key = None
        self._access_token = tokens.access_token
        self._refresh_token = tokens.refresh_token
        self._expires_at = time.time() + float(tokens.expires_in)

    def logout(self) -> MessageResponse:
        """Ends the session (its tokens stop working at once) and forgets them."""
        try:
            return super().logout()
        finally:
            self._access_token = self._refresh_token = None

    @property
    def logged_in(self) -> bool:
        """Whether this client holds a session (from login)."""
        return self._access_token is not None

    def _auth_headers(self, operation_id: str) -> dict[str, str]:
        if operation_id in ("loginWithEmail", "refreshTokens", "refreshTokensDeprecated"):
            return {}
        if self._api_key:
            return {"x-api-key": self._api_key}
        if self._access_token is not None:
            if self._refresh_token is not None and time.time() > self._expires_at - REFRESH_MARGIN_SEC:
                with self._auth_lock:
                    if time.time() > self._expires_at - REFRESH_MARGIN_SEC:
                        self._refresh_locked()
            return {"authorization": f"Bearer {self._access_token}"}
        return {}

    # Requests --------------------------------------------------------------------------------

    def _call(self, operation_id: str, method: str, path: str, **request: Any) -> Any:
        """Sends one operation and decodes its answer: JSON as the operation's type, text as str, else bytes."""
        result = request.pop("result", None)
        response = self._send(operation_id, method, path, **request)
        kind = response.headers.get("content-type", "").split(";")[0].strip()
        if kind == "application/json" or kind.endswith("+json"):
            data = response.json()
            return decode(result, data) if result else data
        if kind.startswith("text/") or kind == "image/svg+xml":
            return response.text
        return response.content

    def _send(
        self,
        operation_id: str,
        method: str,
        path: str,
        *,
        path_params: Mapping[str, str] | None = None,
        query: Mapping[str, Any] | None = None,
        headers: Mapping[str, Any] | None = None,
        json: Any = None,
        body_required: bool = False,
        form: Mapping[str, Any] | None = None,
        multipart: Mapping[str, Any] | None = None,
        idempotency: str | None = None,
        replay_safe: bool = False,
        stream: bool = False,
        timeout: float | None = None,
    ) -> httpx.Response:
        """Sends a request with retries; raises ProblemError for an answer >= 400. With
        ``stream=True`` the answer's body is not read (the caller closes the response)."""
        url = path.format(**{k: quote(str(v), safe="") for k, v in (path_params or {}).items()})
        params = {k: _query_value(v) for k, v in (query or {}).items() if v is not None and v is not OMIT}
        hdrs = {k: str(v) for k, v in (headers or {}).items() if v is not None}
        if idempotency and "idempotency-key" not in hdrs:
            hdrs["idempotency-key"] = str(uuid.uuid4())  # one key for this request and all its retries
        content: dict[str, Any] = {}
        if json is not None:
            body = encode(json)
            if body or body_required or not isinstance(body, dict):
                content["json"] = body
        elif form is not None:
            content["data"] = {k: v for k, v in form.items() if v is not OMIT and v is not None}
        files = {k: v for k, v in (multipart or {}).items() if _is_file(v)}
        if multipart is not None:
            content["data"] = {k: str(v) for k, v in multipart.items() if k not in files and v is not OMIT and v is not None}
        starts = {k: _tell(v) for k, v in files.items()}
        refreshed = False
        attempt = 0
        while True:
            if files:
                content["files"] = {k: _rewound(v, starts[k]) for k, v in files.items()}
            request = self._http.build_request(
                method, url, params=params, headers={**hdrs, **self._auth_headers(operation_id)}, timeout=timeout or httpx.USE_CLIENT_DEFAULT, **content
            )
            try:
                response = self._http.send(request, stream=stream)
            except httpx.TransportError as err:
                # Not sent at all (connection refused, DNS): always safe again; otherwise only a replay-safe request.
                unsent = isinstance(err, (httpx.ConnectError, httpx.ConnectTimeout))
                if attempt < self.max_retries and (unsent or replay_safe):
                    self._sleep(_backoff(attempt))
                    attempt += 1
                    continue
                raise
            if response.status_code < 400:
                return response
            response.read()
            response.close()
            error = ProblemError.from_response(response)
            if error.status == 401 and error.slug == "token-expired" and self._refresh_token is not None and not refreshed:
                refreshed = True
                with self._auth_lock:
                    self._refresh_locked()
                continue
            wait = self._retry_wait(error, attempt, replay_safe)
            if wait is None:
                raise error
            self._sleep(wait)
            attempt += 1

    def _retry_wait(self, error: ProblemError, attempt: int, replay_safe: bool) -> float | None:
        """Seconds to wait before sending again, or None to raise (docs/api-decisions.md, "Errors")."""
        if attempt >= self.max_retries:
            return None
        after = error.retry_after
        if error.status == 429 or error.slug == "idempotency-key-in-progress":
            wait = after if after is not None else _backoff(attempt)  # not performed: safe for any request
        elif error.retry in ("upstream", "timeout") and replay_safe:
            wait = after if after is not None else _backoff(attempt)
        else:
            return None
        return wait if wait <= self.max_retry_wait else None

    def _sleep(self, seconds: float) -> None:
        time.sleep(seconds)


def _backoff(attempt: int) -> float:
    """Exponential backoff with full jitter: up to 0.5, 1, 2, 4, ... 8 seconds."""
    return random.uniform(0.1, min(8.0, 0.5 * 2**attempt))


def _query_value(v: Any) -> Any:
    """Lists are comma-separated (the document's `style: form, explode: false`), booleans lower-case."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, tuple)):
        return ",".join(str(x) for x in v)
    return v


def _is_file(v: Any) -> bool:
    return isinstance(v, (bytes, bytearray, tuple)) or hasattr(v, "read")


def _tell(v: Any) -> int | None:
    f = v[1] if isinstance(v, tuple) else v
    try:
        return f.tell() if hasattr(f, "seek") else None
    except OSError:
        return None


def _rewound(v: Any, start: int | None) -> Any:
    """The file as at the first attempt (a retry sends the whole file again)."""
    f = v[1] if isinstance(v, tuple) else v
    if start is not None and hasattr(f, "seek"):
        f.seek(start)
    return v

