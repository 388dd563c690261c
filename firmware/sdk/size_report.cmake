# Writes a firmware size report: cmake -DELF=x.elf -DBIN=x.bin -DOUT=x.size.txt
#   -DSIZE_TOOL=riscv64-unknown-elf-size -P size_report.cmake
# Section sizes come from `size -A`; the SRAM figure counts everything the firmware
# occupies: the 256-byte boot block, .uncached, text, data, bss and stack.
execute_process(COMMAND ${SIZE_TOOL} -A -d ${ELF} OUTPUT_VARIABLE table RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${SIZE_TOOL} failed on ${ELF}")
endif()

function(section_size name out)
  string(REGEX MATCH "\n${name}[ \t]+([0-9]+)[ \t]+([0-9]+)" m "${table}")
  if(m)
    set(${out} ${CMAKE_MATCH_1} PARENT_SCOPE)
    set(${out}_addr ${CMAKE_MATCH_2} PARENT_SCOPE)
  else()
    set(${out} 0 PARENT_SCOPE)
    set(${out}_addr 0 PARENT_SCOPE)
  endif()
endfunction()

section_size("\\.text" text)
section_size("\\.rodata" rodata)
section_size("\\.note\\.gnu\\.build-id" note)
section_size("\\.data" data)
section_size("\\.bss" bss)
section_size("\\.uncached" uncached)
section_size("\\.stack" stack)

math(EXPR text_total "${text} + ${rodata} + ${note}")
math(EXPR sram_used "256 + ${uncached} + ${text_total} + ${data} + ${bss} + ${stack}")
file(SIZE ${BIN} bin_bytes)
set(sram_bytes 393216)
math(EXPR used_pct_x10 "(${sram_used} * 1000 + ${sram_bytes} / 2) / ${sram_bytes}")
math(EXPR used_pct_int "${used_pct_x10} / 10")
math(EXPR used_pct_frac "${used_pct_x10} % 10")
math(EXPR bin_kb_x10 "(${bin_bytes} * 10 + 512) / 1024")
math(EXPR bin_kb_int "${bin_kb_x10} / 10")
math(EXPR bin_kb_frac "${bin_kb_x10} % 10")
math(EXPR load_addr "${text_addr}" OUTPUT_FORMAT HEXADECIMAL)
get_filename_component(name ${ELF} NAME_WLE)

file(WRITE ${OUT}
"firmware ${name}
text      ${text_total} bytes (.text ${text}, .rodata ${rodata}, build-id ${note})
data      ${data} bytes
bss       ${bss} bytes
uncached  ${uncached} bytes
stack     ${stack} bytes
image     ${bin_bytes} bytes (${bin_kb_int}.${bin_kb_frac} KB flat binary, loaded at ${load_addr})
sram      ${sram_used} of ${sram_bytes} bytes (${used_pct_int}.${used_pct_frac}% of 384 KB, boot block included)
")
