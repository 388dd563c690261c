# SRAM used by the Portals firmware's pools (seed 000 §4.2):
#   cmake -DELF=x.elf -DOUT=x.size.txt -DNM=riscv64-unknown-elf-nm -P pools_report.cmake
# Reads the pool arrays' sizes from the symbol table, appends a "pools" section to
# the size report and prints it. M = S*S_size + sum_i P_i*P_size with N = 1 (the
# generic process).
execute_process(COMMAND ${NM} -S -t d ${ELF} OUTPUT_VARIABLE syms RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NM} failed on ${ELF}")
endif()

# The size of symbol `name`; with OPTIONAL, 0 when the image has none.
function(sym_size name out)
  string(REGEX MATCH "\n[0-9]+ 0*([0-9]+) [a-zA-Z] ${name}\n" m "\n${syms}")
  if(m)
    set(${out} ${CMAKE_MATCH_1} PARENT_SCOPE)
  elseif("OPTIONAL" IN_LIST ARGN)
    set(${out} 0 PARENT_SCOPE)
  else()
    message(FATAL_ERROR "pools_report: no symbol ${name} in ${ELF}")
  endif()
endfunction()

# Element sizes: the C sources _Static_assert the same numbers (pending.h, source.h),
# and the firmware reports them at run time in niccb.pending_bytes / source_bytes.
sym_size(lower_pendings pend_total)
sym_size(sources src_total)
sym_size(segments seg_total)
sym_size(source_hash hash_total)
sym_size(niccb niccb_total)
sym_size(cached_niccb cniccb_total)
sym_size(generic_process proc_total)
sym_size(niclab_mailbox mbox_total)
# Go-back-N's per-node table (gbn.c); images built to panic on exhaustion have none.
sym_size(gbn_peers peers_total OPTIONAL)
sym_size(gbn_ctrl_pendings ctrl_total OPTIONAL)
# Accelerated mode's process, mailbox, match entries and MDs (accel.h); only in
# images built with PTL_ACCEL.
sym_size(accel_process aproc_total OPTIONAL)
sym_size(ptl_accel_mailbox ambox_total OPTIONAL)
sym_size(accel_mes ames_total OPTIONAL)
sym_size(accel_mds amds_total OPTIONAL)
sym_size(accel_portals aportals_total OPTIONAL)
sym_size(accel_pending_md apmd_total OPTIONAL)

function(sym_addr name out)
  string(REGEX MATCH "\n0*([0-9]+) [a-zA-Z] ${name}\n" m "\n${syms}")
  if(NOT m)
    message(FATAL_ERROR "pools_report: no symbol ${name} in ${ELF}")
  endif()
  set(${out} ${CMAKE_MATCH_1} PARENT_SCOPE)
endfunction()
sym_addr(__pools_start pools_start)
sym_addr(__pools_end pools_end)
math(EXPR pools_section "${pools_end} - ${pools_start}")
# The SDK's report above counts the sections it knows; .pools (pools.ld) comes on top.
file(READ ${OUT} size_report)
string(REGEX MATCH "sram +([0-9]+) of" m "${size_report}")
math(EXPR sram_total "${CMAKE_MATCH_1} + ${pools_section}")

set(P_size 32)   # sizeof(struct lower_pending), pending.h (checked below)
set(S_size 20)   # sizeof(struct source), source.h
set(seg_size 16) # sizeof(struct segment)
set(ME_size 36)  # sizeof(struct accel_me), accel.h
set(MD_size 32)  # sizeof(struct accel_md)
set(N 1)  # firmware-level processes, each with a pool of P/N pendings
if(aproc_total GREATER 0)
  set(N 2)
endif()
math(EXPR P "${pend_total} / ${P_size}")
math(EXPR S "${src_total} / ${S_size}")
math(EXPR nseg "${seg_total} / ${seg_size}")
math(EXPR buckets "${hash_total} / 4")
math(EXPR M "${S} * ${S_size} + ${P} * ${P_size}")
math(EXPR nmes "${ames_total} / ${ME_size}")
math(EXPR nmds "${amds_total} / ${MD_size}")
math(EXPR Pi "${P} / ${N}")
math(EXPR accel_total "${ames_total} + ${amds_total} + ${aportals_total} + ${apmd_total} + ${aproc_total}")
math(EXPR other "${seg_total} + ${hash_total} + ${cniccb_total} + ${proc_total} + ${peers_total} + ${ctrl_total} + ${accel_total}")
math(EXPR all "${M} + ${other}")

set(report
"pools (seed 000 §4.2; cached SRAM unless noted)
  sources          ${S} x ${S_size} = ${src_total} bytes
  lower pendings   ${P} x ${P_size} = ${pend_total} bytes (${N} process(es) x ${Pi}: TX + RX pools)
  segments         ${nseg} x ${seg_size} = ${seg_total} bytes
  source hash      ${buckets} x 4 = ${hash_total} bytes
  go-back-N peers  ${peers_total} bytes (per node id), control pendings ${ctrl_total} bytes
  cached_niccb     1 x ${cniccb_total} = ${cniccb_total} bytes
  process          1 x ${proc_total} = ${proc_total} bytes
  niccb            1 x ${niccb_total} = ${niccb_total} bytes (uncached)
  mailbox          1 x ${mbox_total} = ${mbox_total} bytes (uncached)
  accelerated      ${nmes} match entries x ${ME_size} + ${nmds} MDs x ${MD_size} + portal heads ${aportals_total} + pending MDs ${apmd_total} + process ${aproc_total} = ${accel_total} bytes
  accel mailbox    ${ambox_total} bytes (uncached)
  M = S*S_size + sum_i P_i*P_size (N = ${N}) = ${S}*${S_size} + ${N}*${Pi}*${P_size} = ${M} bytes
  all cached pools ${all} bytes
  .pools section   ${pools_section} bytes (NOLOAD, not cleared by crt0; not in the sram line above)
  sram with pools  ${sram_total} of 393216 bytes
")
file(APPEND ${OUT} "${report}")
get_filename_component(name ${ELF} NAME_WE)
message("${name}: ${report}")
