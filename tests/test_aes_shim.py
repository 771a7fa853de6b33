"""glyphline/_aes_shim.py: a no-op on CPython, and a pycryptodome facade pypdf accepts.

In the browser the facade's backend is aes-js (tested end to end in tests/e2e/test_states.py);
here the same facade runs over a `cryptography` backend in a subprocess where pypdf cannot see
`cryptography` itself, so pypdf has to decrypt AES-128, AES-256 and RC4 files through the shim.
"""
from __future__ import annotations

import io
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHIM = REPO / "glyphline" / "_aes_shim.py"


def load_shim():
    import importlib.util

    spec = importlib.util.spec_from_file_location("aes_shim_under_test", SHIM)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class CryptographyBackend:
    """The facade's backend protocol over `cryptography` (bound at creation, so it keeps working
    after `cryptography` is hidden from pypdf)."""

    def __init__(self):
        from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

        self.cipher, self.algorithms, self.modes = Cipher, algorithms, modes

    def ecb(self, key, data, *, encrypt):
        cipher = self.cipher(self.algorithms.AES(key), self.modes.ECB())
        op = cipher.encryptor() if encrypt else cipher.decryptor()
        return op.update(data) + op.finalize()

    def cbc(self, key, iv, data, *, encrypt):
        cipher = self.cipher(self.algorithms.AES(key), self.modes.CBC(iv))
        op = cipher.encryptor() if encrypt else cipher.decryptor()
        out = op.update(data) + op.finalize()
        return out, (out if encrypt else data)[-16:]


def test_is_a_no_op_on_cpython():
    before = {name for name in sys.modules if name == "Crypto" or name.startswith("Crypto.")}
    shim = load_shim()
    assert shim.INSTALLED is False
    after = {name for name in sys.modules if name == "Crypto" or name.startswith("Crypto.")}
    assert after == before


def test_padding_round_trip_and_errors():
    shim = load_shim()
    for size in range(0, 40):
        data = bytes(range(size))
        padded = shim.pad(data, 16)
        assert len(padded) % 16 == 0 and len(padded) > len(data)
        assert shim.unpad(padded, 16) == data
    with pytest.raises(ValueError):
        shim.unpad(b"A" * 15 + b"\x03", 16)
    with pytest.raises(ValueError):
        shim.unpad(b"A" * 15, 16)


def test_rc4_known_vector():
    shim = load_shim()
    assert shim.ARC4Cipher(b"Key").encrypt(b"Plaintext").hex().upper() == "BBF316E8D940AF0AD3"
    assert shim.ARC4Cipher(b"Key").decrypt(bytes.fromhex("BBF316E8D940AF0AD3")) == b"Plaintext"


def test_cbc_keeps_its_chain_across_calls_and_checks_lengths():
    shim = load_shim()
    saved = {name: sys.modules.get(name) for name in ("Crypto", "Crypto.Cipher", "Crypto.Cipher.AES",
                                                       "Crypto.Cipher.ARC4", "Crypto.Util", "Crypto.Util.Padding")}
    try:
        shim.install(CryptographyBackend())
        from Crypto.Cipher import AES  # the facade

        key, iv, data = bytes(range(32)), bytes(16), bytes(range(64))
        whole = AES.new(key, AES.MODE_CBC, iv).encrypt(data)
        split = AES.new(key, AES.MODE_CBC, iv)
        assert split.encrypt(data[:16]) + split.encrypt(data[16:]) == whole
        decrypting = AES.new(key, AES.MODE_CBC, iv)
        assert decrypting.decrypt(whole[:32]) + decrypting.decrypt(whole[32:]) == data
        assert AES.new(key, AES.MODE_ECB).decrypt(AES.new(key, AES.MODE_ECB).encrypt(data)) == data
        with pytest.raises(ValueError):
            AES.new(key, AES.MODE_CBC, iv).encrypt(b"short")
        with pytest.raises(ValueError):
            AES.new(b"bad key", AES.MODE_ECB)
    finally:
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module


@pytest.fixture(scope="module")
def encrypted_files(tmp_path_factory, sample_pdf):
    from pypdf import PdfReader, PdfWriter

    folder = tmp_path_factory.mktemp("encrypted")
    files = {}
    for algorithm in ("AES-128", "AES-256", "RC4-128"):
        writer = PdfWriter(clone_from=PdfReader(io.BytesIO(sample_pdf)))
        writer.encrypt(user_password="", owner_password="owner", algorithm=algorithm)
        path = folder / f"{algorithm}.pdf"
        with path.open("wb") as handle:
            writer.write(handle)
        files[algorithm] = path
    return files


def test_pypdf_decrypts_through_the_facade_without_cryptography(encrypted_files, sample_pdf, tmp_path):
    from pypdf import PdfReader

    expected = [page.extract_text() for page in PdfReader(io.BytesIO(sample_pdf)).pages]
    script = textwrap.dedent(f"""
        import importlib.util, json, sys
        sys.path.insert(0, {str(Path(__file__).parent)!r})
        from test_aes_shim import CryptographyBackend, load_shim
        backend = CryptographyBackend()
        backend.ecb(bytes(16), bytes(16), encrypt=True)  # loads the backend before it is hidden
        for name in [n for n in sys.modules if n == "cryptography" or n.startswith("cryptography.")]:
            sys.modules[name] = None  # pypdf must not find it
        shim = load_shim()
        shim.install(backend)
        import pypdf
        from pypdf._crypt_providers import crypt_provider
        out = {{"provider": list(crypt_provider)}}
        for path in {[str(p) for p in encrypted_files.values()]!r}:
            reader = pypdf.PdfReader(path)
            out[path] = [page.extract_text() for page in reader.pages]
        print(json.dumps(out))
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=REPO)
    assert done.returncode == 0, done.stderr
    import json

    out = json.loads(done.stdout)
    assert out.pop("provider") == ["pycryptodome", "0+aes-js-shim"]
    for path in encrypted_files.values():
        assert out[str(path)] == expected, path.name
