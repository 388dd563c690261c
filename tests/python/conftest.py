"""Fixtures for the niclab Python tests: example firmware paths (via
niclab.firmware_path, the same lookup users get) and broken copies of them."""

import pytest

import niclab


@pytest.fixture(scope="session")
def fw():
    """fw("hello") -> path of an example firmware ELF."""
    return lambda name: niclab.firmware_path(name)


@pytest.fixture
def truncated_elf(tmp_path, fw):
    """A copy of hello.elf cut in half: a readable file that is not a valid image."""
    data = fw("hello").read_bytes()
    path = tmp_path / "truncated.elf"
    path.write_bytes(data[: len(data) // 2])
    return path


@pytest.fixture
def text_file_elf(tmp_path):
    path = tmp_path / "notes.elf"
    path.write_text("not an ELF file\n")
    return path
