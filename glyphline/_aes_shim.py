"""A pycryptodome-shaped AES/RC4 facade for pypdf where no crypto package exists (Pyodide).

PyPI ships no WebAssembly build of `cryptography` or `pycryptodome`, so pypdf in the browser
cannot decrypt AES. This module registers just enough of pycryptodome's API in `sys.modules`
(`Crypto`, `Crypto.Cipher.AES`, `Crypto.Cipher.ARC4`, `Crypto.Util.Padding`) for pypdf's
`_pycryptodome` provider, backed by the synchronous npm `aes-js` reached through the Pyodide
FFI as `js.aesjs`. It must run before pypdf is first imported, because pypdf picks its crypto
provider at import time. On CPython (or whenever a real package imports) it does nothing.
"""
from __future__ import annotations

import sys
import types
from typing import Protocol

SHIM_VERSION = "0+aes-js-shim"  # shows up as pypdf's crypt_provider version, to tell the shim apart
AES_BLOCK_SIZE = 16
MODE_ECB = 1  # pycryptodome's constants, so code comparing them keeps working
MODE_CBC = 2


class AesBackend(Protocol):
    """Raw AES over whole blocks: no padding, the caller checks lengths."""

    def ecb(self, key: bytes, data: bytes, *, encrypt: bool) -> bytes: ...

    def cbc(self, key: bytes, iv: bytes, data: bytes, *, encrypt: bool) -> tuple[bytes, bytes]:
        """Returns (output, next IV) so a cipher object can be fed in several calls."""
        ...


class AesJsBackend:
    """aes-js (`self.aesjs` in the worker), called synchronously through the Pyodide FFI."""

    def __init__(self, aesjs: object):
        from pyodide.ffi import to_js  # only reachable inside Pyodide

        self._aesjs = aesjs
        self._to_js = to_js

    def ecb(self, key: bytes, data: bytes, *, encrypt: bool) -> bytes:
        cipher = self._aesjs.ModeOfOperation.ecb.new(self._to_js(key))
        run = cipher.encrypt if encrypt else cipher.decrypt
        return bytes(run(self._to_js(data)).to_bytes())

    def cbc(self, key: bytes, iv: bytes, data: bytes, *, encrypt: bool) -> tuple[bytes, bytes]:
        cipher = self._aesjs.ModeOfOperation.cbc.new(self._to_js(key), self._to_js(iv))
        run = cipher.encrypt if encrypt else cipher.decrypt
        out = bytes(run(self._to_js(data)).to_bytes())
        # CBC chains on the last ciphertext block: ours when encrypting, the input's when decrypting
        chain = out if encrypt else data
        return out, chain[-AES_BLOCK_SIZE:] if chain else iv


class _AesCipher:
    """What `Crypto.Cipher.AES.new` returns: encrypt/decrypt of whole blocks, CBC state kept."""

    def __init__(self, backend: AesBackend, key: bytes, mode: int, iv: bytes | None):
        if len(key) not in (16, 24, 32):
            raise ValueError(f"Incorrect AES key length ({len(key)} bytes)")
        if mode == MODE_CBC:
            if iv is None or len(iv) != AES_BLOCK_SIZE:
                raise ValueError("Incorrect IV length (it must be 16 bytes long)")
        elif mode != MODE_ECB:
            raise ValueError(f"unsupported AES mode {mode!r}")
        self._backend = backend
        self._key = bytes(key)
        self._mode = mode
        self._iv = bytes(iv) if iv is not None else b""
        self.block_size = AES_BLOCK_SIZE

    def _run(self, data: bytes, *, encrypt: bool) -> bytes:
        data = bytes(data)
        if len(data) % AES_BLOCK_SIZE:
            raise ValueError("Data must be aligned to block boundary in this mode")
        if not data:
            return b""
        if self._mode == MODE_ECB:
            return self._backend.ecb(self._key, data, encrypt=encrypt)
        out, self._iv = self._backend.cbc(self._key, self._iv, data, encrypt=encrypt)
        return out

    def encrypt(self, data: bytes) -> bytes:
        return self._run(data, encrypt=True)

    def decrypt(self, data: bytes) -> bytes:
        return self._run(data, encrypt=False)


class ARC4Cipher:
    """RC4 in pure Python (what pypdf's own fallback does): RC4 files are small and rare."""

    def __init__(self, key: bytes):
        state = list(range(256))
        j = 0
        for i in range(256):
            j = (j + state[i] + key[i % len(key)]) % 256
            state[i], state[j] = state[j], state[i]
        self._state = state
        self._i = 0
        self._j = 0

    def encrypt(self, data: bytes) -> bytes:
        state, i, j = self._state, self._i, self._j
        out = bytearray(len(data))
        for n, byte in enumerate(data):
            i = (i + 1) % 256
            j = (j + state[i]) % 256
            state[i], state[j] = state[j], state[i]
            out[n] = byte ^ state[(state[i] + state[j]) % 256]
        self._i, self._j = i, j
        return bytes(out)

    decrypt = encrypt


def pad(data: bytes, block_size: int, style: str = "pkcs7") -> bytes:
    if style != "pkcs7":
        raise ValueError(f"unsupported padding style {style!r}")
    count = block_size - len(data) % block_size
    return bytes(data) + bytes([count]) * count


def unpad(data: bytes, block_size: int, style: str = "pkcs7") -> bytes:
    if style != "pkcs7":
        raise ValueError(f"unsupported padding style {style!r}")
    if not data or len(data) % block_size:
        raise ValueError("Input data is not padded")
    count = data[-1]
    if not 1 <= count <= block_size or data[-count:] != bytes([count]) * count:
        raise ValueError("Padding is incorrect.")
    return bytes(data[:-count])


def install(backend: AesBackend) -> None:
    """Registers the facade modules in sys.modules, answering AES through `backend`."""

    def new(key: bytes, mode: int, iv: bytes | None = None, **_ignored: object) -> _AesCipher:
        return _AesCipher(backend, key, mode, iv)

    package = types.ModuleType("Crypto")
    package.__version__ = SHIM_VERSION
    package.__path__ = []  # a package, so `from Crypto.Cipher import AES` resolves submodules
    cipher = types.ModuleType("Crypto.Cipher")
    cipher.__path__ = []
    aes = types.ModuleType("Crypto.Cipher.AES")
    aes.new, aes.MODE_ECB, aes.MODE_CBC, aes.block_size = new, MODE_ECB, MODE_CBC, AES_BLOCK_SIZE
    arc4 = types.ModuleType("Crypto.Cipher.ARC4")
    arc4.ARC4Cipher = ARC4Cipher
    arc4.new = ARC4Cipher
    util = types.ModuleType("Crypto.Util")
    util.__path__ = []
    padding = types.ModuleType("Crypto.Util.Padding")
    padding.pad, padding.unpad = pad, unpad
    package.Cipher, package.Util = cipher, util
    cipher.AES, cipher.ARC4 = aes, arc4
    util.Padding = padding
    for module in (package, cipher, aes, arc4, util, padding):
        sys.modules[module.__name__] = module


def _crypto_package_available() -> bool:
    for name in ("cryptography", "Crypto"):
        try:
            __import__(name)
        except ImportError:
            continue
        return True
    return False


def install_if_needed() -> bool:
    """Installs the aes-js facade only when no real crypto package imports and aes-js is there."""
    if _crypto_package_available():
        return False
    try:
        import js  # type: ignore[import-not-found]  # Pyodide's bridge to the worker's globals

        aesjs = js.aesjs
    except (ImportError, AttributeError):
        return False
    install(AesJsBackend(aesjs))
    return True


INSTALLED = install_if_needed()
