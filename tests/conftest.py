"""Shared fixtures: the builder on sys.path and the location of the shared corpus."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

TESTS_DIR = Path(__file__).resolve().parent
REPO_DIR = TESTS_DIR.parent
CORPUS_DIR = REPO_DIR.parent / "shared" / "corpus"     # ../shared/corpus relative to the repo

if str(TESTS_DIR) not in sys.path:
    sys.path.insert(0, str(TESTS_DIR))   # `from pdfbuilder import PdfBuilder` from any test module


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    if not CORPUS_DIR.is_dir():
        pytest.skip(f"shared corpus not found at {CORPUS_DIR}")
    return CORPUS_DIR


@pytest.fixture(scope="session")
def sample_pdf() -> bytes:
    return (TESTS_DIR / "data" / "sample.pdf").read_bytes()
