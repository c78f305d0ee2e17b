"""The package's own PEP 517 build backend (pyproject.toml: ``backend-path``): it builds the wheel,
the editable wheel and the sdist with the standard library alone, so ``pip install
./clients/python`` needs nothing from outside (no setuptools, wheel or network) on any Python
that runs the package (3.9 or later: ``tomllib`` where there is one, before 3.11 a reader of the
TOML this pyproject.toml uses). Metadata comes from pyproject.toml's
``[project]`` table; the wheel holds ``crucible_client`` as it is in the source tree."""

from __future__ import annotations

import ast
import base64
import hashlib
import io
import os
import re
import tarfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "crucible_client"
#: Every file of the wheel gets this time (zip's earliest), so that a build is reproducible.
EPOCH = (1980, 1, 1, 0, 0, 0)
LICENSE_FILES = ("LICENSE", "NOTICE")


def _project() -> dict:
    try:
        import tomllib
    except ImportError:  # Python 3.9 and 3.10
        return _read_toml((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)["project"]


def _read_toml(text: str) -> dict:
    """The TOML of pyproject.toml without tomllib: tables, dotted table names, and values that are
    basic strings, numbers, booleans, arrays (over several lines too) and inline tables of those."""
    out: dict = {}
    table = out
    pending = ""
    for raw in text.splitlines():
        line = pending + _strip_comment(raw)
        if line.count("[") + line.count("{") > line.count("]") + line.count("}"):
            pending = line + " "
            continue
        pending = ""
        line = line.strip()
        if not line:
            continue
        header = re.fullmatch(r"\[\s*([A-Za-z0-9_.\-]+)\s*\]", line)
        if header:
            table = out
            for part in header.group(1).split("."):
                table = table.setdefault(part, {})
            continue
        key, _, value = line.partition("=")
        table[key.strip().strip('"')] = _toml_value(value.strip())
    return out


def _strip_comment(line: str) -> str:
    quoted = False
    for i, ch in enumerate(line):
        if ch == '"' and (i == 0 or line[i - 1] != "\\"):
            quoted = not quoted
        elif ch == "#" and not quoted:
            return line[:i]
    return line


def _toml_value(value: str) -> object:
    # An inline table's `key = value` as a Python dict's `"key": value`; true/false as Python's.
    value = re.sub(r'([{,]\s*)([A-Za-z0-9_\-]+)\s*=', r'\1"\2":', value)
    value = re.sub(r'\btrue\b(?=(?:[^"]*"[^"]*")*[^"]*$)', "True", value)
    value = re.sub(r'\bfalse\b(?=(?:[^"]*"[^"]*")*[^"]*$)', "False", value)
    return ast.literal_eval(value)


def _dist(project: dict) -> tuple[str, str]:
    return project["name"].replace("-", "_"), project["version"]


def _metadata(project: dict) -> str:
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {project['name']}",
        f"Version: {project['version']}",
        f"Summary: {project.get('description', '')}",
    ]
    licence = project.get("license", {})
    if isinstance(licence, dict) and "text" in licence:
        lines.append(f"License: {licence['text']}")
    lines += [f"Classifier: {c}" for c in project.get("classifiers", [])]
    if "requires-python" in project:
        lines.append(f"Requires-Python: {project['requires-python']}")
    lines += [f"Requires-Dist: {d}" for d in project.get("dependencies", [])]
    for extra, deps in project.get("optional-dependencies", {}).items():
        lines.append(f"Provides-Extra: {extra}")
        lines += [f'Requires-Dist: {d}; extra == "{extra}"' for d in deps]
    readme = project.get("readme")
    body = ""
    if readme:
        lines.append("Description-Content-Type: text/markdown")
        body = (ROOT / readme).read_text(encoding="utf-8")
    return "\n".join(lines) + "\n\n" + body


def _package_files() -> list[Path]:
    files = [p for p in sorted((ROOT / PACKAGE).rglob("*")) if p.is_file() and "__pycache__" not in p.parts and p.suffix not in (".pyc", ".pyo")]
    return files


def _wheel_text() -> str:
    return "Wheel-Version: 1.0\nGenerator: crucible_build\nRoot-Is-Purelib: true\nTag: py3-none-any\n"


def _write_wheel(directory: str, members: list[tuple[str, bytes]], project: dict) -> str:
    name, version = _dist(project)
    info = f"{name}-{version}.dist-info"
    members = members + [
        (f"{info}/METADATA", _metadata(project).encode()),
        (f"{info}/WHEEL", _wheel_text().encode()),
        (f"{info}/top_level.txt", f"{PACKAGE}\n".encode()),
    ]
    members += [(f"{info}/{f}", (ROOT / f).read_bytes()) for f in LICENSE_FILES if (ROOT / f).is_file()]
    record = []
    for path, data in members:
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{path},sha256={digest},{len(data)}")
    record.append(f"{info}/RECORD,,")
    members.append((f"{info}/RECORD", ("\n".join(record) + "\n").encode()))
    filename = f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(os.path.join(directory, filename), "w", zipfile.ZIP_DEFLATED) as zf:
        for path, data in members:
            entry = zipfile.ZipInfo(path, EPOCH)
            entry.external_attr = 0o644 << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(entry, data)
    return filename


# PEP 517 hooks ----------------------------------------------------------------------------------


def get_requires_for_build_wheel(config_settings: dict | None = None) -> list[str]:
    return []


def get_requires_for_build_sdist(config_settings: dict | None = None) -> list[str]:
    return []


def get_requires_for_build_editable(config_settings: dict | None = None) -> list[str]:
    return []


def prepare_metadata_for_build_wheel(metadata_directory: str, config_settings: dict | None = None) -> str:
    project = _project()
    name, version = _dist(project)
    info = Path(metadata_directory) / f"{name}-{version}.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(_metadata(project), encoding="utf-8")
    (info / "WHEEL").write_text(_wheel_text(), encoding="utf-8")
    return info.name


prepare_metadata_for_build_editable = prepare_metadata_for_build_wheel


def build_wheel(wheel_directory: str, config_settings: dict | None = None, metadata_directory: str | None = None) -> str:
    members = [(p.relative_to(ROOT).as_posix(), p.read_bytes()) for p in _package_files()]
    return _write_wheel(wheel_directory, members, _project())


def build_editable(wheel_directory: str, config_settings: dict | None = None, metadata_directory: str | None = None) -> str:
    """PEP 660: a wheel whose .pth file puts the source tree on sys.path (``pip install -e``)."""
    project = _project()
    name, _ = _dist(project)
    return _write_wheel(wheel_directory, [(f"__editable__.{name}.pth", f"{ROOT}\n".encode())], project)


def build_sdist(sdist_directory: str, config_settings: dict | None = None) -> str:
    project = _project()
    name, version = _dist(project)
    base = f"{name}-{version}"
    files = [ROOT / "pyproject.toml", ROOT / "README.md", Path(__file__).resolve(), *_package_files()]
    files += [ROOT / f for f in LICENSE_FILES if (ROOT / f).is_file()]
    files += [p for p in sorted((ROOT / "tests").glob("*.py"))]
    pkg_info = _metadata(project).encode()
    filename = f"{base}.tar.gz"
    with tarfile.open(os.path.join(sdist_directory, filename), "w:gz", format=tarfile.PAX_FORMAT) as tar:
        for path, data in [(f"{base}/PKG-INFO", pkg_info)] + [(f"{base}/{p.relative_to(ROOT).as_posix()}", p.read_bytes()) for p in files]:
            entry = tarfile.TarInfo(path)
            entry.size = len(data)
            entry.mode = 0o644
            tar.addfile(entry, io.BytesIO(data))
    return filename
