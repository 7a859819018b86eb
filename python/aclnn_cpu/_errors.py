"""The exceptions of the package."""

from __future__ import annotations


class AclnnError(ValueError):
    """A call the library (CANN's API) refused or failed.

    ``status`` is the CANN status code (161001, 161002, 561103, 207001, ...), ``api`` the C function that
    returned it, and the message (``str(error)``, ``.message``) is ``aclGetRecentErrMsg()``'s text.
    """

    def __init__(self, status: int, api: str, message: str) -> None:
        self.status = status
        self.api = api
        self.message = message
        super().__init__(message or f"{api} returned {status} (no message)")


class LibraryNotFoundError(OSError):
    """None of the places searched holds the CANN libraries; the message lists every place tried."""


class ExtensionUnavailableError(RuntimeError):
    """The loaded library lacks an ``aclnnCpu*`` extension of ``aclnn_cpu/ext.h`` (e.g. a real CANN toolkit)."""
