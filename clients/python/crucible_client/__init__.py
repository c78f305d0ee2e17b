"""Crucible's Python client: ``Client(base_url, api_key=...)`` or ``Client(base_url, email=...,
password=...)``, a method per operation of the API (its operationId in snake_case), the API's
schemas as dataclasses (answers) and TypedDicts (requests), and ``ProblemError`` for every
refusal. See clients/python/README.md."""

from ._models import *  # noqa: F403 - the API's schemas are the package's vocabulary
from ._models import __all__ as _models_all
from ._operations import OPERATIONS
from ._runtime import OMIT, Model, Omit, Tabular, to_dataframe
from .client import DEFAULT_BASE_URL, Client
from .errors import *  # noqa: F403 - the exceptions, errors.__all__
from .errors import __all__ as _errors_all
from .helpers import JOB_TERMINAL, RUN_TERMINAL, parse_sse

__version__ = "0.1.0"

__all__ = [
    "Client",
    "DEFAULT_BASE_URL",
    "OPERATIONS",
    "OMIT",
    "Omit",
    "Model",
    "Tabular",
    "to_dataframe",
    "parse_sse",
    "JOB_TERMINAL",
    "RUN_TERMINAL",
    *_errors_all,
    *_models_all,
]
