"""Decoding JSON into the generated dataclasses and back (docs/api-decisions.md, "Python SDK
compatibility").

The rules follow the API's versioning: within v1 the server may add fields and enum values.
So a model keeps the fields it does not know in ``additional_properties``, a value of an enum it
does not know stays the plain string, and an object of a union that matches none of the known
variants (a new job type's result, say) stays a plain ``dict``.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import sys
import types
import typing
from typing import IO, Any, Callable, ClassVar, TypeVar, Union

__all__ = ["Model", "Tabular", "OMIT", "Omit", "FileContent", "decode", "encode"]

#: ``a | b`` at run time (3.10+), or typing.Union alone (3.9).
_UNION_TYPES: tuple[Any, ...] = (Union, getattr(types, "UnionType", Union))

if sys.version_info >= (3, 10):
    from dataclasses import dataclass as dataclass
else:

    def dataclass(cls: Any = None, *, kw_only: bool = False, **options: Any) -> Any:
        """``dataclasses.dataclass`` with ``kw_only`` on Python 3.9, which lacks it: the class gets
        a keyword-only ``__init__`` built from its fields (inherited ones included), so the models
        are made the same way on every version (required fields may follow optional ones)."""

        make: Any = dataclasses.dataclass

        def wrap(c: Any) -> Any:
            if not kw_only:
                return make(c, **options)
            c = make(c, init=False, **options)
            c.__init__ = _keyword_init(c)
            return c

        return wrap if cls is None else wrap(cls)


class _Factory:
    def __repr__(self) -> str:
        return "<factory>"


def _keyword_init(cls: Any) -> Callable[..., None]:
    """A keyword-only ``__init__`` of a dataclass's fields (Python 3.9's ``dataclass(kw_only=True)``)."""
    params = [f for f in dataclasses.fields(cls) if f.init]
    names = {f.name for f in params}

    def __init__(self: Any, **kwargs: Any) -> None:
        for k in kwargs:
            if k not in names:
                raise TypeError(f"{cls.__name__}.__init__() got an unexpected keyword argument '{k}'")
        for f in params:
            if f.name in kwargs:
                value = kwargs[f.name]
            elif f.default is not dataclasses.MISSING:
                value = f.default
            elif f.default_factory is not dataclasses.MISSING:
                value = f.default_factory()
            else:
                raise TypeError(f"{cls.__name__}.__init__() missing 1 required keyword-only argument: '{f.name}'")
            object.__setattr__(self, f.name, value)
        post = getattr(self, "__post_init__", None)
        if post is not None:
            post()

    def default(f: dataclasses.Field[Any]) -> Any:
        if f.default is not dataclasses.MISSING:
            return f.default
        return _Factory() if f.default_factory is not dataclasses.MISSING else inspect.Parameter.empty

    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    __init__.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
        + [inspect.Parameter(f.name, inspect.Parameter.KEYWORD_ONLY, default=default(f)) for f in params]
    )
    return __init__


class Omit:
    """The default of an optional request field: the field is not sent (the server's default applies)."""

    _instance: ClassVar[Omit | None] = None

    def __new__(cls) -> Omit:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "OMIT"

    def __bool__(self) -> bool:
        return False


OMIT = Omit()

#: A file to upload: its bytes, an open binary file, or (filename, bytes or file[, content type]).
FileContent = Union[bytes, IO[bytes], "tuple[str, bytes | IO[bytes]]", "tuple[str, bytes | IO[bytes], str]"]


_M = TypeVar("_M", bound="Model")


@dataclass(kw_only=True)
class Model:
    """Base of the response dataclasses. Fields the server sent that this client does not know are
    in ``additional_properties``; ``to_dict()`` gives the JSON form back, those fields included."""

    additional_properties: dict[str, Any] = dataclasses.field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_dict(cls: type[_M], data: dict[str, Any]) -> _M:
        """The model of a JSON object (what the server answers)."""
        return _decode_model(cls, data)

    def to_dict(self) -> dict[str, Any]:
        """The JSON object: known fields by their JSON names (optional ones only when the server sent
        them or they were set), then the unknown ones."""
        out: dict[str, Any] = {}
        sent = getattr(self, "_sent", None)
        for f in _fields(type(self)):
            value = getattr(self, f.name)
            name = f.metadata.get("json", f.name)
            if value is None and sent is not None and name not in sent:
                continue
            out[name] = encode(value)
        out.update(self.additional_properties)
        return out


class Tabular(Model):
    """A result with a list of records; ``to_dataframe()`` makes it a pandas DataFrame."""

    _table: ClassVar[str] = "items"

    def to_dataframe(self, *, explode: bool | str = True) -> Any:
        """The records as a pandas DataFrame, nested fields flattened into dotted columns
        (``properties.mw``), and a record's list of records (a scan's ``points``, a conformer
        search's ``conformers``, docking's ``poses``) one row per element, its fields as
        ``points.angle_deg`` columns beside the record's own, repeated (see ``to_dataframe``).
        Needs pandas (Debian: python3-pandas)."""
        return to_dataframe(getattr(self, self._table) or [], explode=explode)


def to_dataframe(records: typing.Iterable[Any], *, explode: bool | str = True) -> Any:
    """A pandas DataFrame of models or dicts (e.g. what a pagination iterator yields).

    Nested objects become dotted columns. A field of a record that holds a list of objects is
    ``exploded``: one row per element, the element's fields as ``<field>.<name>`` columns and
    the record's other fields repeated on each row (a record whose list is empty keeps one row).
    ``explode=True`` explodes such a field when a record has exactly one (a record with several
    keeps them as cells); ``explode="points"`` names the field; ``explode=False`` keeps every
    list as a cell. Lists of plain values (``frequencies_cm1``) always stay cells."""
    try:
        import pandas
    except ImportError as err:  # pragma: no cover - depends on the environment
        raise ImportError(
            "to_dataframe() needs pandas, which is not installed: install it with "
            "`apt install python3-pandas` (Debian, Ubuntu) or `pip install pandas`"
        ) from err
    rows: list[dict[str, Any]] = []
    exploded: set[str] = set()
    for r in records:
        rows.extend(_flat_rows(r.to_dict() if isinstance(r, Model) else r, explode, exploded))
    # A record whose list was empty: no cell of that list beside the exploded columns.
    rows = [{k: v for k, v in row.items() if not (k in exploded and v == [])} for row in rows]
    return pandas.DataFrame(rows)


def _flat_rows(record: Any, explode: bool | str, exploded: set[str]) -> list[dict[str, Any]]:
    """One record's rows: its nested objects flattened to dotted keys, its list of records exploded."""
    if not isinstance(record, dict):
        return [{"value": record}]
    flat: dict[str, Any] = {}
    lists: dict[str, list[Any]] = {}

    def walk(obj: dict[str, Any], prefix: str, top: bool) -> None:
        for key, value in obj.items():
            name = f"{prefix}{key}"
            if isinstance(value, dict) and value:
                walk(value, f"{name}.", False)
            elif top and isinstance(value, list) and any(isinstance(e, (dict, Model)) for e in value):
                lists[name] = value
                flat[name] = value
            else:
                flat[name] = value

    walk(record, "", True)
    if explode is False:
        return [flat]
    target = explode if isinstance(explode, str) else (next(iter(lists)) if len(lists) == 1 else None)
    if target is None or target not in lists:
        return [flat]
    exploded.add(target)
    parent = {k: v for k, v in flat.items() if k != target}
    out: list[dict[str, Any]] = []
    for element in lists[target]:
        inner = element.to_dict() if isinstance(element, Model) else element
        for sub in _flat_rows(inner, explode if explode is True else False, set()):
            out.append({**parent, **{f"{target}.{k}": v for k, v in sub.items()}})
    return out or [parent]


_HINTS: dict[type, dict[str, Any]] = {}


def _fields(cls: type) -> tuple[dataclasses.Field[Any], ...]:
    return tuple(f for f in dataclasses.fields(cls) if f.name != "additional_properties")


def _hints(cls: type) -> dict[str, Any]:
    """The fields' types, evaluated in the class's module (not typing.get_type_hints: on Python 3.9
    it cannot evaluate the annotations' ``a | b``)."""
    hints = _HINTS.get(cls)
    if hints is None:
        namespace = vars(sys.modules[cls.__module__])
        hints = {f.name: _resolve(f.type, namespace) for f in _fields(cls)}
        _HINTS[cls] = hints
    return hints


_RESOLVED: dict[tuple[str, str], Any] = {}


class _Unions(ast.NodeTransformer):
    """``a | b`` as ``Union[a, b]``, for Python 3.9."""

    def visit_BinOp(self, node: ast.BinOp) -> Any:
        self.generic_visit(node)
        if not isinstance(node.op, ast.BitOr):
            return node
        return ast.Subscript(value=ast.Name("_Union", ast.Load()), slice=ast.Tuple([node.left, node.right], ast.Load()), ctx=ast.Load())


def _evaluate(expr: str, namespace: dict[str, Any]) -> Any:
    """A type expression of the generated code (never input) as the object it names."""
    if sys.version_info >= (3, 10):
        return eval(expr, namespace)  # noqa: S307 - the generated type expressions, never input
    tree = ast.fix_missing_locations(_Unions().visit(ast.parse(expr, mode="eval")))
    return eval(compile(tree, "<annotation>", "eval"), namespace, {"_Union": Union})  # noqa: S307


def _resolve(tp: Any, namespace: dict[str, Any] | None = None) -> Any:
    """A type given as a string (a forward reference) as the object it names in the models module."""
    if isinstance(tp, typing.ForwardRef):
        tp = tp.__forward_arg__
    if isinstance(tp, str):
        if namespace is None:
            from . import _models

            namespace = vars(_models)
        key = (namespace.get("__name__", ""), tp)
        if key not in _RESOLVED:
            _RESOLVED[key] = _evaluate(tp, namespace)
        tp = _RESOLVED[key]
    return tp


def _decode_model(cls: type[Any], data: dict[str, Any]) -> Any:
    hints = _hints(cls)
    known: dict[str, Any] = {}
    names = set()
    for f in _fields(cls):
        name = f.metadata.get("json", f.name)
        names.add(name)
        if name in data:
            known[f.name] = decode(hints[f.name], data[name])
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            known[f.name] = None  # a field an older server does not send: None rather than a failure
    obj = cls(**known, additional_properties={k: v for k, v in data.items() if k not in names})
    object.__setattr__(obj, "_sent", frozenset(data))
    return obj


def decode(tp: Any, value: Any) -> Any:
    """``value`` (parsed JSON) as type ``tp``: dataclasses for objects, lists and dicts of them."""
    tp = _resolve(tp)
    if value is None or tp is Any:
        return value
    origin = typing.get_origin(tp)
    if origin is None and isinstance(tp, type):  # (on 3.9 and 3.10 list[X] passes for a type too)
        if issubclass(tp, Model):
            return _decode_model(tp, value) if isinstance(value, dict) else value
        return value
    args = typing.get_args(tp)
    if origin is list:
        return [decode(args[0], v) for v in value] if isinstance(value, list) and args else value
    if origin is dict:
        return {k: decode(args[1], v) for k, v in value.items()} if isinstance(value, dict) and len(args) == 2 else value
    if origin in _UNION_TYPES:
        return _decode_union([_resolve(a) for a in args], value)
    return value  # Literal, primitives: as sent (an unknown enum value stays a string)


def _decode_union(args: list[Any], value: Any) -> Any:
    if isinstance(value, dict):
        models = [a for a in args if typing.get_origin(a) is None and isinstance(a, type) and issubclass(a, Model)]
        best: tuple[int, int] | None = None
        chosen: Any = None
        for m in models:
            score = _match(m, value)
            if score is not None and (best is None or score > best):
                best, chosen = score, m
        if chosen is not None:
            return _decode_model(chosen, value)
        for a in args:  # a map, or a union alias nested in this one
            if typing.get_origin(a) is dict or typing.get_origin(a) in _UNION_TYPES:
                return decode(a, value)
        return value
    if isinstance(value, list):
        for a in args:
            if typing.get_origin(a) is list:
                return decode(a, value)
    return value


def _match(cls: type, data: dict[str, Any]) -> tuple[int, int] | None:
    """How well an object fits a variant: None when a tag (a one-value Literal) differs or a
    required field is missing; else (tags matched, -unknown fields)."""
    hints = _hints(cls)
    tags = 0
    names = set()
    for f in _fields(cls):
        name = f.metadata.get("json", f.name)
        names.add(name)
        tp = hints[f.name]
        if typing.get_origin(tp) is typing.Literal:
            if name in data:
                if data[name] not in typing.get_args(tp):
                    return None
                tags += 1
        if name not in data and f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            return None
    return tags, -sum(1 for k in data if k not in names)


def encode(value: Any) -> Any:
    """A request value as JSON: models by their JSON names, OMIT fields left out."""
    if isinstance(value, Model):
        return value.to_dict()
    if isinstance(value, dict):
        return {k: encode(v) for k, v in value.items() if v is not OMIT}
    if isinstance(value, (list, tuple)):
        return [encode(v) for v in value]
    return value
