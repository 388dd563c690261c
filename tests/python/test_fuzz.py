"""Bad input to the Python layer is a typed niclab error naming what is wrong, never a
bare TypeError, ValueError, RuntimeError, UnicodeDecodeError or RecursionError: fuzz
targets for the parsers (a bounded number of inputs per run) and the cases found by an
outside fuzz campaign."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import niclab
from niclab.cli import main

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4),
    max_leaves=12)


@pytest.fixture(scope="module")
def result_json():
    return niclab.run("pingpong", sizes=[8, 64]).to_json()


@FUZZ
@given(key=st.sampled_from(["format", "version", "experiment", "columns", "rows", "params", "system", "firmware", "seed",
                            "simulator", "fit", "stopped", "planned", "label"]),
       value=json_values, drop=st.booleans())
def test_result_from_json_with_a_field_changed(result_json, key, value, drop):
    data = dict(result_json)
    if drop:
        data.pop(key, None)
    else:
        data[key] = value
    try:
        r = niclab.Result.from_json(data)
    except niclab.ResultError as e:
        assert str(e)
        return
    # What loads must be usable: its label, table and fit.
    assert isinstance(r.label, str) and isinstance(r.fit, dict)
    r.table()


@FUZZ
@given(raw=st.binary(max_size=200))
def test_result_load_of_arbitrary_bytes(tmp_path, raw):
    path = tmp_path / "r.json"
    path.write_bytes(raw)
    with pytest.raises(niclab.ResultError):
        niclab.Result.load(path)


def test_result_load_names_bad_encoding_and_depth(tmp_path):
    bad = tmp_path / "latin1.json"
    bad.write_bytes(b'{"format": "niclab-result", "label": "caf\xe9"}')
    with pytest.raises(niclab.ResultError, match="not UTF-8 text"):
        niclab.Result.load(bad)
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(niclab.ResultError, match="nested too deep"):
        niclab.Result.load(deep)


SPEC_KEYS = ["preset", "system", "nodes", "seed", "set", "parts", "firmware", "topology"]


@FUZZ
@given(spec=st.dictionaries(st.sampled_from(SPEC_KEYS) | st.text(max_size=5), json_values, max_size=4))
def test_system_spec_fuzz(spec):
    spec.setdefault("nodes", 1)
    if isinstance(spec["nodes"], int) and not isinstance(spec["nodes"], bool) and spec["nodes"] > 4:
        spec["nodes"] = 4  # a big valid cluster is not bad input, only slow
    try:
        niclab.System(spec)
    except (niclab.NiclabError, FileNotFoundError):
        pass


@pytest.mark.parametrize("spec", [["preset"], "seastar", 5, None.__class__])
def test_a_spec_that_is_not_a_mapping(spec):
    with pytest.raises(niclab.ConfigError, match="spec: expected a mapping"):
        niclab.System(spec)


@FUZZ
@given(key=st.sampled_from(["warmup", "repeats", "min_repeats", "max_repeats", "repeat_bytes", "max_size",
                            "min_size", "perturbation", "client", "server", "sizes", "op", "schedule"]),
       value=st.none() | st.booleans() | st.integers(max_value=-1) | st.integers(10**13, 2**80)
       | st.floats(allow_nan=True) | st.text(max_size=6) | st.lists(st.text(max_size=3), min_size=1, max_size=2))
def test_experiment_options_fuzz(key, value):
    options = {"sizes": [8], key: value}
    try:
        niclab.run("pingpong", **options)  # some are valid: a huge repeat_bytes, a max_size beside sizes
    except (niclab.ExperimentError, niclab.ConfigError) as e:
        assert key in str(e), f"the error does not name {key!r}: {e}"


@pytest.mark.parametrize("kwargs, error, words", [
    ({"set": "x"}, niclab.ConfigError, "set: expected a mapping"),
    ({"parts": ["bus"]}, niclab.ConfigError, "parts: expected a mapping"),
    ({"seed": -1}, niclab.ConfigError, "seed"),
    ({"seed": 2**70}, niclab.ConfigError, "seed"),
    ({"warmup": 10**12}, niclab.ExperimentError, "'warmup': expected an integer of at most"),
    ({"repeats": 10**12}, niclab.ExperimentError, "'repeats': expected an integer of at most"),
])
def test_run_arguments_found_by_the_campaign(kwargs, error, words):
    with pytest.raises(error, match=words):
        niclab.run("pingpong", sizes=[8], **kwargs)


def test_an_experiment_name_that_is_not_text():
    with pytest.raises(niclab.ExperimentError, match="experiment: expected a name"):
        niclab.run(5)


def test_a_non_utf8_symbol_name_keeps_the_firmware_fault(tmp_path, fw):
    # The faulting function's name in the ELF's string tables gets a byte that is not UTF-8.
    data = fw("fault_illegal").read_bytes()
    name = b"do_illegal_instruction\0"
    assert name in data
    patched = tmp_path / "fault_latin1.elf"
    patched.write_bytes(data.replace(name, b"\xe9" + name[1:]))
    nic = niclab.Nic(firmware=patched)
    with pytest.raises(niclab.FirmwareFault) as e:
        nic.run()
    assert "\ufffdo_illegal_instruction" in e.value.where and e.value.cause == "illegal instruction"
    assert "\ufffdo_illegal_instruction" in nic.where(e.value.pc)


def test_tracedump_refuses_a_negative_last(tmp_path, capsys):
    nic = niclab.Nic(firmware="trace_demo")
    nic.run(until_us=200)
    trace = nic.trace()
    with pytest.raises(niclab.TraceError, match="last: expected an integer >= 0"):
        trace.format(last=-1)
    with pytest.raises(niclab.TraceError, match="value: expected an integer 0..255"):
        trace.format(value=300)
    path = tmp_path / "t.trace"
    trace.save(path)
    assert main(["tracedump", str(path), "--last", "-1"]) == 1
    assert "last: expected an integer >= 0" in capsys.readouterr().err


def test_results_save_and_load_round_trip_as_json(tmp_path, result_json):
    path = tmp_path / "ok.json"
    path.write_text(json.dumps(result_json))
    assert len(niclab.Result.load(path)) == 2
