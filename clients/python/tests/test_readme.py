"""The README's walk-through runs as written: its ```python cells, top to bottom, in one namespace
(as a notebook runs them), against the live server."""

from __future__ import annotations

import re
from pathlib import Path

import pandas

README = Path(__file__).resolve().parent.parent / "README.md"


def walk_through() -> list[str]:
    text = README.read_text()
    start = text.index("## Walk-through")
    end = text.find("\n## ", start + 1)
    return re.findall(r"```python\n(.*?)```", text[start : end if end > 0 else None], re.S)


def test_the_walk_through_runs_as_written(base_url: str, credentials: tuple[str, str], monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("CRUCIBLE_URL", base_url)
    monkeypatch.setenv("CRUCIBLE_EMAIL", credentials[0])
    monkeypatch.setenv("CRUCIBLE_PASSWORD", credentials[1])
    cells = walk_through()
    assert len(cells) >= 8
    namespace: dict[str, object] = {"__name__": "__readme__"}
    for i, cell in enumerate(cells):
        exec(compile(cell, f"README.md cell {i + 1}", "exec"), namespace)  # noqa: S102 - the README's own code
    out = capsys.readouterr().out
    assert "C2H6O 46.069 True" in out
    assert "4 molecules" in out and "result.zip" in out
    assert re.search(r"^completed \[\('describe', 'completed'\)", out, re.M), out
    assert "[calls describe_molecules]" in out and "[completed]" in out
    assert "422 validation [(['body', 'smiles'], 'List should have at least 1 item')]" in out
    assert "404 http-404" in out
    jobs = namespace["jobs"]
    assert isinstance(jobs, pandas.DataFrame) and set(jobs["status"]) == {"completed"} and len(jobs) >= 3
    assert namespace["client"].logged_in is False  # type: ignore[attr-defined]
