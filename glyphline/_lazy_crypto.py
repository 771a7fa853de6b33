"""pypdf's `cryptography` crypt provider, with `cryptography` imported on the first encrypted file.

pypdf picks its crypt provider when it is first imported, and its `cryptography` provider
imports cryptography's Rust bindings (~45 ms, a fifth of a small file's process) although
only an encrypted file needs them. Installed before pypdf's first import, this module puts a
stand-in for `pypdf._crypt_providers._cryptography` in `sys.modules`: the same names, each a
callable that loads pypdf's real provider module (and so `cryptography`) on its first call and
forwards to it, so an encrypted file decrypts exactly as before. It installs only where
`cryptography` is installed and pypdf has not chosen yet; otherwise pypdf chooses as always
(in the browser, glyphline/_aes_shim.py's pycryptodome facade).
"""
from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import types
from importlib.machinery import PathFinder
from typing import Any, Callable

PROVIDER = "pypdf._crypt_providers._cryptography"
PROVIDERS_PACKAGE = "pypdf._crypt_providers"
# what pypdf._crypt_providers imports from its provider, besides `crypt_provider`
FORWARDED_NAMES = ("CryptAES", "CryptRC4", "aes_cbc_decrypt", "aes_cbc_encrypt", "aes_ecb_decrypt",
                   "aes_ecb_encrypt", "rc4_decrypt", "rc4_encrypt")
# pypdf's own order when `cryptography` fails to import: the one it would have fallen back to
FALLBACK_PROVIDERS = ("pypdf._crypt_providers._pycryptodome", "pypdf._crypt_providers._fallback")
UNKNOWN_VERSION = "unknown"

_loaded: types.ModuleType | None = None


def _load_module(name: str, search_path: list[str]) -> types.ModuleType:
    """Runs the module file `name` even though the stand-in holds its sys.modules entry."""
    spec = PathFinder.find_spec(name, search_path)
    if spec is None or spec.loader is None:
        raise ImportError(f"no module named {name!r}", name=name)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def real_provider() -> types.ModuleType:
    """pypdf's `cryptography` provider module, loaded on the first call (later calls return it)."""
    global _loaded
    if _loaded is None:
        search_path = list(importlib.import_module(PROVIDERS_PACKAGE).__path__)
        try:
            _loaded = _load_module(PROVIDER, search_path)
        except ImportError:  # a broken `cryptography`: fall back as pypdf's import would have
            _loaded = None
            for name in FALLBACK_PROVIDERS:
                try:
                    _loaded = importlib.import_module(name)
                    break
                except ImportError:
                    continue
            if _loaded is None:
                raise
        else:
            sys.modules[PROVIDER] = _loaded  # from now on an import finds the real module
    return _loaded


def _forwarder(name: str) -> Callable[..., Any]:
    def forward(*args: Any, **kwargs: Any) -> Any:
        return getattr(real_provider(), name)(*args, **kwargs)

    forward.__name__ = forward.__qualname__ = name
    return forward


def _other_name(name: str) -> Any:
    """Any name the stand-in does not list (one a later pypdf imports) comes from the real
    module, so pypdf's import never fails over to its AES-less fallback provider."""
    if name.startswith("__"):  # the import system's probes (__path__, ...): a plain module has none
        raise AttributeError(name)
    return getattr(real_provider(), name)


def _cryptography_version(package_init: str) -> str:
    """The installed version from its dist-info folder name, without importing the package
    (importlib.metadata costs ~100 ms of scanning here)."""
    site = os.path.dirname(os.path.dirname(package_init))
    prefix = "cryptography-"
    try:
        names = os.listdir(site)
    except OSError:
        return UNKNOWN_VERSION
    for entry in names:
        if entry.startswith(prefix) and entry.endswith(".dist-info"):
            return entry[len(prefix):-len(".dist-info")]
    return UNKNOWN_VERSION


def install() -> bool:
    """Puts the stand-in provider in place; False when pypdf already chose or `cryptography` is absent."""
    if PROVIDERS_PACKAGE in sys.modules or PROVIDER in sys.modules:
        return False
    if "cryptography" in sys.modules and sys.modules["cryptography"] is None:
        return False  # hidden on purpose (`sys.modules[name] = None`): pypdf must not use it
    spec = PathFinder.find_spec("cryptography")
    if spec is None or not spec.origin:
        return False
    stand_in = types.ModuleType(PROVIDER, __doc__)
    for name in FORWARDED_NAMES:
        setattr(stand_in, name, _forwarder(name))
    stand_in.crypt_provider = ("cryptography", _cryptography_version(spec.origin))
    stand_in.__getattr__ = _other_name
    sys.modules[PROVIDER] = stand_in
    return True
