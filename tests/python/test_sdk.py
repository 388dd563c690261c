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
