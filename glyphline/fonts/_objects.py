"""Defensive access to pypdf objects: a dangling reference or a wrong type reads as missing."""
from __future__ import annotations

import math
from typing import Any, Callable

from pypdf.generic import NameObject

from ..errors import BudgetExceeded
from ..pdfobjects import resolve

# numbers beyond this are garbage in any font dictionary (widths, metrics, codes)
MAX_MAGNITUDE = 1e7


def get(container: Any, key: str) -> Any:
    if container is None or not hasattr(container, "get"):
        return None
    try:
        return resolve(container.get(key))
    except Exception:
        return None


def is_dict(obj: Any) -> bool:
    return isinstance(obj, dict)


def number(obj: Any) -> float | None:
    obj = resolve(obj)
    if isinstance(obj, bool) or not isinstance(obj, (int, float)):
        return None
    value = float(obj)
    if math.isnan(value) or abs(value) > MAX_MAGNITUDE:
        return None
    return value


def name(obj: Any) -> str | None:
    obj = resolve(obj)
    if isinstance(obj, NameObject):
        return str(obj)[1:] if str(obj).startswith("/") else str(obj)
    return None


def array(obj: Any) -> list | None:
    obj = resolve(obj)
    if isinstance(obj, list):
        return obj
    return None


def numbers(obj: Any, count: int) -> list[float] | None:
    """An array of exactly `count` numbers (e.g. a bbox or a matrix), else None."""
    items = array(obj)
    if items is None or len(items) != count:
        return None
    values = [number(v) for v in items]
    if any(v is None for v in values):
        return None
    return values  # type: ignore[return-value]


def read(stream: Any, read_stream: Callable[[Any], bytes], warnings: list[str], what: str) -> bytes | None:
    """Bytes of a stream through the budgeted reader; any failure but the document budget → None."""
    stream = resolve(stream)
    if stream is None or not hasattr(stream, "get_data"):
        if stream is not None:
            warnings.append(f"{what} is not a stream")
        return None
    try:
        return read_stream(stream)
    except BudgetExceeded:
        raise
    except Exception as exc:
        warnings.append(f"{what} unreadable ({type(exc).__name__})")
        return None
