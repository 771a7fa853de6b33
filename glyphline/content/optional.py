"""Optional content (ISO 32000-1 §8.11): which layers a viewer shows when it opens the document.

The catalog's /OCProperties lists the optional content groups (OCGs) and a default viewing
configuration /D: /BaseState (ON unless /OFF or /Unchanged) and the /ON and /OFF arrays that
override it. Content is marked optional by `/OC /name BDC … EMC` (the name in the resources'
/Properties), or by an /OC entry on a Form or Image XObject or an annotation. It refers to an
OCG (shown when the group is on) or to an optional content membership dictionary (OCMD): a
visibility expression /VE ([/And …], [/Or …], [/Not x] over groups) when present, else its
/OCGs under the policy /P (AnyOn by default, AllOn, AnyOff, AllOff).

Glyphline reads what a viewer shows at opening: pdf.js and Acrobat do not paint a hidden layer,
and pdftotext and MuPDF leave its text out (wild corpus: issue269_2, issue11144_reduced). Only the /D configuration is read; the /AS usage
application rules (print or zoom dependent states) and /Intent are left out, as those viewers
do for text. A malformed reference shows its content (the spec: an unknown OCG is on).
"""
from __future__ import annotations

from typing import Any

from pypdf.generic import IndirectObject

from .interpreter import _resolve

MAX_EXPRESSION_DEPTH = 32     # nesting of a /VE expression; real ones nest two or three levels
MAX_GROUPS_READ = 4096        # entries read from one /ON, /OFF or /OCGs array
# terms evaluated for one marked section: a hostile /VE that repeats a reference to itself
# would otherwise branch exponentially within the depth limit; past it the content shows
MAX_EXPRESSION_TERMS = 10_000


class OptionalContent:
    """The default configuration's hidden groups; `hidden(obj)` for an OCG or an OCMD."""

    def __init__(self, properties: Any):
        self.off: set = set()            # keys of the groups that are off
        self._terms = 0                  # terms evaluated by the current hidden() call
        self._known: dict = {}           # OCG or OCMD key → hidden: each is evaluated once
        properties = _resolve(properties)
        if not hasattr(properties, "get"):
            return
        config = _resolve(properties.get("/D"))
        if not hasattr(config, "get"):
            return
        if _resolve(config.get("/BaseState")) == "/OFF":
            on = {_key(g) for g in _items(config.get("/ON"))}
            self.off = {_key(g) for g in _items(properties.get("/OCGs")) if _key(g) not in on}
        else:
            self.off = {_key(g) for g in _items(config.get("/OFF"))}
        self.off.discard(None)

    def hidden(self, obj: Any) -> bool:
        """Is content marked with this OCG or OCMD hidden in the default configuration?"""
        if not self.off:
            return False
        key = _key(obj)
        known = self._known.get(key)
        if known is None:
            self._terms = 0
            known = not self._visible(obj, 0)
            if isinstance(key, tuple) and len(self._known) < MAX_GROUPS_READ:
                self._known[key] = known   # only objects with a number: an id() may be reused
        return known

    def _visible(self, obj: Any, depth: int) -> bool:
        self._terms += 1
        if self._terms > MAX_EXPRESSION_TERMS:
            return True
        key = _key(obj)
        obj = _resolve(obj)
        if not hasattr(obj, "get"):
            return True
        kind = _resolve(obj.get("/Type"))
        if kind == "/OCMD":
            expression = _resolve(obj.get("/VE"))
            if isinstance(expression, list) and expression:
                return self._expression(expression, depth)
            groups = [_key(g) for g in _items(obj.get("/OCGs"))]
            groups = [g for g in groups if g is not None]
            if not groups:
                return True
            on = [g not in self.off for g in groups]
            policy = _resolve(obj.get("/P"))
            if policy == "/AllOn":
                return all(on)
            if policy == "/AnyOff":
                return not all(on)
            if policy == "/AllOff":
                return not any(on)
            return any(on)                   # /AnyOn, the default
        return key not in self.off          # an OCG (or anything else: shown)

    def _expression(self, expression: list, depth: int) -> bool:
        self._terms += 1
        if depth >= MAX_EXPRESSION_DEPTH or self._terms > MAX_EXPRESSION_TERMS:
            return True
        operator = _resolve(expression[0])
        operands = [_resolve(item) for item in expression[1:MAX_GROUPS_READ + 1]]
        values = [self._expression(item, depth + 1) if isinstance(item, list) else self._visible(item, depth + 1)
                  for item in operands]
        if operator == "/Not":
            return not values[0] if values else True
        if operator == "/And":
            return all(values)
        if operator == "/Or":
            return any(values)
        return True                          # an unknown operator: shown


def _items(value: Any) -> list:
    value = _resolve(value)
    if isinstance(value, list):
        return list(value[:MAX_GROUPS_READ])
    return [value] if value is not None else []


def _key(obj: Any):
    """An OCG's identity: its object number, else the dictionary itself."""
    if isinstance(obj, IndirectObject):
        return (obj.idnum, obj.generation)
    reference = getattr(obj, "indirect_reference", None)
    if isinstance(reference, IndirectObject):
        return (reference.idnum, reference.generation)
    return id(obj) if hasattr(obj, "get") else None
