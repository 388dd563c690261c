"""niclab.Nic: boot, console, run, reload, the debug back door and host windows."""

import pytest

import niclab

SRAM_CACHED = 0xFFFA0000
SRAM_UNCACHED = 0xFFF40000
SCRATCH = 0x40000  # an SRAM offset the small examples leave alone


def test_hello_boots_prints_and_halts():
    nic = niclab.Nic(firmware="hello")
    assert nic.boot["running_us"] > nic.boot["started_us"]
    assert nic.boot["instructions"] > 0
    result = nic.run()
    assert nic.state == "halted"
    assert nic.exit_code == 0
    assert "hello from niclab node 0 at 500 MHz" in nic.console
    assert "sum: 88" in nic.console
    assert result["faulted_nodes"] == []
    assert nic.cycles > 0 and nic.instret > 0


def test_run_to_halt_leaves_time_where_the_work_ended():
    nic = niclab.Nic(firmware="hello")
    result = nic.run()
    assert nic.stop_time_us <= result["reached_us"] < 1000
    nic.reload_firmware("hello")
    nic.run()
    assert nic.state == "halted"


def test_reload_many_times_replaces_the_image(fw):
    nic = niclab.Nic(firmware="reload_a")
    for _ in range(10):
        for name, version, text in (("reload_b", 0xB, "reload_b version B\n"),
                                    ("reload_a", 0xA, "reload_a version A\n")):
            nic.reload_firmware(name)
            nic.run(for_us=20)
            assert nic.firmware == str(fw(name))
            assert nic.peek32(nic.symbol("fw_version")) == version
            assert nic.console == text
    assert nic.state == "waiting"


def test_truncated_elf_is_an_image_error_with_a_rule(truncated_elf):
    nic = niclab.Nic(firmware="hello")
    nic.run(for_us=50)
    build_id = nic.build_id
    with pytest.raises(niclab.FirmwareImageError) as info:
        nic.reload_firmware(truncated_elf)
    assert info.value.rule
    assert str(truncated_elf) in str(info.value) or info.value.rule in str(info.value)
    # The running firmware is untouched.
    assert nic.build_id == build_id
    assert nic.state == "halted" and nic.exit_code == 0


def test_text_file_is_an_image_error(text_file_elf):
    with pytest.raises(niclab.FirmwareImageError) as info:
        niclab.Nic(firmware=text_file_elf)
    assert info.value.rule == "not-elf"
    assert isinstance(info.value, niclab.NiclabError)


def test_unknown_example_name_is_file_not_found():
    with pytest.raises(FileNotFoundError, match="no_such_firmware"):
        niclab.Nic(firmware="no_such_firmware")


def test_firmware_fault_names_pc_function_and_cause():
    nic = niclab.Nic(firmware="fault_illegal")
    with pytest.raises(niclab.FirmwareFault) as info:
        nic.run()
    f = info.value
    assert f.pc == nic.symbol("do_illegal_instruction")
    assert "do_illegal_instruction" in f.where
    assert "fault_illegal.c:" in f.where
    assert f.cause == "illegal instruction"
    assert f.kind == "unhandled trap"
    assert f"{f.pc:#010x}" in str(f)
    assert nic.state == "faulted"
    assert nic.fault is not None and nic.fault.pc == f.pc


def test_load_fault_names_the_address():
    nic = niclab.Nic(firmware="fault_load")
    with pytest.raises(niclab.FirmwareFault) as info:
        nic.run()
    assert info.value.cause == "load access fault"
    assert info.value.tval == 0xE0000000
    assert "0xe0000000" in str(info.value)
    assert "read_unopened_window" in info.value.where


def test_watchdog_fault():
    nic = niclab.Nic(firmware="spin", set={"core.watchdog_us": 20})
    with pytest.raises(niclab.FirmwareFault) as info:
        nic.run(until_us=500)
    assert info.value.kind == "watchdog"
    assert "main" in info.value.where


def test_noboot_is_a_boot_timeout():
    assert issubclass(niclab.BootTimeout, niclab.FirmwareFault)
    with pytest.raises(niclab.BootTimeout) as info:
        niclab.Nic(firmware="noboot")
    assert info.value.kind == "boot timeout"
    assert "0xfff40000" in str(info.value)
    assert "main" in info.value.where


def test_after_a_fault_python_is_fine_and_a_new_nic_works():
    for name in ("fault_illegal", "fault_load", "double_fault"):
        with pytest.raises(niclab.FirmwareFault):
            niclab.Nic(firmware=name).run(until_us=100)
    nic = niclab.Nic(firmware="hello")
    nic.run(until_us=100)
    assert nic.state == "halted" and nic.exit_code == 0


def test_faulted_nic_reloads():
    nic = niclab.Nic(firmware="fault_illegal")
    with pytest.raises(niclab.FirmwareFault):
        nic.run(for_us=50)
    nic.reload_firmware("hello")
    assert nic.fault is None
    nic.run(for_us=50)
    assert nic.state == "halted" and nic.exit_code == 0


def test_peek_poke_alias_both_views():
    nic = niclab.Nic()
    nic.poke32(SRAM_UNCACHED + SCRATCH, 0xCAFEF00D)
    assert nic.peek32(SRAM_CACHED + SCRATCH) == 0xCAFEF00D
    nic.write_sram(SRAM_CACHED + SCRATCH + 0x10, b"niclab!")
    assert nic.read_sram(SRAM_UNCACHED + SCRATCH + 0x10, 7) == b"niclab!"


def test_peek_outside_sram_names_the_address():
    nic = niclab.Nic()
    with pytest.raises(IndexError, match="0x00001000"):
        nic.peek32(0x1000)
    with pytest.raises(IndexError):
        nic.write_sram(SRAM_CACHED + 0x60000 - 2, b"1234")


def test_inspection_costs_no_simulated_time():
    nic = niclab.Nic(firmware="counter")
    nic.run(for_us=20)
    now, cycles = nic.now_us, nic.cycles
    for _ in range(100):
        nic.peek32(SRAM_CACHED + SCRATCH)
        nic.registers, nic.console, nic.pc, nic.csr(0x300)
    assert (nic.now_us, nic.cycles) == (now, cycles)


def test_host_window_copy_lands_in_host_memory():
    nic = niclab.Nic()
    pattern = bytes(range(0x40, 0x80))
    nic.host_memory.write(0x20000, pattern)
    nic.open_host_window(0, 0x20000, 0x1000, writable=True)
    nic.load_firmware("host_copy")
    nic.run(until_us=100)
    assert nic.state == "halted"
    assert nic.host_memory.read(0x20100, 64) == pattern


def test_read_only_window_refuses_the_write():
    nic = niclab.Nic()
    nic.host_memory.write(0x20000, b"\x11" * 64)
    nic.open_host_window(0, 0x20000, 0x1000, writable=False)
    nic.load_firmware("host_copy")
    with pytest.raises(niclab.FirmwareFault) as info:
        nic.run(until_us=100)
    assert info.value.cause == "store access fault"
    assert nic.host_memory.read(0x20100, 64) == bytes(64)


def test_reload_over_a_ticking_timer():
    nic = niclab.Nic(firmware="timer_irq")
    nic.run(for_us=5)
    nic.reload_firmware("timer_irq")
    nic.run(for_us=100)
    assert nic.state == "halted"
    assert nic.console == "timer_irq: 10 ticks of 1000 cycles\n"


def test_translated_blocks_give_the_same_cycles():
    """The CRC-32 example's loops run as host code or as threaded code: the same result,
    cycles, instructions and cache statistics."""
    def crc(translate):
        nic = niclab.Nic(firmware="crc32", set={"core.watchdog_us": 0})  # a pure compute loop
        nic.set_block_translation(translate)
        nic.run(until_us=200_000)
        return nic.state, nic.console, nic.cycles, nic.instret, nic.stall_cycles, nic.icache, nic.dcache

    translated, threaded = crc(True), crc(False)
    assert translated == threaded
    assert translated[0] == "halted" and "crc32 x1000 of 4096 bytes" in translated[1]


def test_polling_fast_forward_gives_the_same_cycles():
    """The doorbell example spins on SRAM, then on a device register; skipping the
    passes of its waits changes no figure."""
    def ring(skip):
        nic = niclab.Nic(firmware="doorbell")
        nic.set_spin_skip(skip)
        doorbell = nic.symbol("fw_doorbell")
        for k in range(1, 11):
            nic.run(for_us=3 + (k * 7) % 5)
            nic.poke32(doorbell, k)           # the SRAM doorbell
            nic.run(for_us=2 + (k * 3) % 4)
            nic.raise_interrupt(1)            # the device one: NICLAB_IRQ_DOORBELL
        nic.run(for_us=5)
        log = [nic.peek32(nic.symbol("fw_log") + 4 * i) for i in range(40)]
        return nic.cycles, nic.instret, nic.stall_cycles, log, nic.spin_passes_skipped

    skipping, plain = ring(True), ring(False)
    assert skipping[:4] == plain[:4]
    assert plain[3][0::4] == list(range(1, 11))  # every SRAM ring seen, in order
    assert plain[3][2::4] == [1] * 10            # and every device ring
    assert plain[4] == 0 and skipping[4] > 1000
