# The one recipe for building a firmware image with the SDK outside niclab's own build:
# niclab.sdk (`niclab fw build`) and the GUI's firmware panel both run it, as
#
#   cmake -DNAME=blink -DSOURCES="/abs/blink.c;/abs/util.c" -DOUT_DIR=/abs/out
#         [-DTRACE=ON] [-DTRACE_ENTRIES=n] [-DDEFINES="X=1;Y"] [-DINCLUDE_DIRS="/abs/inc"]
#         -P <sdk>/build_firmware.cmake
#
# which writes a two-line CMake project in OUT_DIR/.niclab-build-NAME (CMake's own
# files stay there, so a rebuild only recompiles what changed) calling
# niclab_firmware(NAME ...), configures it with the SDK's RV32IM toolchain and builds
# OUT_DIR/NAME.elf, .bin, .map and .size.txt. Or, for a firmware project (a directory
# whose CMakeLists.txt calls niclab_firmware() itself):
#
#   cmake -DNAME=x -DPROJECT_DIR=/abs/dir -DOUT_DIR=/abs/out [-DTRACE=ON] [-DDEFINES="X=1;Y"]
#         -P <sdk>/build_firmware.cmake
#
# which builds it in PROJECT_DIR/.niclab-build-NAME with NICLAB_NAME, NICLAB_OUT,
# NICLAB_FW_TRACE and NICLAB_FW_DEFINES set for it to pass on.
#
# The build's output is printed (message NOTICE: on stderr); a failure ends with
# "firmware NAME does not build" after the compiler's messages (file:line: error: ...).
cmake_minimum_required(VERSION 3.24)
set(sdk ${CMAKE_CURRENT_LIST_DIR})
if(NOT NAME)
  message(FATAL_ERROR "build_firmware.cmake: NAME is required")
endif()

if(TRACE)
  set(trace ON)
else()
  set(trace OFF)
endif()
if(PROJECT_DIR)
  set(source_dir ${PROJECT_DIR})
  set(build_dir ${PROJECT_DIR}/.niclab-build-${NAME})
else()
  if(NOT SOURCES OR NOT OUT_DIR)
    message(FATAL_ERROR "build_firmware.cmake: SOURCES and OUT_DIR are required (or PROJECT_DIR)")
  endif()
  set(options "")
  if(TRACE)
    string(APPEND options " TRACE")
    if(TRACE_ENTRIES)
      string(APPEND options " TRACE_ENTRIES ${TRACE_ENTRIES}")
    endif()
  endif()
  if(DEFINES)
    list(JOIN DEFINES " " defines)
    string(APPEND options " DEFINES ${defines}")
  endif()
  set(quoted "")
  foreach(s IN LISTS SOURCES)
    string(APPEND quoted " \"${s}\"")
  endforeach()
  if(INCLUDE_DIRS)
    string(APPEND options " INCLUDE_DIRS")
    foreach(d IN LISTS INCLUDE_DIRS)
      string(APPEND options " \"${d}\"")
    endforeach()
  endif()
  set(source_dir ${OUT_DIR}/.niclab-build-${NAME})
  set(build_dir ${source_dir}/build)
  file(MAKE_DIRECTORY ${source_dir})
  # Written only when it changes, so an unchanged rebuild does not reconfigure.
  file(CONFIGURE OUTPUT ${source_dir}/CMakeLists.txt CONTENT
"cmake_minimum_required(VERSION 3.24)
project(niclab_user_firmware LANGUAGES C ASM)
include(\"${sdk}/niclab_firmware.cmake\")
niclab_firmware(${NAME} SOURCES${quoted}${options} OUTPUT_DIR \"${OUT_DIR}\")
" @ONLY)
endif()

# The configure step's arguments are written out, not kept in a list variable:
# DEFINES is a list and must reach the project as one argument.
if(PROJECT_DIR)
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${source_dir} -B ${build_dir} -G Ninja -DCMAKE_BUILD_TYPE=Release
                          -DCMAKE_TOOLCHAIN_FILE=${sdk}/riscv32-toolchain.cmake -DNICLAB_SDK=${sdk}
                          -DNICLAB_NAME=${NAME} -DNICLAB_OUT=${OUT_DIR} -DNICLAB_FW_TRACE=${trace}
                          "-DNICLAB_FW_DEFINES=${DEFINES}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE log ERROR_VARIABLE log)
else()
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${source_dir} -B ${build_dir} -G Ninja -DCMAKE_BUILD_TYPE=Release
                          -DCMAKE_TOOLCHAIN_FILE=${sdk}/riscv32-toolchain.cmake -DNICLAB_SDK=${sdk}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE log ERROR_VARIABLE log)
endif()
message(NOTICE "${log}")
if(rc EQUAL 0)
  execute_process(COMMAND ${CMAKE_COMMAND} --build ${build_dir} RESULT_VARIABLE rc OUTPUT_VARIABLE log ERROR_VARIABLE log)
  message(NOTICE "${log}")
endif()
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "firmware ${NAME} does not build")
endif()
