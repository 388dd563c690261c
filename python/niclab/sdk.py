"""The firmware SDK as a product: build a NIC firmware image from C anywhere.

    >>> elf = niclab.sdk.build(["my.c"], trace=True)       # ./my.elf, .bin, .size.txt, .map
    >>> niclab.Nic(firmware=elf)

The SDK (headers ``niclab/fw/*.h``, ``crt0.S``, the linker script, the small runtime,
the CMake toolchain file and the ``niclab_firmware()`` CMake function) ships with the
package (``niclab/sdk`` in a wheel, ``firmware/sdk`` in a checkout). ``build`` runs the
SDK's recipe ``build_firmware.cmake`` (``cmake -P``; the GUI runs the same), which writes
a two-line CMake project next to the output and builds it with the SDK's toolchain
(Debian's ``riscv64-unknown-elf-gcc`` for RV32IM), so an image built here is built
exactly as the built-in ones are: same flags, same runtime, same size report.
"""

import os
import re
import shutil
import subprocess
from pathlib import Path

from .errors import FirmwareBuildError

__all__ = ["build", "build_project", "new", "sdk_dir"]

_PACKAGE_DIR = Path(__file__).resolve().parent
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def sdk_dir():
    """The SDK directory: the package's copy in a wheel, the checkout's firmware/sdk otherwise."""
    for d in (_PACKAGE_DIR / "sdk", _PACKAGE_DIR.parent.parent / "firmware" / "sdk"):
        if (d / "niclab_firmware.cmake").is_file():
            return d
    raise FirmwareBuildError(f"no firmware SDK found (looked in {_PACKAGE_DIR / 'sdk'} and the checkout's firmware/sdk)")


def _portals_dir():
    """The built-in C Portals firmware's sources: the package's copy, or the checkout's."""
    for d in (_PACKAGE_DIR / "sdk" / "portals", _PACKAGE_DIR.parent.parent / "firmware" / "portals"):
        if (d / "main.c").is_file() and (d / "pools.ld").is_file():
            return d
    raise FirmwareBuildError("the C Portals firmware's sources are not installed (looked in the package's "
                             "sdk/portals and the checkout's firmware/portals)")


def _tool(name):
    path = shutil.which(name)
    if path is None:
        raise FirmwareBuildError(f"'{name}' is not installed; the firmware SDK needs cmake, ninja and Debian's "
                                 "gcc-riscv64-unknown-elf and picolibc-riscv64-unknown-elf")
    return path


def _cmake_list(paths):
    """Absolute paths as one CMake list (the recipe quotes each)."""
    return ";".join(Path(p).resolve().as_posix() for p in paths)


def build(sources, name=None, *, out_dir=".", trace=False, trace_entries=None, defines=(), include_dirs=(),
          quiet=True):
    """Build firmware image `name` (default: the first source's stem) from C/assembly
    `sources` into `out_dir`: NAME.elf (load it), NAME.bin (the flat image), NAME.map and
    NAME.size.txt (the size report); CMake's own files stay in `out_dir`/.niclab-build-NAME,
    so a rebuild only recompiles what changed. `trace` turns the trace points of
    ``niclab/fw/trace.h`` on (a ring of `trace_entries` records, a power of two).
    Returns the ELF's path. FirmwareBuildError with the compiler's messages when it
    does not build."""
    sources = [Path(os.fspath(s)) for s in ([sources] if isinstance(sources, (str, os.PathLike)) else sources)]
    if not sources:
        raise FirmwareBuildError("firmware build: no source files")
    if len(sources) == 1 and sources[0].is_dir():
        if include_dirs or trace_entries:
            raise FirmwareBuildError("firmware build: a project directory sets its own include directories and "
                                     "trace ring in its CMakeLists.txt")
        return build_project(sources[0], name, out_dir=out_dir, trace=trace, defines=defines, quiet=quiet)
    missing = [str(s) for s in sources if not s.is_file()]
    if missing:
        raise FirmwareBuildError(f"firmware build: no such source file: {', '.join(missing)}")
    name = name or sources[0].stem
    if not _NAME.match(name):
        raise FirmwareBuildError(f"firmware build: name {name!r} is not a C identifier (letters, digits, _)")
    out = Path(out_dir).resolve()
    variables = [f"-DSOURCES={_cmake_list(sources)}", f"-DOUT_DIR={out.as_posix()}", f"-DTRACE={'ON' if trace else 'OFF'}"]
    if trace and trace_entries:
        variables.append(f"-DTRACE_ENTRIES={int(trace_entries)}")
    if defines:
        variables.append("-DDEFINES=" + ";".join(str(d) for d in defines))
    if include_dirs:
        variables.append(f"-DINCLUDE_DIRS={_cmake_list(include_dirs)}")
    return _cmake_build(name, out, variables, quiet)


def _cmake_build(name, out, variables, quiet):
    """Build with the SDK's recipe (sdk/build_firmware.cmake, which the GUI runs too); the ELF."""
    cmake = _tool("cmake")
    _tool("ninja")
    _tool("riscv64-unknown-elf-gcc")
    recipe = sdk_dir() / "build_firmware.cmake"
    done = subprocess.run([cmake, f"-DNAME={name}", *variables, "-P", str(recipe)], capture_output=True, text=True)
    if done.returncode != 0:
        raise FirmwareBuildError(f"firmware {name} does not build:\n{_errors(done.stdout + done.stderr)}")
    if not quiet:
        print(done.stdout + done.stderr, end="")
    elf = out / f"{name}.elf"
    if not elf.is_file():
        raise FirmwareBuildError(f"firmware {name}: the build succeeded but wrote no {elf}")
    return elf


def build_project(directory, name=None, *, out_dir=None, trace=False, defines=(), quiet=True):
    """Build a firmware project: a directory whose CMakeLists.txt calls niclab_firmware()
    for image ``${NICLAB_NAME}`` into ``${NICLAB_OUT}`` (what ``new(..., source="portals")``
    writes), for firmware of several files with their own compile and link options.
    `name` defaults to the directory's name, `out_dir` to the directory; `trace` sets
    NICLAB_FW_TRACE=ON and `defines` NICLAB_FW_DEFINES, which the project passes to
    niclab_firmware(). Returns the ELF's path."""
    d = Path(os.fspath(directory)).resolve()
    if not (d / "CMakeLists.txt").is_file():
        raise FirmwareBuildError(f"firmware build: {d} is a directory without a CMakeLists.txt (a firmware "
                                 f"project: `niclab fw new NAME --from portals` writes one)")
    name = name or d.name
    if not _NAME.match(name):
        raise FirmwareBuildError(f"firmware build: name {name!r} is not a C identifier (letters, digits, _); "
                                 f"give one with --name")
    out = Path(out_dir).resolve() if out_dir else d
    variables = [f"-DPROJECT_DIR={d.as_posix()}", f"-DOUT_DIR={out.as_posix()}", f"-DTRACE={'ON' if trace else 'OFF'}",
                 "-DDEFINES=" + ";".join(str(x) for x in defines)]
    return _cmake_build(name, out, variables, quiet)


def _errors(log):
    """The compiler's and linker's own lines (file:line: error ...), else the whole log's tail."""
    keep = [line for line in log.splitlines() if re.search(r"(error|warning|undefined reference|note):", line)]
    return "\n".join(keep) if keep else "\n".join(log.splitlines()[-30:])


_STARTER_C = """\
/* {name}: a niclab NIC firmware. Build it with `niclab fw build {name}.c --trace` (or
 * with CMake: see CMakeLists.txt) and boot it: `niclab boot ./{name}.elf`, or
 * niclab.Nic(firmware="./{name}.elf") from Python. The headers are in the SDK
 * (`niclab fw sdk`): niclab/fw/runtime.h, trace.h, hw.h, dma.h, mailbox.h. */
#include "niclab/fw/runtime.h"
#include "niclab/fw/trace.h"

int main(void)
{{
    /* Caches are off out of reset; the loader waits for the running flag (seed 000 §3.2). */
    fw_cache_enable(NICLAB_CACHE_I | NICLAB_CACHE_D);
    fw_set_running();
    trace_val(1); /* a trace record (with --trace): this line, a timestamp, the value 1 */
    fw_console_puts("{name}: hello from node ");
    fw_console_put_dec(fw_node_id());
    fw_console_puts("\\n");
    fw_halt(0);
}}
"""

_STARTER_CMAKE = """\
# {name}: built with the niclab firmware SDK. `niclab fw build {name}.c` does the same;
# with CMake: cmake -S . -B build -G Ninja -DNICLAB_SDK=$(niclab fw sdk)
#                    -DCMAKE_TOOLCHAIN_FILE=$(niclab fw sdk)/riscv32-toolchain.cmake && cmake --build build
cmake_minimum_required(VERSION 3.24)
project({name} LANGUAGES C ASM)
include(${{NICLAB_SDK}}/niclab_firmware.cmake)
niclab_firmware({name} SOURCES {name}.c TRACE OUTPUT_DIR ${{CMAKE_BINARY_DIR}})
"""


_PORTALS_CMAKE = """\
# {name}: a copy of niclab's C Portals firmware (generic mode, seed 000 §4-5) to change.
# Build it with `niclab fw build {directory} [--trace] [-D PTL_X=v]` (its image is
# {name}.elf here), and use it: niclab.run("pingpong", firmware="./{name}.elf").
# config.h holds the options (PTL_CACHES, PTL_VSMALL, ...) and pool sizes.
cmake_minimum_required(VERSION 3.24)
project({name} LANGUAGES C ASM)
include(${{NICLAB_SDK}}/niclab_firmware.cmake)
set(NICLAB_NAME {name} CACHE STRING "image name")
set(NICLAB_OUT ${{CMAKE_CURRENT_SOURCE_DIR}} CACHE PATH "where the image goes")
option(NICLAB_FW_TRACE "trace points on" OFF)
set(NICLAB_FW_DEFINES "" CACHE STRING "PTL_X=v;... over config.h's defaults")
set(trace)
if(NICLAB_FW_TRACE)
  set(trace TRACE)
endif()
niclab_firmware(${{NICLAB_NAME}} SOURCES {sources} DEFINES ${{NICLAB_FW_DEFINES}}
                OUTPUT_DIR ${{NICLAB_OUT}} ${{trace}})
# §5.4: the pinned globals (globals.h) live in s9-s11; no Portals code may use them.
if(NOT "PTL_PIN_GLOBALS=0" IN_LIST NICLAB_FW_DEFINES)
  target_compile_options(${{NICLAB_NAME}} PRIVATE $<$<COMPILE_LANGUAGE:C>:-ffixed-s9 -ffixed-s10 -ffixed-s11>)
endif()
# The pools live in their own NOLOAD section (pools.ld explains why).
target_link_options(${{NICLAB_NAME}} PRIVATE -Wl,-T,${{CMAKE_CURRENT_SOURCE_DIR}}/pools.ld)
set_property(TARGET ${{NICLAB_NAME}} APPEND PROPERTY LINK_DEPENDS ${{CMAKE_CURRENT_SOURCE_DIR}}/pools.ld)
# The pools' SRAM budget (seed 000 §4.2), appended to the size report.
find_program(portals_nm riscv64-unknown-elf-nm REQUIRED)
add_custom_command(TARGET ${{NICLAB_NAME}} POST_BUILD
  COMMAND ${{CMAKE_COMMAND}} -DELF=${{NICLAB_OUT}}/${{NICLAB_NAME}}.elf -DOUT=${{NICLAB_OUT}}/${{NICLAB_NAME}}.size.txt
          -DNM=${{portals_nm}} -P ${{CMAKE_CURRENT_SOURCE_DIR}}/pools_report.cmake
  VERBATIM)
"""

# The starters `new` can copy: name -> (source directory, what to copy, CMake template).
_STARTERS = ("hello", "portals")


def new(name, directory=None, source="hello"):
    """Write a firmware to start from into `directory` (default NAME); returns it.
    ``source="hello"``: a one-file starter NAME.c with its CMakeLists.txt (build it with
    ``niclab fw build NAME/NAME.c``). ``source="portals"``: a copy of the built-in C
    Portals firmware (every source, config.h, pools.ld) as a project to change and
    build with ``niclab fw build NAME`` (``build_project``)."""
    if not _NAME.match(name):
        raise FirmwareBuildError(f"fw new: name {name!r} is not a C identifier (letters, digits, _)")
    if source not in _STARTERS:
        raise FirmwareBuildError(f"fw new: no starter {source!r} (there are: {', '.join(_STARTERS)})")
    d = Path(directory or name)
    if d.exists() and any(d.iterdir()):
        raise FirmwareBuildError(f"fw new: {d} exists and is not empty")
    d.mkdir(parents=True, exist_ok=True)
    if source == "hello":
        (d / f"{name}.c").write_text(_STARTER_C.format(name=name))
        (d / "CMakeLists.txt").write_text(_STARTER_CMAKE.format(name=name))
        return d
    src = _portals_dir()
    for f in sorted(src.iterdir()):
        if f.suffix in (".c", ".h", ".ld") or f.name == "pools_report.cmake":
            shutil.copy2(f, d / f.name)
    sources = " ".join(sorted(f.name for f in d.glob("*.c")))
    (d / "CMakeLists.txt").write_text(_PORTALS_CMAKE.format(name=name, directory=d, sources=sources))
    return d
