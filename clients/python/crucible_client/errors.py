"""Errors: every failed request raises a ProblemError carrying the problem's fields
(application/problem+json, docs/api-decisions.md "Errors")."""

from __future__ import annotations

import email.utils
import time
from typing import Any

import httpx

from ._models import Problem, ValidationIssue
from ._runtime import decode

__all__ = [
    "ProblemError",
    "BadRequestError",
    "AuthenticationError",
    "PaymentRequiredError",
    "PermissionDeniedError",
    "NotFoundError",
    "ConflictError",
    "GoneError",
    "PayloadTooLargeError",
    "ValidationError",
    "RateLimitError",
    "ServerError",
    "WaitTimeout",
    "JobFailedError",
]

#: The retry hint of a generic problem by status, for an answer that is not problem+json
#: (a proxy's page, say): docs/api-decisions.md, "Errors".
_HINT_BY_STATUS = {400: "validation", 401: "auth", 402: "quota", 403: "auth", 409: "conflict", 413: "validation",
                   415: "validation", 422: "validation", 429: "quota", 502: "upstream", 503: "upstream", 504: "timeout"}
#: The hints this client knows; any other (a newer server's) is treated as `terminal`.
RETRY_HINTS = ("validation", "auth", "quota", "conflict", "upstream", "timeout", "terminal")


class ProblemError(Exception):
    """A request the API refused or failed: the problem's ``status``, ``type`` (and its ``slug``),
    ``title``, ``detail``, ``instance``, ``request_id``, ``retry`` hint and, on 422, ``errors``
    (each with ``type``, ``loc``, ``msg``, ``input``). ``problem`` is the whole problem, unknown
    fields included."""

    def __init__(self, problem: Problem, headers: httpx.Headers | None = None) -> None:
        self.problem = problem
        self.headers = headers if headers is not None else httpx.Headers()
        self.status: int = problem.status
        self.type: str = problem.type
        self.title: str = problem.title
        self.detail: str = problem.detail
        self.instance: str = problem.instance
        self.request_id: str = problem.request_id
        self.retry: str = problem.retry if problem.retry in RETRY_HINTS else "terminal"
        self.errors: list[ValidationIssue] = list(problem.errors or [])
        super().__init__(str(self))

    @property
    def slug(self) -> str:
        """The last segment of ``type``: ``job-not-finished``, ``http-404``, ..."""
        return self.type.rsplit("/", 1)[-1]

    @property
    def retry_after(self) -> float | None:
        """Seconds from the ``Retry-After`` header (429, 503, monthly allowance), if any."""
        value = self.headers.get("retry-after")
        if value is None:
            return None
        try:
            return max(0.0, float(value))
        except ValueError:
            pass
        try:  # an HTTP date
            return max(0.0, email.utils.parsedate_to_datetime(value).timestamp() - time.time())
        except (TypeError, ValueError):
            return None

    def __str__(self) -> str:
        text = f"{self.status} {self.slug}: {self.detail or self.title}"
        if self.errors and self.errors[0].msg not in text:
            text += "; " + "; ".join(f"{'.'.join(str(p) for p in e.loc)}: {e.msg}" for e in self.errors[:5])
        return f"{text} (request {self.request_id})" if self.request_id else text

    @classmethod
    def from_response(cls, response: httpx.Response) -> ProblemError:
        """The error of an answer with status >= 400 (problem+json, or anything else a proxy sent)."""
        data: Any = None
        try:
            data = response.json()
        except ValueError:
            pass
        if not isinstance(data, dict) or "status" not in data:
            data = {
                "type": f"/api/v1/problems/http-{response.status_code}",
                "title": response.reason_phrase or "Error",
                "status": response.status_code,
                "detail": response.text[:500],
                "instance": response.request.url.path,
                "request_id": response.headers.get("x-request-id", ""),
                "retry": _HINT_BY_STATUS.get(response.status_code, "terminal"),
            }
        problem = decode(Problem, data)
        return _BY_STATUS.get(response.status_code, ServerError if response.status_code >= 500 else ProblemError)(problem, response.headers)


class BadRequestError(ProblemError):
    """400: a request the API cannot take (missing-idempotency-key, ...)."""


class AuthenticationError(ProblemError):
    """401: credential missing, wrong, expired (token-expired) or revoked (token-revoked)."""


class PaymentRequiredError(ProblemError):
    """402: the wallet cannot cover the reservation (insufficient-funds)."""


class PermissionDeniedError(ProblemError):
    """403: a missing scope, an API key on a token-only endpoint, a ceiling, quota or allowance."""


class NotFoundError(ProblemError):
    """404: not found, or not yours."""


class ConflictError(ProblemError):
    """409: job-not-finished, job-active, version-conflict, idempotency-key-reused, ..."""


class GoneError(ProblemError):
    """410: cursor-expired, or an endpoint past its sunset."""


class PayloadTooLargeError(ProblemError):
    """413: a body over its cap."""


class ValidationError(ProblemError):
    """422: the request failed validation; ``errors`` says where (``loc``) and why."""


class RateLimitError(ProblemError):
    """429: too many requests; ``retry_after`` says when to try again."""


class ServerError(ProblemError):
    """5xx: the server or a source behind it failed."""


_BY_STATUS: dict[int, type[ProblemError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    402: PaymentRequiredError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    410: GoneError,
    413: PayloadTooLargeError,
    422: ValidationError,
    429: RateLimitError,
}


class WaitTimeout(TimeoutError):
    """wait_for_job or wait_for_run reached its timeout before the job or run ended."""


class JobFailedError(Exception):
    """run_job: the job ended without a result (status ``error`` or ``cancelled``)."""

    def __init__(self, status: Any) -> None:
        self.status = status
        super().__init__(f"job {status.process_id} ended {status.status}: {status.message or 'no message'}")
