"""glyphline/_lazy_crypto.py: `cryptography` loads with the first encrypted file, not with pypdf.

Each case runs in a fresh interpreter, because pypdf picks its crypt provider once, on its first
import, and the test process has long imported it. (The encryption tests of test_document.py run
through the same stand-in whenever glyphline is imported before pypdf, as it is there.)
"""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from pdfbuilder import ENCRYPTIONS, encrypt, simple_page_pdf

REPO = Path(__file__).resolve().parents[1]
PASSWORD = "pw"


def run_python(script: str, *, extra_path: Path | None = None) -> dict:
    paths = [str(REPO)] + ([str(extra_path)] if extra_path else [])
    code = f"import sys\nsys.path[:0] = {paths!r}\n" + textwrap.dedent(script)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=REPO)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def encrypted_files(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("lazy-crypto")
    files = {}
    for algorithm in ENCRYPTIONS:
        path = folder / f"{algorithm}.pdf"
        path.write_bytes(encrypt(simple_page_pdf(algorithm.encode()), algorithm, user_password=PASSWORD))
        files[algorithm] = path
    (folder / "plain.pdf").write_bytes(simple_page_pdf(b"plain"))
    return files


def test_an_unencrypted_file_never_loads_cryptography_and_an_encrypted_one_decrypts(encrypted_files):
    pytest.importorskip("cryptography")
    plain = encrypted_files["AES-128"].parent / "plain.pdf"
    out = run_python(f"""
        import json, pathlib
        import glyphline
        plain = glyphline.extract_text(pathlib.Path({str(plain)!r}).read_bytes()).text
        import pypdf._crypt_providers as providers
        out = {{"plain": plain, "loaded_after_plain": "cryptography" in sys.modules,
                "stand_in": providers.CryptAES.__module__, "provider": list(providers.crypt_provider)}}
        for algorithm, path in {({a: str(p) for a, p in encrypted_files.items()})!r}.items():
            out[algorithm] = glyphline.extract_text(pathlib.Path(path).read_bytes(), password={PASSWORD!r}).text
        out["loaded_after_encrypted"] = "cryptography" in sys.modules
        print(json.dumps(out))
    """)
    import cryptography

    assert out["plain"].strip() == "plain"
    assert out["loaded_after_plain"] is False
    assert out["stand_in"] == "glyphline._lazy_crypto"
    assert out["provider"] == ["cryptography", cryptography.__version__]
    for algorithm in ENCRYPTIONS:
        assert out[algorithm].strip() == algorithm
    assert out["loaded_after_encrypted"] is True


def test_a_broken_cryptography_falls_back_as_pypdf_would(encrypted_files, tmp_path):
    """A `cryptography` that is found but fails to import: pypdf's own import falls back to its
    pure-Python provider (RC4 yes, AES no); through the stand-in every file ends the same way."""
    broken = tmp_path / "cryptography"
    broken.mkdir()
    (broken / "__init__.py").write_text("raise ImportError('broken build')\n")
    script = f"""
        import json, pathlib
        FIRST_IMPORT
        import glyphline
        from glyphline.errors import GlyphlineError
        out = {{}}
        for algorithm, path in {({a: str(p) for a, p in encrypted_files.items()})!r}.items():
            try:
                out[algorithm] = glyphline.extract_text(pathlib.Path(path).read_bytes(), password={PASSWORD!r}).text
            except GlyphlineError as exc:
                out[algorithm] = f"{{type(exc).__name__}}: {{exc}}"
        out["stand_in"] = sys.modules["pypdf._crypt_providers"].CryptRC4.__module__
        print(json.dumps(out))
    """
    through_stand_in = run_python(script.replace("FIRST_IMPORT", ""), extra_path=tmp_path)
    pypdf_alone = run_python(script.replace("FIRST_IMPORT", "import pypdf"), extra_path=tmp_path)
    assert through_stand_in.pop("stand_in") == "glyphline._lazy_crypto"
    assert pypdf_alone.pop("stand_in") != "glyphline._lazy_crypto"
    assert through_stand_in == pypdf_alone
    assert through_stand_in["RC4-128"].strip() == "RC4-128"   # the pure-Python RC4 did decrypt


def test_a_name_the_stand_in_does_not_list_comes_from_the_real_provider():
    pytest.importorskip("cryptography")
    out = run_python("""
        import json
        import glyphline
        import pypdf
        stand_in = sys.modules["pypdf._crypt_providers._cryptography"]
        before = "cryptography" in sys.modules
        from pypdf._crypt_providers._cryptography import PKCS7   # imported there from cryptography
        print(json.dumps({"before": before, "module": PKCS7.__module__, "after": "cryptography" in sys.modules,
                          "probe": hasattr(stand_in, "__path__")}))
    """)
    assert out["before"] is False
    assert out["module"].startswith("cryptography.")
    assert out["after"] is True
    assert out["probe"] is False


def test_does_nothing_once_pypdf_has_chosen():
    out = run_python("""
        import json
        import pypdf
        import glyphline
        from glyphline import _lazy_crypto
        print(json.dumps({"installed": _lazy_crypto.install(),
                          "module": sys.modules["pypdf._crypt_providers"].CryptAES.__module__}))
    """)
    assert out["installed"] is False
    assert out["module"] != "glyphline._lazy_crypto"


def test_does_nothing_when_cryptography_is_hidden():
    out = run_python("""
        import json
        sys.modules["cryptography"] = None
        import glyphline
        print(json.dumps({"stand_in": "pypdf._crypt_providers._cryptography" in sys.modules}))
    """)
    assert out["stand_in"] is False
