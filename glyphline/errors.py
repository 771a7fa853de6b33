"""The documented errors of the engine. Anything else escaping the public API is a bug."""


class GlyphlineError(Exception):
    """Base class: every error the engine raises on purpose."""


class NotAPDF(GlyphlineError):
    """The bytes are not a PDF at all (no header, empty, another format)."""


class PasswordRequired(GlyphlineError):
    """The file is encrypted and the given password (or the empty one) does not open it."""


class DamagedPDF(GlyphlineError):
    """The file is a PDF but too broken to read; `reason` says what is wrong."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class BudgetExceeded(GlyphlineError):
    """A document-wide budget of `Limits` ran out; `limit` names it."""

    def __init__(self, limit: str, message: str):
        super().__init__(message)
        self.limit = limit


class Cancelled(GlyphlineError):
    """The caller's cancel signal was seen between two pages; no result is produced."""
