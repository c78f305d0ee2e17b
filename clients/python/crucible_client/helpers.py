"""What a caller would otherwise write around the operations: waiting for jobs and runs on the
events feed's long poll (docs/events.md), pagination, uploads and downloads, and the Assistant's
event stream with Last-Event-ID resume (docs/assistant.md, "Streaming")."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, overload

import httpx

from ._runtime import OMIT, Omit, decode
from .errors import JobFailedError, ProblemError, WaitTimeout

if TYPE_CHECKING:
    from ._models import AssistantStreamEvent, JobResult, JobStatusResponse, JobSubmitRequest, RunEvent, WorkflowRun

__all__ = ["Helpers", "JOB_TERMINAL", "RUN_TERMINAL"]

#: Terminal job and run states (docs/api-decisions.md, "Events"); any other, known or not, is "not yet".
JOB_TERMINAL = frozenset({"completed", "error", "cancelled"})
RUN_TERMINAL = frozenset({"completed", "failed", "cancelled"})
#: The longest long poll the feed allows (seconds).
LONG_POLL_MAX = 25.0

class Helpers:
    """Helpers over the generated operations (mixed into Client)."""

    # provided by Client and Operations
    _send: Callable[..., httpx.Response]
    list_events: Callable[..., Any]
    get_job_status: Callable[..., Any]
    get_workflow_run: Callable[..., Any]
    get_job_result: Callable[..., Any]
    submit_job: Callable[..., Any]
    upload_artifact: Callable[..., Any]

    # Waiting ----------------------------------------------------------------------------------

    def wait_for_job(self, process_id: str, *, timeout: float | None = None) -> JobStatusResponse:
        """Waits until the job ends (``completed``, ``error`` or ``cancelled``) and returns its status.
        Follows the events feed with long polls, so it answers within moments of the end without
        polling the job; raises WaitTimeout after ``timeout`` seconds (None: no limit)."""
        return self._wait("job", process_id, lambda: self.get_job_status(process_id=process_id), JOB_TERMINAL, timeout)

    def wait_for_run(self, run_id: str, *, timeout: float | None = None) -> WorkflowRun:
        """Waits until the workflow run ends (``completed``, ``failed`` or ``cancelled``) and returns
        the whole run, as TypeScript's ``waitForRun`` does: its status, its steps (each with its
        ``cost_usd``), its outputs, and what it cost: ``charged_usd`` (what the wallet paid) of
        ``reserved_usd``."""
        return self._wait("workflow_run", run_id, lambda: self.get_workflow_run(run_id), RUN_TERMINAL, timeout)

    def _wait(self, kind: str, subject: str, read: Callable[[], Any], terminal: frozenset[str], timeout: float | None) -> Any:
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            # The feed's position first, then the subject: an end after the read is an event after the cursor.
            page = self.list_events(kind=kind, subject_id=subject, limit=1)
            if page.events:
                return read()
            cursor = page.next_cursor
            status = read()
            if status.status in terminal:
                return status
            try:
                while True:
                    left = LONG_POLL_MAX if deadline is None else min(LONG_POLL_MAX, deadline - time.monotonic())
                    if left <= 0:
                        raise WaitTimeout(f"{kind} {subject} is still {status.status} after {timeout} s")
                    page = self._long_poll(kind=kind, subject_id=subject, after=cursor, wait=left)
                    cursor = page.next_cursor or cursor
                    if page.events:
                        return read()  # the feed reports only ends: this status is final, known or not
            except ProblemError as err:
                if err.slug != "cursor-expired":
                    raise
                # Older than the feed keeps (docs/events.md, "Retention"): start again from the subject.

    def _long_poll(self, **query: Any) -> Any:
        response = self._send("listEvents", "GET", "/api/v1/events", query={**query, "limit": 1}, replay_safe=True, timeout=query["wait"] + 15.0)
        return decode("EventListResponse", response.json())

    def iter_events(self, *, after: str | None = None, kind: str | None = None, subject_id: str | None = None, follow: bool = False) -> Iterator[RunEvent]:
        """The events after cursor ``after`` (the start of the retained feed when None), oldest first.
        With ``follow`` it never ends: it long-polls for the next ones. Each event's ``cursor``
        resumes right after it."""
        while True:
            query = {"after": after, "kind": kind, "subject_id": subject_id, "limit": 100}
            if follow:
                page = decode("EventListResponse", self._send("listEvents", "GET", "/api/v1/events", query={**query, "wait": LONG_POLL_MAX}, replay_safe=True, timeout=LONG_POLL_MAX + 15.0).json())
            else:
                page = self.list_events(**query)
            yield from page.events
            after = page.next_cursor or after
            if not page.events and not follow:
                return

    # Jobs in one call ----------------------------------------------------------------------------

    def run_job(self, body: JobSubmitRequest, *, timeout: float | None = None) -> JobResult:
        """Submits a job, waits for it and returns its result; raises JobFailedError when it ends
        without one (``error``, ``cancelled``). Charges your wallet like submit_job."""
        process_id = self.submit_job(body).process_id
        status = self.wait_for_job(process_id, timeout=timeout)
        if status.status != "completed":
            raise JobFailedError(status)
        return self.get_job_result(process_id=process_id)

    # Pagination -------------------------------------------------------------------------------

    def paginate(self, list_method: Callable[..., Any], /, *, page_size: int = 100, **params: Any) -> Iterator[Any]:
        """Every item of a limit/offset list, page after page: ``client.paginate(client.list_jobs,
        status=["completed"])``. Stops at ``has_more: false`` or ``next_offset: null`` where the list
        says so, else at its ``total``, else at a short page."""
        offset = params.pop("offset", 0) or 0
        while True:
            page = list_method(limit=page_size, offset=offset, **params)
            items = list(getattr(page, getattr(page, "_table", "items")) or [])
            yield from items
            if getattr(page, "has_more", None) is False or not items:
                return
            next_offset = getattr(page, "next_offset", OMIT)
            if next_offset is None:
                return
            offset = next_offset if isinstance(next_offset, int) else offset + len(items)
            total = getattr(page, "total", None)
            if (isinstance(total, int) and offset >= total) or (total is None and next_offset is OMIT and len(items) < page_size):
                return

    def iter_jobs(self, **filters: Any) -> Iterator[Any]:
        """Every job of yours matching ``filters`` (those of list_jobs: status, job_type, q, sort)."""
        return self.paginate(getattr(self, "list_jobs"), **filters)

    def iter_artifacts(self, **filters: Any) -> Iterator[Any]:
        """Every artifact port of yours matching ``filters`` (those of list_artifacts)."""
        return self.paginate(getattr(self, "list_artifacts"), **filters)

    def iter_workflow_runs(self, **filters: Any) -> Iterator[Any]:
        """Every workflow run of yours matching ``filters`` (those of list_workflow_runs)."""
        return self.paginate(getattr(self, "list_workflow_runs"), **filters)

    def iter_workflows(self, **filters: Any) -> Iterator[Any]:
        """Every workflow definition you can see matching ``filters`` (those of list_workflows)."""
        return self.paginate(getattr(self, "list_workflows"), **filters)

    # Files ------------------------------------------------------------------------------------

    def upload(
        self,
        source: str | os.PathLike[str] | bytes | IO[bytes],
        *,
        mode: str = "molecules",
        filename: str | None = None,
        name: str | Omit = OMIT,
        data_kind: str | Omit = OMIT,
        data_format: str | Omit = OMIT,
    ) -> Any:
        """Uploads a file as an artifact: a path, bytes or an open binary file. ``mode`` is
        ``molecules`` (a .smi, .csv or .sdf molecule set: the file name's extension tells which),
        ``file`` or ``archive``. Retries send the same Idempotency-Key, so an upload is stored once."""
        if isinstance(source, (str, os.PathLike)):
            path = Path(source)
            with path.open("rb") as f:
                return self.upload_artifact(file=(filename or path.name, f), mode=mode, name=name, data_kind=data_kind, data_format=data_format)
        if filename is None:
            raise ValueError("give the filename of bytes or a file object (its extension tells the format)")
        return self.upload_artifact(file=(filename, source), mode=mode, name=name, data_kind=data_kind, data_format=data_format)

    @overload
    def download(self, artifact_id: str, dest: None = None, *, record: str | None = None, port: str | None = None) -> bytes: ...

    @overload
    def download(self, artifact_id: str, dest: str | os.PathLike[str], *, record: str | None = None, port: str | None = None) -> Path: ...

    def download(self, artifact_id: str, dest: str | os.PathLike[str] | None = None, *, record: str | None = None, port: str | None = None) -> bytes | Path:
        """Downloads an artifact (the zip) or, with ``record`` (and ``port``), one record's file.
        With ``dest`` the body is streamed to that file and its path returned; a connection that
        drops mid-way is resumed with a Range request from the bytes already written."""
        query = {"record": record, "port": port}
        path = "/api/v1/artifacts/{artifact_id}/download"
        if dest is None:
            return self._send("downloadArtifact", "GET", path, path_params={"artifact_id": artifact_id}, query=query, replay_safe=True).content
        target = Path(dest)
        written = 0
        failures = 0
        with target.open("wb") as out:
            while True:
                headers = {"range": f"bytes={written}-"} if written else {}
                response = self._send("downloadArtifact", "GET", path, path_params={"artifact_id": artifact_id}, query=query, headers=headers, replay_safe=True, stream=True)
                try:
                    if written and response.status_code != 206:  # the server sent it whole again
                        out.seek(0)
                        out.truncate()
                        written = 0
                    for chunk in response.iter_bytes():
                        out.write(chunk)
                        written += len(chunk)
                    return target
                except (httpx.ReadError, httpx.RemoteProtocolError, httpx.ReadTimeout):
                    failures += 1
                    if failures > 3:
                        raise
                finally:
                    response.close()

    # The Assistant's stream -----------------------------------------------------------------------

    def stream_turn(self, session_id: str, turn_id: str, *, last_event_id: int | None = None, reconnects: int = 5) -> Iterator[AssistantStreamEvent]:
        """The turn's events as they come (``delta``, ``tool_call``, ``tool_result``, ``plan``,
        ``usage``, then ``done`` or ``error``), each decoded to its dataclass (``event.data.text``).
        A dropped connection is resumed with ``Last-Event-ID``: no event lost or repeated. Ends after
        the last event. ``last_event_id`` resumes an earlier stream."""
        path = "/api/v1/assistant/sessions/{session_id}/turns/{turn_id}/stream"
        last = last_event_id
        failures = 0
        while True:
            headers = {"last-event-id": str(last)} if last is not None else {}
            response = self._send(
                "streamAssistantTurn", "GET", path, path_params={"session_id": session_id, "turn_id": turn_id}, headers={**headers, "accept": "text/event-stream"}, replay_safe=True, stream=True, timeout=60.0
            )
            try:
                for raw in parse_sse(response.iter_lines()):
                    event = decode("AssistantStreamEvent", raw)
                    last = raw["id"] if isinstance(raw.get("id"), int) else last
                    failures = 0
                    yield event
                    if raw.get("event") in ("done", "error"):
                        return
                # The server closed the stream before the last event: resume after the last one seen.
            except (httpx.ReadError, httpx.RemoteProtocolError, httpx.ReadTimeout):
                pass
            finally:
                response.close()
            failures += 1
            if failures > reconnects:
                raise ConnectionError(f"the stream of turn {turn_id} dropped {failures} times in a row")
            time.sleep(min(0.25 * 2**failures, 4.0))


def parse_sse(lines: Iterator[str]) -> Iterator[dict[str, Any]]:
    """Server-Sent Events (the WHATWG format) as ``{id, event, data}`` dicts, ``data`` parsed as
    JSON; comments (``: keep-alive``) are skipped."""
    import json

    fields: dict[str, Any] = {}
    data: list[str] = []
    for raw_line in lines:
        line = raw_line.rstrip("\r\n")  # httpx before 0.24 keeps the line ending
        if line == "":
            if data:
                text = "\n".join(data)
                try:
                    payload: Any = json.loads(text)
                except ValueError:
                    payload = text
                event_id = fields.get("id")
                yield {"id": int(event_id) if event_id and event_id.isdigit() else event_id, "event": fields.get("event", "message"), "data": payload}
            fields, data = {}, []
            continue
        if line.startswith(":"):
            continue
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if name == "data":
            data.append(value)
        elif name in ("id", "event", "retry"):
            fields[name] = value

