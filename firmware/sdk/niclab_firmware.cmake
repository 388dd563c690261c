# niclab_firmware(NAME SOURCES src... [DEFINES def...] [INCLUDE_DIRS dir...]
#                 [OUTPUT_DIR dir] [OUTPUT_NAME base] [LINKER_SCRIPT file] [NO_RUNTIME]
#                 [TRACE [TRACE_ENTRIES n]])
#
# Builds target NAME as NAME.elf, NAME.bin (the flat image objcopy makes from the loaded segments:
# what seed 000 §3.2 loads into SRAM) and NAME.size.txt (size report) in OUTPUT_DIR
# (default: <build>/examples); OUTPUT_NAME replaces NAME in the file names (target
# names are global, file names only per directory). By default the firmware is linked with sdk/link.ld,
# sdk/crt0.S, the runtime library and libgcc. NO_RUNTIME drops crt0 and the runtime
# (the sources bring their own _start); LINKER_SCRIPT replaces sdk/link.ld (e.g. to
# build the ISA tests for QEMU's virt board). TRACE turns the trace points of
# niclab/fw/trace.h on (defines NICLAB_TRACE=1 and links runtime/trace.S with a ring of
# TRACE_ENTRIES records, a power of two, default 1024); without it they compile to nothing.
include_guard(GLOBAL)

set(NICLAB_SDK_DIR ${CMAKE_CURRENT_LIST_DIR})

# Firmware C is C11, -O2, warnings on; the flags apply only to C, not to assembly.
set(NICLAB_FW_C_OPTIONS -std=c11 -O2 -Wall -Wextra)

add_library(niclab_fw_runtime STATIC
  ${NICLAB_SDK_DIR}/runtime/string.c
  ${NICLAB_SDK_DIR}/runtime/console.c
  ${NICLAB_SDK_DIR}/runtime/nic.c)
target_include_directories(niclab_fw_runtime PUBLIC ${NICLAB_SDK_DIR}/include)
target_compile_options(niclab_fw_runtime PRIVATE ${NICLAB_FW_C_OPTIONS})
# Without this gcc recognises the loops in memcpy/memset as memcpy/memset calls.
set_source_files_properties(${NICLAB_SDK_DIR}/runtime/string.c PROPERTIES
  COMPILE_OPTIONS -fno-tree-loop-distribute-patterns)

function(niclab_firmware NAME)
  cmake_parse_arguments(PARSE_ARGV 1 FW "NO_RUNTIME;TRACE" "OUTPUT_DIR;OUTPUT_NAME;LINKER_SCRIPT;TRACE_ENTRIES"
                        "SOURCES;DEFINES;INCLUDE_DIRS")
  if(NOT FW_SOURCES)
    message(FATAL_ERROR "niclab_firmware(${NAME}): SOURCES is required")
  endif()
  if(FW_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "niclab_firmware(${NAME}): unknown arguments ${FW_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT FW_OUTPUT_DIR)
    set(FW_OUTPUT_DIR ${CMAKE_BINARY_DIR}/examples)
  endif()
  if(NOT FW_OUTPUT_NAME)
    set(FW_OUTPUT_NAME ${NAME})
  endif()
  if(NOT FW_LINKER_SCRIPT)
    set(FW_LINKER_SCRIPT ${NICLAB_SDK_DIR}/link.ld)
  endif()

  set(sources ${FW_SOURCES})
  if(NOT FW_NO_RUNTIME)
    list(PREPEND sources ${NICLAB_SDK_DIR}/crt0.S)
  endif()
  if(FW_TRACE)
    if(NOT FW_TRACE_ENTRIES)
      set(FW_TRACE_ENTRIES 1024)
    endif()
    set(log2 0)
    set(n 1)
    while(n LESS FW_TRACE_ENTRIES)
      math(EXPR log2 "${log2} + 1")
      math(EXPR n "${n} * 2")
    endwhile()
    if(NOT n EQUAL FW_TRACE_ENTRIES OR log2 LESS 2 OR log2 GREATER 16)
      message(FATAL_ERROR "niclab_firmware(${NAME}): TRACE_ENTRIES ${FW_TRACE_ENTRIES} is not a power of two in 4..65536")
    endif()
    list(APPEND sources ${NICLAB_SDK_DIR}/runtime/trace.S)
    list(APPEND FW_DEFINES NICLAB_TRACE=1 NICLAB_TRACE_ENTRIES_LOG2=${log2})
  elseif(FW_TRACE_ENTRIES)
    message(FATAL_ERROR "niclab_firmware(${NAME}): TRACE_ENTRIES without TRACE")
  endif()
  add_executable(${NAME} ${sources})
  set_target_properties(${NAME} PROPERTIES
    OUTPUT_NAME ${FW_OUTPUT_NAME}
    SUFFIX .elf
    RUNTIME_OUTPUT_DIRECTORY ${FW_OUTPUT_DIR}
    # Relink (and so rerun the post-build steps) when the scripts change.
    LINK_DEPENDS "${FW_LINKER_SCRIPT};${NICLAB_SDK_DIR}/nonalloc.ld;${NICLAB_SDK_DIR}/size_report.cmake")
  target_include_directories(${NAME} PRIVATE ${NICLAB_SDK_DIR}/include ${FW_INCLUDE_DIRS})
  target_compile_definitions(${NAME} PRIVATE ${FW_DEFINES})
  target_compile_options(${NAME} PRIVATE $<$<COMPILE_LANGUAGE:C>:${NICLAB_FW_C_OPTIONS}>)
  set(base ${FW_OUTPUT_DIR}/${FW_OUTPUT_NAME})
  target_link_options(${NAME} PRIVATE
    -L ${NICLAB_SDK_DIR}    # where link scripts find nonalloc.ld
    -T ${FW_LINKER_SCRIPT}
    -Wl,-Map=${base}.map
    -Wl,--orphan-handling=warn)
  if(NOT FW_NO_RUNTIME)
    target_link_libraries(${NAME} PRIVATE niclab_fw_runtime)
  endif()
  target_link_libraries(${NAME} PRIVATE gcc)

  set(elf ${base}.elf)
  add_custom_command(TARGET ${NAME} POST_BUILD
    COMMAND ${CMAKE_OBJCOPY} -O binary ${elf} ${base}.bin
    COMMAND ${CMAKE_COMMAND} -DELF=${elf} -DBIN=${base}.bin
            -DOUT=${base}.size.txt -DSIZE_TOOL=${CMAKE_SIZE}
            -P ${NICLAB_SDK_DIR}/size_report.cmake
    BYPRODUCTS ${base}.bin ${base}.size.txt
               ${base}.map
    VERBATIM)
endfunction()
