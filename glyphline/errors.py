"""The documented errors of the engine. Anything else escaping the public API is a bug.

Each error has a stable `kind`, the name the web worker and the JavaScript API use for it;
ERROR_KINDS lists every kind a caller of the web API can see.
"""


class GlyphlineError(Exception):
    """Base class: every error the engine raises on purpose."""

    kind = "failed"


class NotAPDF(GlyphlineError):
    """The bytes are not a PDF at all (no header, empty, another format)."""

    kind = "not-pdf"


class PasswordRequired(GlyphlineError):
    """The file is encrypted and the given password (or the empty one) does not open it."""

    kind = "password"


class DamagedPDF(GlyphlineError):
    """The file is a PDF but too broken to read; `reason` says what is wrong."""

    kind = "damaged"

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class BudgetExceeded(GlyphlineError):
    """A document-wide budget of `Limits` ran out; `limit` names it."""

    kind = "budget"

    def __init__(self, limit: str, message: str):
        super().__init__(message)
        self.limit = limit


class OcrUnavailable(GlyphlineError):
    """OCR was asked for, but the engine or one of its languages is not installed."""

    kind = "ocr-unavailable"


class Cancelled(GlyphlineError):
    """The caller's cancel signal was seen between two pages; no result is produced."""

    kind = "cancelled"


BAD_OPTIONS = "bad-options"   # a ValueError from the options: unknown mode, bad page range
UNAVAILABLE = "unavailable"   # JavaScript only: the worker could not start
ERROR_KINDS = (PasswordRequired.kind, NotAPDF.kind, DamagedPDF.kind, BudgetExceeded.kind, BAD_OPTIONS,
               GlyphlineError.kind, UNAVAILABLE)


def error_kind(error: BaseException) -> str:
    """The kind of any exception: its own for engine errors, bad-options for ValueError, else failed."""
    if isinstance(error, GlyphlineError):
        return error.kind
    return BAD_OPTIONS if isinstance(error, ValueError) else GlyphlineError.kind
