"""The firmware SDK as a product: niclab.sdk / `niclab fw` build images anywhere, exactly
as the built-in ones; firmware names resolve to built-ins first; typed errors."""

import pytest

import niclab
from niclab.cli import main


def test_new_build_and_boot_a_firmware_outside_the_tree(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    d = niclab.sdk.new("probe")
    elf = niclab.sdk.build([d / "probe.c"], trace=True, out_dir=d)
    assert elf == (tmp_path / "probe" / "probe.elf").resolve()
    for suffix in (".bin", ".map", ".size.txt"):
        assert elf.with_suffix(suffix).is_file()
    assert "firmware probe" in elf.with_suffix(".size.txt").read_text()
    nic = niclab.Nic(firmware=elf)
    nic.run(until_us=100)
    assert nic.state == "halted" and nic.exit_code == 0
    assert "probe: hello from node 0" in nic.console
    # --trace really turned the trace points on: the image has the trace ring; without it, none.
    assert nic.symbol("niclab_trace_ring") is not None
    plain = niclab.sdk.build([d / "probe.c"], name="probe_plain", out_dir=d)
    assert niclab.Nic(firmware=plain).symbol("niclab_trace_ring") is None


def test_cli_build_reports_size_and_a_compile_error_names_file_and_line(tmp_path, capsys):
    src = tmp_path / "blink.c"
    src.write_text('#include "niclab/fw/runtime.h"\nint main(void)\n{\n    fw_set_running();\n    fw_halt(7);\n}\n')
    assert main(["fw", "build", str(src), "--out-dir", str(tmp_path), "-D", "UNUSED=1"]) == 0
    out = capsys.readouterr().out
    assert "built" in out and "firmware blink" in out and "sram" in out
    nic = niclab.Nic(firmware=tmp_path / "blink.elf")
    nic.run(until_us=50)
    assert nic.exit_code == 7
    bad = tmp_path / "bad.c"
    bad.write_text("int main(void) { return undefined_thing; }\n")
    with pytest.raises(niclab.FirmwareBuildError, match=r"bad.c:1:\d+: error: 'undefined_thing' undeclared"):
        niclab.sdk.build([bad], out_dir=tmp_path)
    assert main(["fw", "build", str(bad), "--out-dir", str(tmp_path)]) == 1
    assert "FirmwareBuildError" in capsys.readouterr().err


def test_build_refuses_bad_input_by_name(tmp_path):
    with pytest.raises(niclab.FirmwareBuildError, match="no such source file"):
        niclab.sdk.build([tmp_path / "missing.c"])
    (tmp_path / "ok.c").write_text("int main(void) { return 0; }\n")
    with pytest.raises(niclab.FirmwareBuildError, match="not a C identifier"):
        niclab.sdk.build([tmp_path / "ok.c"], name="has-dash", out_dir=tmp_path)
    with pytest.raises(niclab.FirmwareBuildError, match="exists and is not empty"):
        niclab.sdk.new("again", tmp_path)


def test_builtin_names_come_before_the_current_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "portals").mkdir()  # a local folder named like a built-in image
    nic = niclab.Nic(firmware="hello")
    assert nic.firmware.endswith("hello.elf")
    s = niclab.System({"preset": "seastar", "nodes": 2, "firmware": "portals"})
    assert s.nics[0].firmware.endswith("portals.elf") and "/firmware/portals/" in s.nics[0].firmware


def test_a_missing_image_lists_the_available_names():
    with pytest.raises(niclab.FirmwareNotFound, match=r"'no_such'.*built-in images: .*hello.*portals") as e:
        niclab.Nic(firmware="no_such")
    assert isinstance(e.value, niclab.FirmwareImageError) and isinstance(e.value, FileNotFoundError)
    assert e.value.rule == "not-found"
    with pytest.raises(niclab.FirmwareNotFound, match="no such file"):
        niclab.Nic(firmware="./nowhere/x.elf")


def test_a_firmware_that_is_neither_name_nor_path_is_a_config_error():
    with pytest.raises(niclab.ConfigError, match="firmware") as e:
        niclab.Nic(firmware=2)
    assert e.value.key_path == "firmware"
    with pytest.raises(niclab.ConfigError, match="firmware"):
        niclab.System({"preset": "seastar", "nodes": 2, "firmware": 2})


def test_fw_list_and_sdk(capsys):
    assert main(["fw", "list"]) == 0
    out = capsys.readouterr().out
    assert "portals " in out and "hello " in out and "SRAM" in out
    assert main(["fw", "sdk"]) == 0
    sdk = capsys.readouterr().out.strip()
    assert sdk.endswith("sdk") and (niclab.sdk.sdk_dir() / "include" / "niclab" / "fw" / "runtime.h").is_file()


def test_a_copy_of_the_portals_firmware_is_changed_built_and_measured(tmp_path, monkeypatch, capsys):
    """The researcher's loop on the real firmware: copy it, add a trace point, build the
    copy (several files, its own link script), and measure it beside the built-in one."""
    monkeypatch.chdir(tmp_path)
    assert main(["fw", "new", "myptl", "--from", "portals"]) == 0
    d = tmp_path / "myptl"
    assert (d / "pools.ld").is_file() and (d / "config.h").is_file() and (d / "rx.c").is_file()
    rx = (d / "rx.c").read_text()
    marker = "        trace_val(src);\n"
    assert marker in rx
    (d / "rx.c").write_text(rx.replace(marker, marker + "        trace_val(200);  /* the added trace point */\n", 1))
    assert main(["fw", "build", "myptl", "--trace", "--preset", "seastar"]) == 0
    out = capsys.readouterr().out
    assert "built" in out and "for preset seastar" in out and "pools" in out
    elf = d / "myptl.elf"
    mine = niclab.run("pingpong", firmware=elf, sizes=[8], warmup=1, repeats=2, trace=True)
    values = [int(v) for t in mine.traces for v in t.records["value"]]
    assert 200 in values, "the added trace point recorded"
    shipped = niclab.run("pingpong", firmware="portals_traced", sizes=[8], warmup=1, repeats=2)
    assert mine.latency_us[0] > shipped.latency_us[0], "the extra trace point costs time"


def test_project_build_errors_name_the_problem(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    with pytest.raises(niclab.FirmwareBuildError, match="without a CMakeLists.txt"):
        niclab.sdk.build([tmp_path / "empty"])
    with pytest.raises(niclab.FirmwareBuildError, match="no starter 'lanai'.*hello, portals"):
        niclab.sdk.new("x", tmp_path / "x", source="lanai")
    assert main(["fw", "build", str(tmp_path / "empty"), "--preset", "startx"]) != 0
    assert "FirmwareBuildError: --preset startx: its system 'startx' has a fixed-function NIC" in capsys.readouterr().err
