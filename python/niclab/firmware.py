"""Where the example firmware images are.

An installed wheel carries them in ``niclab/firmware/``; a development checkout finds
them in the CMake build tree (``build/firmware/examples`` and, for the Portals
firmware and its option images, ``build/firmware/portals``). ``NICLAB_FIRMWARE_DIR``
overrides both.
"""

import os
from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent


def firmware_dirs():
    """Directories searched for firmware ELFs, in order."""
    dirs = []
    if os.environ.get("NICLAB_FIRMWARE_DIR"):
        env = Path(os.environ["NICLAB_FIRMWARE_DIR"])
        dirs += [env / "examples", env / "portals", env]
    dirs.append(_PACKAGE_DIR / "firmware")
    build = _PACKAGE_DIR.parent.parent / "build" / "firmware"
    dirs += [build / "examples", build / "portals"]
    return dirs


def firmware_path(name):
    """Path of an example firmware ELF by name (``"hello"`` or ``"hello.elf"``).

    Raises FileNotFoundError listing the directories searched.
    """
    file = name if name.endswith(".elf") else name + ".elf"
    for d in firmware_dirs():
        if (d / file).is_file():
            return d / file
    searched = ", ".join(str(d) for d in firmware_dirs())
    raise FileNotFoundError(f"firmware {file!r} not found (searched {searched})")


def resolve(firmware):
    """A path for `firmware`: an existing path as is, otherwise an example name."""
    p = Path(os.fspath(firmware))
    if p.exists() or p.suffix == ".elf" and (p.is_absolute() or len(p.parts) > 1):
        return p
    return firmware_path(str(firmware))
