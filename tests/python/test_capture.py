"""Packet captures (pcapng) read back by tshark with niclab's Lua dissector: what was sent
is what tshark shows (Portals match bits, StarT-X/JAM words, T9000 virtual links, DSNIC
CSP packets), at the simulated times, with typed errors for bad taps.

tshark is a Debian package that scripts/install-system-deps.sh installs (`make test`
does); without it these tests fail, saying so, rather than skip."""

import os
import shutil
import subprocess
import sys
from decimal import Decimal

import pytest

import niclab
from niclab import CaptureError, ConfigError, portals

TSHARK = shutil.which("tshark")
DISSECTOR = niclab.capture.dissector_path()


def _tshark_base():
    if TSHARK is None:
        pytest.fail("tshark is not installed: `make test` (scripts/install-system-deps.sh) installs the Debian package "
                    "tshark, which these tests read captures with")
    return [TSHARK, "-n", "-X", f"lua_script:{DISSECTOR}"]


@pytest.fixture(scope="module")
def dissector_loaded():
    """tshark runs niclab.lua. Debian's Wireshark runs -X lua_script scripts for root
    (init.lua: run_user_scripts_when_superuser = true; CI runs as root); a build that
    disables them would leave every niclab field unknown, so say that plainly."""
    base = _tshark_base()
    p = subprocess.run([base[0], "-G", "protocols"] + base[1:], capture_output=True, text=True, timeout=120)
    names = {line.split("\t")[2] for line in p.stdout.splitlines() if line.count("\t") >= 2}
    if not {"niclab", "portals", "startx", "jam", "t9000", "dsnic"} <= names:
        hint = (" (running as root: this Wireshark's init.lua may disable Lua user scripts for the superuser, "
                "run_user_scripts_when_superuser)" if os.geteuid() == 0 else "")
        pytest.fail(f"tshark did not load {DISSECTOR}{hint}: {p.stderr.strip()}")
    return True


def tshark(path, fields, display_filter=None):
    """One dict per frame: field -> text (tshark -T fields)."""
    cmd = _tshark_base() + ["-r", str(path), "-T", "fields", "-E", "separator=\t", "-E", "occurrence=f"]
    for f in fields:
        cmd += ["-e", f]
    if display_filter:
        cmd += ["-Y", display_filter]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    stderr = [line for line in p.stderr.splitlines() if line.strip() and "could be dangerous" not in line]
    assert p.returncode == 0 and not stderr, f"{' '.join(cmd)}\n{p.stderr}"
    return [dict(zip(fields, line.split("\t"))) for line in p.stdout.splitlines()]


def ns(epoch_text):
    """frame.time_epoch (seconds, 9 decimals) as integer nanoseconds."""
    return int(Decimal(epoch_text) * 1_000_000_000)


def flag(text):
    return text in ("1", "True", "true")


def put_pair(match_bits=0x0123456789ABCDEF, length=100):
    s = niclab.System({"nodes": 2, "firmware": "portals"})
    a, b = s.portals(0), s.portals(1)
    eq = b.eq_alloc(16)
    me = b.me_attach(pt_index=4, match_bits=match_bits)
    b.md_attach(me, start=0x200000, length=4096, options=portals.OP_PUT, eq=eq)
    s.host_memory(0).write(0x100000, bytes(range(length)))
    return s, a, b, eq


def test_a_portals_put_shows_its_match_bits_at_the_simulated_times(tmp_path, dissector_loaded):
    s, a, b, eq = put_pair()
    path = tmp_path / "put.pcapng"
    with s.capture(path, nodes=[0, 1]) as cap:
        assert cap.interfaces == ["node 0", "node 1"]
        a.put(a.md_bind(start=0x100000, length=100), target=(1, 0), pt_index=4, match_bits=0x0123456789ABCDEF,
              hdr_data=0x42)
        s.run(for_us=100)
    # The put's three packets seen leaving node 0 and arriving at node 1, and node 1's
    # firmware acknowledging it (go-back-N: a header-only FW_ACK once it is idle,
    # README "Resource exhaustion: go-back-N") leaving node 1 and arriving at node 0.
    assert cap.closed and cap.packets == 8
    events = b.events(eq)
    assert [e.kind for e in events] == ["PUT_START", "PUT_END"]

    fields = ["frame.interface_name", "frame.packet_flags_direction", "frame.time_epoch", "niclab.src", "niclab.dst",
              "niclab.seq", "niclab.head", "niclab.tail", "niclab.len", "niclab.msg_bytes", "niclab.link_crc_good",
              "portals.op", "portals.match_bits", "portals.pt_index", "portals.length", "portals.hdr_data",
              "portals.src_nid"]
    frames = tshark(path, fields)
    acks = [f for f in frames if f["portals.op"] == "129"]  # PTL_MSG_FW_ACK
    assert [(f["frame.interface_name"], f["niclab.src"], f["niclab.dst"]) for f in acks] == [
        ("node 1", "1", "0"), ("node 0", "1", "0")]
    frames = [f for f in frames if f not in acks]
    # 64 header bytes + 100 payload bytes in 64-byte frames: three packets, seen leaving
    # node 0 and arriving at node 1.
    out = [f for f in frames if f["frame.interface_name"] == "node 0"]
    inb = [f for f in frames if f["frame.interface_name"] == "node 1"]
    assert [f["niclab.seq"] for f in out] == [f["niclab.seq"] for f in inb] == ["0", "1", "2"]
    assert [f["niclab.len"] for f in out] == ["64", "64", "36"]
    assert all(f["frame.packet_flags_direction"] in ("2", "0x2", "0x00000002") for f in out)
    assert all(f["frame.packet_flags_direction"] in ("1", "0x1", "0x00000001") for f in inb)
    assert all(f["niclab.src"] == "0" and f["niclab.dst"] == "1" and f["niclab.msg_bytes"] == "164" for f in frames)
    assert all(flag(f["niclab.link_crc_good"]) for f in frames)
    head = out[0]
    assert flag(head["niclab.head"]) and not flag(head["niclab.tail"]) and flag(out[2]["niclab.tail"])
    assert head["portals.op"] == "1"  # PUT
    assert int(head["portals.match_bits"], 16) == 0x0123456789ABCDEF
    assert int(head["portals.hdr_data"], 16) == 0x42
    assert (head["portals.pt_index"], head["portals.length"], head["portals.src_nid"]) == ("4", "100", "0")
    assert out[1]["portals.op"] == ""  # payload packets carry no Portals header

    # Simulated time in ns: a packet is recorded leaving when the NIC injects it and
    # arriving when it is in the receiver, so the differences are the latencies the
    # network measured itself; the target's NIC learns of the put after the header is in.
    sent = [ns(f["frame.time_epoch"]) for f in out]
    arrived = [ns(f["frame.time_epoch"]) for f in inb]
    assert 0 < sent[0] <= sent[1] <= sent[2] and arrived[0] < arrived[1] < arrived[2]
    stats = s.network_stats()
    assert stats["packets_delivered"] == 4  # and the firmware's FW_ACK
    latencies = [a - t for t, a in zip(sent, arrived)] + [ns(acks[1]["frame.time_epoch"]) - ns(acks[0]["frame.time_epoch"])]
    assert sum(latencies) / 4 == pytest.approx(stats["mean_latency_ns"], abs=1.0)
    assert max(latencies) == pytest.approx(stats["max_latency_ns"], abs=1.0)
    assert arrived[0] <= events[0].time_us * 1000 and arrived[2] <= events[1].time_us * 1000
    assert arrived[2] <= s.now_us * 1000


def test_a_get_shows_the_request_and_its_reply(tmp_path, dissector_loaded):
    s = niclab.System({"nodes": 2, "firmware": "portals"})
    a, b = s.portals(0), s.portals(1)
    me = b.me_attach(pt_index=2, match_bits=0xFEDCBA9876543210, source=(0, 0))
    b.md_attach(me, start=0x300000, length=500, options=portals.OP_GET)
    s.host_memory(1).write(0x300000, bytes(range(250)) * 2)
    path = tmp_path / "get.pcapng"
    with s.capture(path, nodes=[0]):
        a.get(a.md_bind(start=0x400000, length=500), target=(1, 0), pt_index=2, match_bits=0xFEDCBA9876543210)
        s.run(for_us=200)
    frames = tshark(path, ["frame.packet_flags_direction", "portals.op", "portals.match_bits", "portals.length",
                           "portals.mlength", "niclab.src"], display_filter="portals.op")
    # GET out; node 1's firmware acknowledges it once idle (go-back-N's FW_ACK), before
    # its host has the REPLY ready; REPLY in; node 0's firmware acknowledges that.
    assert [(f["portals.op"], f["niclab.src"]) for f in frames] == [("2", "0"), ("129", "1"), ("3", "1"), ("129", "0")]
    frames = [frames[0], frames[2]]
    get, reply = frames
    assert int(get["portals.match_bits"], 16) == 0xFEDCBA9876543210 and get["portals.length"] == "500"
    assert reply["portals.mlength"] == "500"


def test_the_first_packet_leaves_when_the_message_is_injected(tmp_path, dissector_loaded):
    """A StarT-X message is a single packet: the capture's first record is its injection,
    the receiver's record its arrival, and between them the latency the network measured."""
    s = niclab.System({"system": "startx", "nodes": 2})
    a, b = s.jam(0), s.jam(1)
    path = tmp_path / "startx.pcapng"
    cap = s.capture(path)  # every node
    data = b"hello, StarT-X!! the capture sees this."[:36]
    sent = a.send(1, data, priority="low")
    m = b.receive("low")
    cap.close()
    frames = tshark(path, ["frame.interface_name", "frame.time_epoch", "startx.down_route", "startx.priority",
                           "startx.payload_words", "startx.random_up", "jam.sender", "jam.kind", "jam.data",
                           "niclab.vnet", "niclab.src", "niclab.dst"])
    assert [f["frame.interface_name"] for f in frames] == ["node 0", "node 1"]
    out, inb = frames
    for f in frames:
        assert (f["startx.down_route"], f["startx.priority"], f["startx.payload_words"]) == ("1", "0", "9")
        assert (f["jam.sender"], f["jam.kind"], f["niclab.src"], f["niclab.dst"]) == ("0", "0", "0", "1")
        assert bytes.fromhex(f["jam.data"].replace(":", "")) == data
        assert f["niclab.vnet"] == "1"  # low priority: Arctic's second virtual network
    t_out, t_in = ns(out["frame.time_epoch"]), ns(inb["frame.time_epoch"])
    # The message launches after the send call began (its last word, posted on PCI,
    # launches it), and is in node 1 before it is read there.
    assert sent["start_us"] * 1000 <= t_out
    assert t_out < t_in <= m.time_us * 1000
    assert t_in - t_out == pytest.approx(s.network_stats()["mean_latency_ns"], abs=1.0)


def test_dsnic_csp_packets_show_kind_virtual_link_sequence_and_data(tmp_path, dissector_loaded):
    s = niclab.System({"system": "dsnic", "nodes": 2, "set": {"dsnic.packet_bytes": 1024}})
    a, b = s.csp(0), s.csp(1)
    a.open(1)
    b.open(0)
    path = tmp_path / "dsnic.pcapng"
    data = bytes((7 * i) % 251 for i in range(2500))
    with s.capture(path, nodes=[0]):
        a.send(1, data, tag=9)
        assert b.recv(0)["data"] == data
    frames = tshark(path, ["frame.packet_flags_direction", "dsnic.kind", "dsnic.vl", "dsnic.seq", "dsnic.tag",
                           "dsnic.data", "niclab.len"])
    out = [f for f in frames if f["frame.packet_flags_direction"] in ("2", "0x2", "0x00000002")]
    back = [f for f in frames if f not in out]
    # 2500 bytes in 1024-byte packets: two full ones and a last one of 452 bytes.
    assert [(f["dsnic.kind"], f["dsnic.seq"], f["niclab.len"]) for f in out] == [
        ("0", "0", "1024"), ("0", "1", "1024"), ("1", "2", "452")]
    assert {f["dsnic.vl"] for f in frames} == {"0"}
    assert out[2]["dsnic.tag"] == "9"
    assert b"".join(bytes.fromhex(f["dsnic.data"].replace(":", "")) for f in out) == data
    # What node 0 hears back is the protocol: acknowledgements and credits, no data.
    assert back and {f["dsnic.kind"] for f in back} <= {"2", "3"} and all(f["niclab.len"] == "0" for f in back)


def test_t9000_virtual_link_packets_from_an_experiment(tmp_path, dissector_loaded):
    path = tmp_path / "t9000.pcapng"
    r = niclab.run("pingpong", system="t9000", transport="vl", sizes=[40], capture={"file": path, "nodes": [0]})
    assert len(r) == 1
    frames = tshark(path, ["frame.packet_flags_direction", "t9000.vl", "t9000.ack", "t9000.packet",
                           "t9000.end_of_message", "niclab.len"])
    out = [f for f in frames if f["frame.packet_flags_direction"] in ("2", "0x2", "0x00000002")]
    data = [f for f in out if not flag(f["t9000.ack"])]
    assert data and len(data) % 2 == 0
    # Each 40-byte message is a 32-byte packet and an 8-byte one that ends the message.
    for first, second in zip(data[::2], data[1::2]):
        assert (first["t9000.packet"], first["niclab.len"], flag(first["t9000.end_of_message"])) == ("0", "32", False)
        assert (second["t9000.packet"], second["niclab.len"], flag(second["t9000.end_of_message"])) == ("1", "8", True)
    # Node 0 acknowledges every data packet node 1 sends it, with an empty packet.
    inbound_data = [f for f in frames if f not in out and not flag(f["t9000.ack"])]
    acks = [f for f in out if flag(f["t9000.ack"])]
    assert len(acks) == len(inbound_data) > 0 and all(f["niclab.len"] == "0" for f in acks)


def test_capturing_changes_no_result_and_the_file_is_deterministic(tmp_path):
    plain = niclab.run("pingpong", sizes=[8, 200])
    first = niclab.run("pingpong", sizes=[8, 200], capture=tmp_path / "a.pcapng")
    again = niclab.run("pingpong", sizes=[8, 200], capture=str(tmp_path / "b.pcapng"))
    assert list(plain.latency_us) == list(first.latency_us) == list(again.latency_us)
    assert (tmp_path / "a.pcapng").read_bytes() == (tmp_path / "b.pcapng").read_bytes()
    assert "capture" not in first.system  # an observation, not part of the system


def test_a_link_tap_and_reading_between_runs(tmp_path, dissector_loaded):
    s, a, b, eq = put_pair(match_bits=5, length=10)
    links = s.links()
    assert links == ["node 0 -> node 1", "node 1 -> node 0"]
    path = tmp_path / "link.pcapng"
    cap = s.capture(path, links=[0])
    assert cap.interfaces == ["link 0"]
    a.put(a.md_bind(start=0x100000, length=10), target=(1, 0), pt_index=4, match_bits=5)
    s.run(for_us=50)
    # Written out after the run, before the capture is closed.
    frames = tshark(path, ["frame.interface_name", "frame.interface_description", "frame.packet_flags_direction",
                           "portals.match_bits", "portals.inline", "portals.inline_data"])
    assert len(frames) == 1 == cap.packets  # 10 bytes travel inside the header packet
    f = frames[0]
    assert (f["frame.interface_name"], f["frame.interface_description"]) == ("link 0", "node 0 -> node 1")
    assert f["frame.packet_flags_direction"] in ("", "0", "0x0", "0x00000000")
    assert int(f["portals.match_bits"], 16) == 5 and flag(f["portals.inline"])
    assert bytes.fromhex(f["portals.inline_data"].replace(":", "")) == bytes(range(10))
    cap.close()
    cap.close()  # once is enough; again does nothing


def test_a_capture_in_the_spec_and_the_command_line(tmp_path, dissector_loaded):
    spec_file = tmp_path / "spec.pcapng"
    s = niclab.System({"system": "startx", "nodes": 2, "capture": {"file": spec_file, "nodes": [1]}})
    s.jam(0).send(1, bytes(8))
    s.jam(1).receive("high")
    del s  # the system closes its capture
    assert [f["frame.interface_name"] for f in tshark(spec_file, ["frame.interface_name"])] == ["node 1"]

    cli = tmp_path / "cli.pcapng"
    p = subprocess.run([sys.executable, "-m", "niclab", "run", "pingpong", "--sizes", "8", "--quiet", "--capture",
                        str(cli), "--capture-nodes", "1"], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    frames = tshark(cli, ["frame.interface_name", "portals.op"], display_filter="portals.op == 1")
    assert frames and {f["frame.interface_name"] for f in frames} == {"node 1"}

    p = subprocess.run([sys.executable, "-m", "niclab", "capture", "--print-dissector"], capture_output=True, text=True)
    assert p.returncode == 0 and p.stdout.strip() == str(DISSECTOR) and DISSECTOR.is_file()
    plugins = tmp_path / "plugins"
    p = subprocess.run([sys.executable, "-m", "niclab", "capture", "--install-dissector", "--plugin-dir", str(plugins)],
                       capture_output=True, text=True)
    assert p.returncode == 0 and (plugins / "niclab.lua").read_bytes() == DISSECTOR.read_bytes()


def test_bad_taps_and_files_are_typed_errors_naming_them(tmp_path):
    s = niclab.System({"nodes": 2})
    path = tmp_path / "x.pcapng"
    with pytest.raises(CaptureError) as e:
        s.capture(path, nodes=[0, 5])
    assert e.value.tap == "node 5" and "node 5 does not exist: the system has nodes 0..1" in str(e.value)
    with pytest.raises(CaptureError) as e:
        s.capture(path, links=[999])
    assert e.value.tap == "link 999" and "the network has links 0..1" in str(e.value)
    with pytest.raises(CaptureError) as e:
        s.capture(path, nodes=["zero"])
    assert "node 'zero' is not a node id" in str(e.value)
    with pytest.raises(CaptureError) as e:
        s.capture(path, links=[-1])
    assert e.value.tap == "link -1"
    assert not path.exists()  # refused before the file was made
    bad_dir = tmp_path / "missing" / "x.pcapng"
    with pytest.raises(CaptureError) as e:
        s.capture(bad_dir)
    assert e.value.path == str(bad_dir) and str(bad_dir) in str(e.value)

    cap = s.capture(path, nodes=[1])
    with pytest.raises(CaptureError, match="already capturing"):
        s.capture(tmp_path / "second.pcapng")
    cap.close()
    s.capture(tmp_path / "second.pcapng").close()  # after closing, another may start

    with pytest.raises(CaptureError, match="one node has no network"):
        niclab.System({"nodes": 1}).capture(path)
    with pytest.raises(CaptureError, match="net_throughput"):
        niclab.run("net_throughput", capture=path)
    with pytest.raises(ConfigError) as e:
        niclab.System({"nodes": 2, "capture": {"file": str(path), "node": [1]}})
    assert e.value.key_path == "capture.node"
    with pytest.raises(CaptureError) as e:
        niclab.run("pingpong", sizes=[8], capture={"file": path, "links": [7]})
    assert e.value.tap == "link 7"
