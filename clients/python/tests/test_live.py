"""The SDK against a live server: login and refresh, describe, a job to completion, an upload and a
download, a workflow run, a prediction, a streamed Assistant turn, and refusals as exceptions."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

import crucible_client as cc

LIBRARY = "CCO ethanol\nc1ccccc1O phenol\nCC(=O)Oc1ccccc1C(=O)O aspirin\n"


def test_login_refresh_and_logout(base_url: str, credentials: tuple[str, str]) -> None:
    c = cc.Client(base_url, email=credentials[0], password=credentials[1])
    assert c.logged_in
    assert "refresh" not in repr(c) and c._refresh_token is not None and c._refresh_token not in repr(c)
    assert c.check_credential().message
    first = c._refresh_token
    c.refresh()  # a new pair: the first refresh token is spent
    assert c._refresh_token != first
    assert c.describe_molecules(smiles=["C"]).items[0].properties is not None
    c.logout()
    assert not c.logged_in
    with pytest.raises(cc.AuthenticationError):
        c.check_credential()  # no credential left
    c.close()


def test_a_wrong_password_is_an_authentication_error(base_url: str, credentials: tuple[str, str]) -> None:
    with pytest.raises(cc.AuthenticationError) as err:
        cc.Client(base_url, email=credentials[0], password="not the password")
    assert err.value.status == 401 and err.value.slug == "invalid-credentials" and err.value.retry == "auth"


def test_describe(key_client: cc.Client) -> None:
    answer = key_client.describe_molecules(smiles=["CCO", "not a molecule"])
    ethanol, bad = answer.items
    assert isinstance(ethanol, cc.Description) and ethanol.properties is not None
    assert ethanol.properties.formula == "C2H6O"
    assert ethanol.properties.mw == pytest.approx(46.069, abs=0.001)
    assert ethanol.properties.hbd == 1 and ethanol.properties.lipinski.pass_ is True
    assert bad.properties is None and bad.error == "unparseable"
    frame = answer.to_dataframe()
    assert list(frame["properties.formula"][:1]) == ["C2H6O"] and list(frame["error"]) == [None, "unparseable"]


def test_a_job_to_completion(key_client: cc.Client) -> None:
    submitted = key_client.submit_job({"job_name": "pytest properties", "job_type": "properties", "payload": {"smiles": ["CCO", "c1ccccc1"]}})
    status = key_client.wait_for_job(submitted.process_id, timeout=120)
    assert status.status == "completed" and status.result_artifact_id
    result = key_client.get_job_result(process_id=submitted.process_id)
    assert isinstance(result, cc.PropertiesResult) and result.items is not None  # narrowed on job_type
    assert [i.smiles for i in result.items] == ["CCO", "c1ccccc1"]
    assert result.items[1].properties is not None and result.items[1].properties.formula == "C6H6"
    assert result.to_dataframe().shape[0] == 2
    # The same Idempotency-Key and body: the first answer again, one job.
    body: cc.JobSubmitRequest = {"job_name": "once", "job_type": "wait", "payload": {"seconds": 1}}
    a = key_client.submit_job(body, idempotency_key="pytest-once-" + submitted.process_id)
    b = key_client.submit_job(body, idempotency_key="pytest-once-" + submitted.process_id)
    assert a.process_id == b.process_id
    assert isinstance(key_client.run_job({"job_name": "run", "job_type": "wait", "payload": {"seconds": 1}}, timeout=60), cc.WaitResult)


def test_to_dataframe_one_row_per_point_of_a_scan(key_client: cc.Client) -> None:
    # Ethane's H-C-C-H torsion (atoms: C0, C1, then C0's hydrogens 2-4 and C1's 5-7) at 3 angles, and a structure that fails.
    body: cc.JobSubmitRequest = {
        "job_name": "pytest scan",
        "job_type": "scan",
        "payload": {"molecules": ["CC", "C1CC"], "method": "gfnff", "dihedral": [2, 0, 1, 5], "start_deg": 0, "end_deg": 120, "steps": 3},
    }
    result = key_client.run_job(body, timeout=300)
    assert isinstance(result, cc.ScanResult) and result.items is not None and len(result.items) == 2
    frame = result.to_dataframe()
    ethane = frame[frame["id"] == "0"]
    # One row per point, the structure's fields repeated on each; the point's fields as points.* columns.
    assert list(ethane["points.angle_deg"]) == [0, 60, 120]
    assert list(ethane["index"]) == [0, 0, 0] and ethane["error"].isna().all()
    assert list(ethane["points.energy_hartree"]) == [p.energy_hartree for p in result.items[0].points or []]
    assert "points" not in frame.columns and "points.molblock" in frame.columns
    # A structure without points keeps one row, with its error.
    other = frame[frame["id"] == "1"]
    assert len(other) == 1 and other["points.angle_deg"].isna().all() and isinstance(other["error"].iloc[0], str)
    assert len(frame) == 4
    # Lists of records kept as cells on request; lists of numbers always stay cells.
    assert result.to_dataframe(explode=False).shape[0] == 2
    assert list(cc.to_dataframe([{"id": "a", "charges": [0.1, -0.1]}])["charges"]) == [[0.1, -0.1]]


def test_upload_a_molecule_set_and_download_it(key_client: cc.Client, tmp_path: Path) -> None:
    source = tmp_path / "library.smi"
    source.write_text(LIBRARY)
    artifact = key_client.upload(source)
    assert artifact.manifest.ports["molecules"].record_count == 3
    same = key_client.upload(LIBRARY.encode(), filename="again.smi", name="again")
    assert same.id != artifact.id and same.manifest.ports["molecules"].record_count == 3
    job = key_client.submit_job({"job_name": "from upload", "job_type": "properties", "payload": {"input_artifact_id": artifact.id}})
    assert key_client.wait_for_job(job.process_id, timeout=120).status == "completed"
    result = key_client.get_job_result(process_id=job.process_id)
    assert isinstance(result, cc.PropertiesResult) and result.items is not None and len(result.items) == 3
    whole = key_client.download(artifact.id)
    assert isinstance(whole, bytes) and whole[:2] == b"PK"
    assert "manifest.json" in zipfile.ZipFile(io.BytesIO(whole)).namelist()
    saved = key_client.download(artifact.id, tmp_path / "copy.zip")
    assert isinstance(saved, Path) and saved.read_bytes() == whole
    uploads = [a for a in key_client.iter_artifacts() if a.artifact_id in (artifact.id, same.id)]
    assert len(uploads) == 2


def test_a_workflow_run(key_client: cc.Client) -> None:
    templates = {t.template_id: t for t in key_client.list_workflow_templates().templates}
    assert "library-triage" in templates
    run = key_client.start_workflow_run({"template_id": "library-triage", "inputs": {"library": ["CCO", "c1ccccc1O", "CC(=O)Oc1ccccc1C(=O)O"]}})
    status = key_client.wait_for_run(run.run_id, timeout=180)
    assert status.status == "completed", status
    # The charge comes with the run: what the wallet paid, the sum of its steps' costs, within the reservation.
    assert isinstance(status, cc.WorkflowRun) and status.run_id == run.run_id
    assert 0 < status.charged_usd <= status.reserved_usd
    assert status.charged_usd == pytest.approx(sum(s.cost_usd for s in status.steps), abs=1e-6)
    assert status.charged_usd == key_client.get_workflow_run(run.run_id).charged_usd
    assert {s.step_id: s.state for s in status.steps} == {s.id: "completed" for s in templates["library-triage"].spec.steps}
    outputs = key_client.get_workflow_run_outputs(run.run_id)
    assert outputs.outputs and all(o.ready and o.artifact_id for o in outputs.outputs.values())
    graph = key_client.get_workflow_run_graph(run.run_id)
    assert isinstance(graph, str) and graph.startswith("<svg")
    assert run.run_id in [r.run_id for r in key_client.iter_workflow_runs()]


def test_a_prediction(key_client: cc.Client) -> None:
    answer = key_client.predict(model="public/esol-logs", smiles=["CCO", "c1ccccc1", "nonsense"])
    ethanol, benzene, bad = answer.predictions
    assert answer.units and ethanol.error is None and bad.error
    # ESOL: ethanol dissolves far better than benzene (log S about 1.1 and -1.6 measured).
    assert ethanol.prediction is not None and benzene.prediction is not None and ethanol.prediction > benzene.prediction + 1
    frame = answer.to_dataframe()
    assert list(frame["smiles"]) == ["CCO", "c1ccccc1", "nonsense"]


def test_a_streamed_assistant_turn_resumes_after_a_given_event(client: cc.Client) -> None:
    session = client.create_assistant_session(title="pytest")
    turn = client.start_assistant_turn(session.session_id, message="describe aspirin and caffeine")
    raw = list(client.stream_turn(session.session_id, turn.turn_id))
    events = [e for e in raw if not isinstance(e, dict)]  # a dict: an event kind this client does not know
    assert len(events) == len(raw)
    names = [e.event for e in events]
    assert names[0] == "tool_call" and names[-1] == "done" and "delta" in names and "usage" in names
    assert [e.id for e in events] == list(range(1, len(events) + 1))
    call = events[0]
    assert isinstance(call, cc.AssistantStreamEventToolCall) and call.data.name == "describe_molecules"
    text = "".join(e.data.text for e in events if isinstance(e, cc.AssistantStreamEventDelta))
    assert "aspirin" in text and "C9H8O4" in text
    done = events[-1]
    assert isinstance(done, cc.AssistantStreamEventDone) and done.data.status == "completed"
    resumed = [e for e in client.stream_turn(session.session_id, turn.turn_id, last_event_id=2) if not isinstance(e, dict)]
    assert [e.id for e in resumed] == [e.id for e in events[2:]]
    assert client.get_assistant_turn(session.session_id, turn.turn_id).status == "completed"


def test_a_422_is_a_validation_error_with_its_locations(key_client: cc.Client) -> None:
    with pytest.raises(cc.ValidationError) as caught:
        key_client.describe_molecules(smiles=[])
    err = caught.value
    assert isinstance(err, cc.ProblemError) and err.status == 422 and err.retry == "validation"
    assert err.type == "/api/v1/problems/http-422" and err.title and err.request_id and err.instance == "/api/v1/describe"
    assert [(e.type, e.loc) for e in err.errors] == [("too_short", ["body", "smiles"])]
    with pytest.raises(cc.ValidationError) as caught:
        key_client.submit_job({"job_name": "bad", "job_type": "wait", "payload": {"seconds": 0}})  # type: ignore[typeddict-item]
    assert any(e.loc[:2] == ["body", "payload"] for e in caught.value.errors), caught.value.errors


def test_a_404_is_a_not_found_error(key_client: cc.Client) -> None:
    with pytest.raises(cc.NotFoundError) as caught:
        key_client.get_job_status(process_id="00000000-0000-4000-8000-000000000000")
    err = caught.value
    assert err.status == 404 and err.retry == "terminal" and err.slug.startswith("http-404") and err.detail
    with pytest.raises(cc.NotFoundError):
        key_client.get_workflow_run("00000000-0000-4000-8000-000000000000")


def test_an_unfinished_job_result_is_a_conflict(key_client: cc.Client) -> None:
    job = key_client.submit_job({"job_name": "slow", "job_type": "wait", "payload": {"seconds": 30}})
    with pytest.raises(cc.ConflictError) as caught:
        key_client.get_job_result(process_id=job.process_id)
    assert caught.value.slug == "job-not-finished"
    key_client.cancel_job(process_id=job.process_id)
    assert key_client.wait_for_job(job.process_id, timeout=60).status == "cancelled"
