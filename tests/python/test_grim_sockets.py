"""GRIM's sockets emulation (seed 004 §8.3) from Python: a connection, bytes both ways
across the fragment size, partial reads, close; bad calls as GrimSocketError naming the
socket; the sockets transport from the command line; Table 8.1's and Fig. 8.10's checks."""

import subprocess
import sys

import pytest

import niclab


def _pattern(n, k):
    return bytes(((i * 131 + k * 17 + (i >> 8)) ^ 0x5A) & 0xFF for i in range(n))


def _pair(firmware="grim", preset="grim-lanai9"):
    s = niclab.System({"preset": preset, "nodes": 2, "firmware": firmware})
    a, b = s.grim(0).sockets(), s.grim(1).sockets()
    fb = b.connect(0, 7)
    fa = a.accept(7)
    return s, a, b, fa, fb


def test_a_connection_moves_every_byte_both_ways_across_fragments():
    s, a, b, fa, fb = _pair()
    assert s.grim(0).sockets() is a
    for k, n in enumerate([1, 64, 64512, 64513, 200000]):
        b.write(fb, _pattern(n, k))
        assert a.read_exactly(fa, n) == _pattern(n, k)
        a.write(fa, _pattern(n, 50 + k))
        assert b.read_exactly(fb, n) == _pattern(n, 50 + k)
    # One block per fragment of 64,512 B: 1 + 1 + 1 + 2 + 4 each way.
    assert a.stats()["blocks"] == 9 and b.stats()["blocks"] == 9
    assert b.stats()["fragments_out"] == 9


def test_reads_take_what_has_come_and_end_at_the_peers_close():
    s, a, b, fa, fb = _pair()
    data = _pattern(10000, 3)
    b.write(fb, data)
    first = a.read(fa, 100)
    assert 1 <= len(first) <= 100
    rest = a.read_exactly(fa, len(data) - len(first) - 10)
    s.run(for_us=50)
    assert a.available(fa) == 10
    last = a.read(fa, 1000)
    assert first + rest + last == data
    b.close(fb)
    assert a.read(fa, 10) == b""
    with pytest.raises(niclab.GrimSocketError) as e:
        b.write(fb, b"x")
    assert e.value.fd == fb and e.value.node == 1 and f"fd {fb} is closed" in str(e.value)


def test_bad_calls_raise_grim_socket_error_naming_the_socket():
    s, a, b, fa, fb = _pair()
    with pytest.raises(niclab.GrimSocketError) as e:
        a.read(fa + 40, 4)
    assert e.value.fd == fa + 40 and f"no socket fd {fa + 40}" in str(e.value)
    with pytest.raises(niclab.GrimSocketError) as e:
        a.read_exactly(fa, 4)  # nothing was written: nothing will come
    assert "nothing in the system was left" in str(e.value) and e.value.node == 0
    with pytest.raises(niclab.GrimSocketError) as e:
        b.connect(5, 7)
    assert "no node 5" in str(e.value) and e.value.fd == -1
    with pytest.raises(niclab.GrimSocketError) as e:
        b.connect(0, 0)
    assert "port 0" in str(e.value)
    assert isinstance(e.value, niclab.NiclabError)


def test_pingpong_runs_over_the_sockets_transport_from_the_command_line():
    r = subprocess.run([sys.executable, "-m", "niclab", "run", "pingpong", "--preset", "grim-lanai4", "--transport", "sockets",
                        "--sizes", "4,65536", "--firmware", "grim"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "65536" in r.stdout


def test_the_sockets_transport_is_slower_than_active_messages():
    so = niclab.run("pingpong", preset="grim-lanai9", transport="sockets", sizes=[4, 200000], repeats=2, firmware="grim")
    am = niclab.run("pingpong", preset="grim-lanai9", transport="am", sizes=[4, 200000], repeats=2, firmware="grim")
    # At 4 B the emulation's ~1 us hides behind the NI's work after a delivery.
    assert so["latency_us"][0] >= am["latency_us"][0]
    assert so["latency_us"][1] > am["latency_us"][1]


def test_table_8_1_and_fig_8_10_are_checks():
    from niclab.validation_grim_sockets import validate_grim_sockets
    v = validate_grim_sockets(rows=["p3"])
    by = {c.key: c for c in v.checks}
    assert set(by) == {"sockets_p3_latency", "sockets_p3_bandwidth", "fig8_10_rise_p3", "fig8_10_dip_p3", "fig8_10_below_am_p3"}
    assert by["sockets_p3_latency"].published == 22.7 and by["sockets_p3_bandwidth"].published == 55.6
    assert "Table 8.1" in by["sockets_p3_latency"].source
    # Fig. 8.10's shape: rises to the fragment size and stays below AM. The dip past the
    # fragment size is a check the model misses (STATUS.md): only its value is tested.
    assert by["fig8_10_rise_p3"].simulated > 1
    assert by["fig8_10_below_am_p3"].simulated < 1
    bw = v.results["sockets_p3_bandwidth"]
    sizes = list(bw["size"])
    ratio = bw["bandwidth_mb_s"][sizes.index(64512 + 1024)] / bw["bandwidth_mb_s"][sizes.index(64512)]
    assert by["fig8_10_dip_p3"].simulated == pytest.approx(ratio)
    assert by["fig8_10_dip_p3"].bound == "below"
