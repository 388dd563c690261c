# CMake toolchain file for niclab firmware: Debian's riscv64-unknown-elf-gcc
# producing freestanding RV32IM code for the NIC core.
#
# binutils 2.40 only assembles CSR instructions with -march=rv32im_zicsr_zifencei,
# but at link time that name selects the wrong (64-bit) multilib, so we compile with
# the long name and link with -march=rv32im -mabi=ilp32.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR riscv32)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

set(CMAKE_C_COMPILER riscv64-unknown-elf-gcc)
set(CMAKE_ASM_COMPILER riscv64-unknown-elf-gcc)
set(CMAKE_OBJCOPY riscv64-unknown-elf-objcopy CACHE FILEPATH "")
set(CMAKE_SIZE riscv64-unknown-elf-size CACHE FILEPATH "")

set(NICLAB_FW_COMPILE_ARCH "-march=rv32im_zicsr_zifencei -mabi=ilp32")
set(NICLAB_FW_LINK_ARCH "-march=rv32im -mabi=ilp32")

set(CMAKE_C_FLAGS_INIT "${NICLAB_FW_COMPILE_ARCH} -ffreestanding -fno-builtin-printf -ffunction-sections -fdata-sections -g")
set(CMAKE_ASM_FLAGS_INIT "${NICLAB_FW_COMPILE_ARCH} -g")
# Firmware is always -O2 (set per target by niclab_firmware.cmake), whatever the
# build type the parent project passes; keep Release from adding -O3.
set(CMAKE_C_FLAGS_RELEASE_INIT "-DNDEBUG")
set(CMAKE_ASM_FLAGS_RELEASE_INIT "")
set(CMAKE_EXE_LINKER_FLAGS_INIT "${NICLAB_FW_LINK_ARCH} -nostartfiles -nostdlib -Wl,--gc-sections -Wl,--build-id=sha1")

set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
