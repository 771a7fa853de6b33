"""Reading pypdf objects defensively: the one place indirect references are followed.

Every stage that reads the file's objects (document, content interpreter, annotations, fonts)
resolves through `resolve`, so a dangling reference, a reference loop or a null reads the same
everywhere: as a missing value.
"""
from __future__ import annotations

import math
from typing import Any

from pypdf.generic import IndirectObject, NullObject

from .errors import BudgetExceeded
from .limits import PageBudgetExceeded

MAX_REFERENCE_HOPS = 32   # a reference to a reference …: real files use one hop, a loop never ends
_BUDGET_ERRORS = (PageBudgetExceeded, BudgetExceeded)


def resolve(obj: Any) -> Any:
    """`obj` with indirect references followed (bounded); None for dangling ones and for null.
    Running out of a budget while reading propagates; any other failure reads as None."""
    try:
        for _ in range(MAX_REFERENCE_HOPS):
            if not isinstance(obj, IndirectObject):
                break
            obj = obj.get_object()
    except _BUDGET_ERRORS:
        raise
    except Exception:
        return None
    if isinstance(obj, (IndirectObject, NullObject)):
        return None
    return obj


def flag(dictionary: Any, key: str) -> bool:
    """Is the boolean entry `key` of a PDF dictionary true? Always read booleans through this:
    pypdf's BooleanObject(False) is a truthy object (the value is in .value), so
    `if d.get("/NeedAppearances")` would take false for true. Missing, null, dangling or
    non-boolean entries read as false."""
    if not hasattr(dictionary, "get"):
        return False
    try:
        value = resolve(dictionary.get(key))
    except _BUDGET_ERRORS:
        raise
    except Exception:
        return False
    return getattr(value, "value", value) is True


def rectangle(value: Any) -> tuple | None:
    """A rectangle [x0 y0 x1 y1] (/Rect, /BBox) normalised to x0 <= x1, y0 <= y1; None when it
    is not four finite numbers."""
    value = resolve(value)
    if not isinstance(value, (list, tuple)) or len(value) != 4:
        return None
    numbers = []
    for item in value:
        item = resolve(item)
        if isinstance(item, bool) or not isinstance(item, (int, float)) or not math.isfinite(item):
            return None
        numbers.append(float(item))
    x0, y0, x1, y1 = numbers
    return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))
