"""The tests run against a live Crucible server: test/clients/python.test.ts starts one and sets
CRUCIBLE_URL, CRUCIBLE_EMAIL and CRUCIBLE_PASSWORD (an account with a credited wallet)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

import crucible_client as cc


def _env(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        pytest.skip(f"{name} is not set: these tests need a running server (test/clients/python.test.ts starts one)")
    return value


@pytest.fixture(scope="session")
def base_url() -> str:
    return _env("CRUCIBLE_URL")


@pytest.fixture(scope="session")
def credentials() -> tuple[str, str]:
    return _env("CRUCIBLE_EMAIL"), _env("CRUCIBLE_PASSWORD")


@pytest.fixture(scope="session")
def client(base_url: str, credentials: tuple[str, str]) -> Iterator[cc.Client]:
    """A client logged in with email and password (access token)."""
    with cc.Client(base_url, email=credentials[0], password=credentials[1]) as c:
        yield c


@pytest.fixture(scope="session")
def api_key(client: cc.Client) -> str:
    return client.create_api_key(name=f"pytest-{uuid.uuid4().hex[:8]}").api_key


@pytest.fixture(scope="session")
def key_client(base_url: str, api_key: str) -> Iterator[cc.Client]:
    """A client with an API key (which must send Idempotency-Key on writes: the client does)."""
    with cc.Client(base_url, api_key=api_key) as c:
        yield c


class Rewriting(httpx.BaseTransport):
    """Sends every request to the real server, then lets ``rewrite`` change the answer (or answer
    instead of the server): a response with a field or a value a newer server could send, a
    transient failure. It records what was sent."""

    def __init__(self, rewrite: Callable[[httpx.Request, Callable[[], httpx.Response]], httpx.Response]) -> None:
        self._real = httpx.HTTPTransport()
        self._rewrite = rewrite
        self.sent: list[httpx.Request] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.sent.append(request)

        def forward() -> httpx.Response:
            response = self._real.handle_request(request)
            response.read()
            return response

        return self._rewrite(request, forward)

    def close(self) -> None:
        self._real.close()


def json_response(status: int, body: Any, *, content_type: str = "application/json", headers: dict[str, str] | None = None) -> httpx.Response:
    import json

    return httpx.Response(status, headers={"content-type": content_type, **(headers or {})}, content=json.dumps(body).encode())


@pytest.fixture()
def rewriting(api_key: str, base_url: str) -> Iterator[Callable[..., tuple[cc.Client, Rewriting]]]:
    """A client (API key) whose answers pass through a Rewriting transport; retries do not sleep."""
    made: list[cc.Client] = []

    def make(rewrite: Callable[[httpx.Request, Callable[[], httpx.Response]], httpx.Response], **options: Any) -> tuple[cc.Client, Rewriting]:
        transport = Rewriting(rewrite)
        c = cc.Client(base_url, api_key=api_key, transport=transport, **options)
        setattr(c, "_sleep", lambda seconds: None)
        made.append(c)
        return c, transport

    yield make
    for c in made:
        c.close()
