"""Where the example firmware images are.

An installed wheel carries them in ``niclab/firmware/``; a development checkout finds
them in the CMake build tree (``build/firmware/examples`` and, for the Portals
firmware and its option images, ``build/firmware/portals``; GRIM's LANai firmware,
``build/firmware/grim``). ``NICLAB_FIRMWARE_DIR``
overrides both.
"""

import os
from pathlib import Path

from .errors import ConfigError, FirmwareNotFound

_PACKAGE_DIR = Path(__file__).resolve().parent


def firmware_dirs():
    """Directories searched for firmware ELFs, in order."""
    dirs = []
    if os.environ.get("NICLAB_FIRMWARE_DIR"):
        env = Path(os.environ["NICLAB_FIRMWARE_DIR"])
        dirs += [env / "examples", env / "portals", env / "grim", env]
    dirs.append(_PACKAGE_DIR / "firmware")
    build = _PACKAGE_DIR.parent.parent / "build" / "firmware"
    dirs += [build / "examples", build / "portals", build / "grim"]
    return dirs


def available():
    """The built-in image names, sorted (each ``NAME.elf`` found in ``firmware_dirs()``)."""
    names = set()
    for d in firmware_dirs():
        if d.is_dir():
            names.update(p.stem for p in d.glob("*.elf"))
    return sorted(names)


def firmware_path(name):
    """Path of a built-in firmware ELF by name (``"hello"`` or ``"hello.elf"``).

    Raises FirmwareNotFound (a FirmwareImageError and a FileNotFoundError) listing
    the names there are."""
    file = name if name.endswith(".elf") else name + ".elf"
    for d in firmware_dirs():
        if (d / file).is_file():
            return d / file
    names = available()
    listing = ", ".join(names) if names else f"none built (searched {', '.join(str(d) for d in firmware_dirs())})"
    raise FirmwareNotFound(f"firmware {name!r}: no such built-in image and no such file; built-in images: {listing}")


def resolve(firmware):
    """The ELF path for `firmware`: a bare name (``"portals"``) is a built-in image
    first, then a file of that name here; anything with a directory part
    (``"./portals.elf"``, ``"/abs/fw.elf"``) is a path. ConfigError naming
    ``firmware`` when it is neither a name nor a path."""
    if not isinstance(firmware, (str, os.PathLike)):
        err = ConfigError(f"firmware: expected an image name or a path to an ELF, not {type(firmware).__name__} "
                          f"{firmware!r}")
        err.key_path = "firmware"
        raise err
    text = os.fspath(firmware)
    p = Path(text)
    if len(p.parts) > 1 or p.is_absolute():
        if p.is_file():
            return p
        raise FirmwareNotFound(f"firmware {text!r}: no such file")
    try:
        return firmware_path(text)
    except FirmwareNotFound:
        if p.is_file():  # a file of that name in the current directory
            return p
        raise
