"""Compatibility (docs/api-decisions.md, "Python SDK compatibility"): answers a newer server could
send (an extra field, an unknown status, an unknown result variant) are taken, and retries follow
the problem's ``retry`` hint with the same Idempotency-Key. The answers come from the live server,
changed on their way by a Rewriting transport (conftest.py)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

import httpx
import pytest

import crucible_client as cc
from crucible_client._operations import OPERATIONS

from conftest import Rewriting, json_response

Rewrite = Callable[..., tuple[cc.Client, Rewriting]]


def _changed(response: httpx.Response, change: Callable[[dict[str, Any]], None]) -> httpx.Response:
    body = response.json()
    change(body)
    return json_response(response.status_code, body, headers={"x-request-id": response.headers.get("x-request-id", "")})


def test_an_extra_field_and_an_unknown_job_status_are_taken(rewriting: Rewrite) -> None:
    statuses = iter(["paused"])  # the first status read says "paused", a status this client does not know

    def rewrite(request: httpx.Request, forward: Callable[[], httpx.Response]) -> httpx.Response:
        response = forward()
        if request.url.path == "/api/v1/jobs/status":
            status = next(statuses, None)

            def change(body: dict[str, Any]) -> None:
                body["eta_seconds"] = 12
                if status:
                    body["status"] = status

            return _changed(response, change)
        if request.url.path == "/api/v1/jobs/list":

            def change_items(body: dict[str, Any]) -> None:
                for item in body["items"]:
                    item.update(status="paused", queue="gpu")

            return _changed(response, change_items)
        return response

    c, _ = rewriting(rewrite)
    job = c.submit_job({"job_name": "tolerance", "job_type": "wait", "payload": {"seconds": 1}})
    # The unknown status is "not finished yet": the wait goes on until the feed reports the end.
    status = c.wait_for_job(job.process_id, timeout=60)
    assert status.status == "completed"
    assert status.additional_properties == {"eta_seconds": 12}
    assert status.to_dict()["eta_seconds"] == 12
    listed = [j for j in c.iter_jobs() if j.process_id == job.process_id]
    assert len(listed) == 1 and listed[0].status == "paused" and listed[0].additional_properties == {"queue": "gpu"}


def test_an_unknown_result_variant_arrives_as_a_dict(rewriting: Rewrite) -> None:
    def rewrite(request: httpx.Request, forward: Callable[[], httpx.Response]) -> httpx.Response:
        response = forward()
        if request.url.path == "/api/v1/jobs/result":
            return _changed(response, lambda body: body.update(job_type="quantum_teleport", fidelity=0.99))
        return response

    c, _ = rewriting(rewrite)
    job = c.submit_job({"job_name": "variant", "job_type": "wait", "payload": {"seconds": 1}})
    assert c.wait_for_job(job.process_id, timeout=60).status == "completed"
    result = c.get_job_result(process_id=job.process_id)
    assert isinstance(result, dict) and result["job_type"] == "quantum_teleport" and result["fidelity"] == 0.99


def test_an_unknown_problem_type_and_hint_raise_without_retry(rewriting: Rewrite) -> None:
    problem = {"type": "/api/v1/problems/new-kind", "title": "New", "status": 418, "detail": "a newer refusal", "instance": "/api/v1/wallet", "request_id": "r1", "retry": "someday", "hint": "x"}
    c, sent = rewriting(lambda request, forward: json_response(418, problem, content_type="application/problem+json"))
    with pytest.raises(cc.ProblemError) as caught:
        c.get_wallet()
    assert caught.value.slug == "new-kind" and caught.value.retry == "terminal" and caught.value.problem.additional_properties == {"hint": "x"}
    assert len(sent.sent) == 1


def upstream(instance: str) -> dict[str, Any]:
    return {"type": "/api/v1/problems/http-503", "title": "Service Unavailable", "status": 503, "detail": "try again", "instance": instance, "request_id": "r", "retry": "upstream"}


def test_an_upstream_problem_is_retried_with_the_same_idempotency_key(rewriting: Rewrite) -> None:
    failures = {"n": 0}

    def rewrite(request: httpx.Request, forward: Callable[[], httpx.Response]) -> httpx.Response:
        if request.url.path == "/api/v1/jobs/submit" and failures["n"] < 2:
            failures["n"] += 1
            return json_response(503, upstream(request.url.path), content_type="application/problem+json")
        return forward()

    c, t = rewriting(rewrite)
    job = c.submit_job({"job_name": "retried", "job_type": "wait", "payload": {"seconds": 1}})
    submits = [r for r in t.sent if r.url.path == "/api/v1/jobs/submit"]
    keys = {r.headers["idempotency-key"] for r in submits}
    assert len(submits) == 3 and len(keys) == 1, "three attempts, one key"
    assert c.get_job_status(process_id=job.process_id).process_id == job.process_id


def test_a_write_that_is_not_replay_safe_is_not_retried(rewriting: Rewrite) -> None:
    c, t = rewriting(lambda request, forward: json_response(503, upstream(request.url.path), content_type="application/problem+json"))
    with pytest.raises(cc.ServerError) as caught:
        c.cancel_job(process_id="00000000-0000-4000-8000-000000000000")
    assert caught.value.retry == "upstream" and len(t.sent) == 1
    with pytest.raises(cc.ServerError):
        c.get_wallet()  # a read is retried, then raised
    assert len(t.sent) == 1 + 1 + c.max_retries


def test_a_rate_limit_is_waited_out(rewriting: Rewrite) -> None:
    limited = {"n": 0}
    slept: list[float] = []

    def rewrite(request: httpx.Request, forward: Callable[[], httpx.Response]) -> httpx.Response:
        if limited["n"] == 0:
            limited["n"] += 1
            body = {**upstream(request.url.path), "type": "/api/v1/problems/rate-limited", "status": 429, "retry": "quota"}
            return json_response(429, body, content_type="application/problem+json", headers={"retry-after": "3"})
        return forward()

    c, _ = rewriting(rewrite)
    setattr(c, "_sleep", slept.append)
    assert c.get_wallet().currency == "USD"
    assert slept == [3.0]


def test_a_connection_that_fails_is_retried(rewriting: Rewrite) -> None:
    failures = {"n": 0}

    def rewrite(request: httpx.Request, forward: Callable[[], httpx.Response]) -> httpx.Response:
        if failures["n"] == 0:
            failures["n"] += 1
            raise httpx.ConnectError("refused", request=request)
        return forward()

    c, _ = rewriting(rewrite)
    assert c.describe_molecules(smiles=["O"]).items[0].properties is not None


def test_to_dataframe_says_how_to_install_pandas(key_client: cc.Client, monkeypatch: pytest.MonkeyPatch) -> None:
    answer = key_client.describe_molecules(smiles=["CCO"])
    monkeypatch.setitem(sys.modules, "pandas", None)  # type: ignore[misc]  # as if pandas were not installed
    with pytest.raises(ImportError, match="python3-pandas"):
        answer.to_dataframe()


def test_every_operation_of_the_served_document_is_a_method(base_url: str) -> None:
    doc = httpx.get(f"{base_url}/openapi.json").json()
    ids = {op["operationId"] for item in doc["paths"].values() for op in item.values() if isinstance(op, dict) and "operationId" in op}
    assert ids == set(OPERATIONS)
    for method in OPERATIONS.values():
        assert callable(getattr(cc.Client, method))


def test_a_model_round_trips_to_json(key_client: cc.Client) -> None:
    template = key_client.list_workflow_templates().templates[0]
    spec = template.spec.to_dict()
    assert json.loads(json.dumps(spec)) == spec
    # A spec read back can be sent again as it is: the run-start body takes the dataclass too.
    check = key_client.validate_workflow(spec=template.spec)
    assert check.valid is True, check
