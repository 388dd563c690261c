"""GRIM on Myrinet from Python and the command line: the presets build through the
generic System, the am, rm-p and rm-v transports run the experiments with every byte
checked and counted by the firmware (go-back-N under exhaustion, the ordering rule:
tests/cpp/grim), remote memory by virtual address through niclab.grim, and
``niclab validate grim`` prints Tables 5.3 and 5.4's rows."""

import subprocess
import sys

import pytest

import niclab


def test_a_grim_system_builds_from_its_preset_and_boots_the_lanai_firmware():
    s = niclab.System({"preset": "grim-lanai9", "nodes": 2})
    s.run(for_us=10)
    assert s.nic(0).console == "" and not s.nic(1).faulted


@pytest.mark.parametrize("transport", ["am", "rm-p", "rm-v"])
def test_pingpong_over_each_transport_moves_checked_bytes(transport):
    r = niclab.run("pingpong", preset="grim-lanai9", transport=transport, sizes=[4, 70000], repeats=2, counters=True)
    lat = r.columns["latency_us"]
    assert lat[1] > lat[0] > 0
    c = {o["node"]: o["counters"] for o in r.observations["counters"]}
    # 70000 B is two fragments: each acknowledged once, nothing refused.
    assert c[0]["grim.sent"] == c[1]["grim.received"] > 0
    assert c[0]["grim.acks_received"] == c[0]["grim.sent"]
    assert c[1]["grim.nacks_sent"] == 0


def test_the_lanai4_is_slower_than_the_lanai9():
    slow = niclab.run("pingpong", preset="grim-lanai4", transport="am", sizes=[4])
    fast = niclab.run("pingpong", preset="grim-lanai9", transport="am", sizes=[4])
    assert slow.columns["latency_us"][0] > 1.5 * fast.columns["latency_us"][0]


def test_a_bad_grim_parameter_is_a_config_error_naming_it():
    with pytest.raises(niclab.ConfigError) as e:
        niclab.System({"preset": "grim-lanai9", "nodes": 2, "set": {"lanai.sram_bytes": 12345}})
    assert "lanai.sram_bytes" in str(e.value)


def test_validate_grim_prints_table_5_4():
    r = subprocess.run([sys.executable, "-m", "niclab", "validate", "grim"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    for row in ("GRIM AM minimum latency, P3 + LANai 9", "GRIM RM-P maximum bandwidth, P4 + LANai 9, 64b/66MHz",
                "GRIM RM-V minimum latency, P3 + LANai 4", "GRIM RM-V maximum bandwidth, P4 + LANai 9, 64b/66MHz",
                "RM: search NI VM translation cache, miss, LANai 9", "RM: DMA translation request to host, LANai 4",
                "GRIM RM-P bandwidth over GM's, GM's method (one-way stream, 64 KB..2 MB), P3 + LANai 4"):
        assert row in r.stdout
    assert "Table 5.4 L1487-1494" in r.stdout and "Table 5.3 L1378-1387" in r.stdout and "%" in r.stdout


def test_endpoints_from_python_send_active_messages_and_rm_p_writes():
    s = niclab.System({"preset": "grim-lanai9", "nodes": 2, "firmware": "grim"})
    a, b = s.grim(0), s.grim(1)
    assert a.handler("hello") == b.handler("hello")
    a.am_send(1, "hello", [7, 8], b"payload bytes")
    got = b.wait(1)
    assert got == [{"src": 0, "handler": "hello", "args": [7, 8, 0, 0], "data": b"payload bytes"}]
    b.rm_write_p(0, 0x2500_0000, b"\x01\x02\x03", notify=0x2500_1000, value=42)
    s.run(for_us=100)
    assert s.host_memory(0).read(0x2500_0000, 3) == b"\x01\x02\x03"
    assert int.from_bytes(s.host_memory(0).read(0x2500_1000, 4), "little") == 42
    assert a.counters()["sent"] == 1 and b.counters()["rm_delivered"] == 0 and a.counters()["rm_delivered"] == 1
    with pytest.raises(niclab.NiclabError):
        a.am_send(1, "no such handler", [], b"")


def test_the_firmware_trace_gives_every_step_of_tables_5_1_and_5_2():
    from niclab.validation_grim import STEPS, ni_steps
    r = niclab.run("pingpong", preset="grim-lanai9", transport="am", sizes=[4], repeats=2, firmware="grim_traced", trace=True)
    steps = ni_steps(r)
    assert set(steps) == set(STEPS.values())
    assert all(v > 0 for v in steps.values())
    # The 4-byte DMAs cost at least App. A's 2 us minimum PCI DMA (L2249), the firmware steps less.
    assert steps["DMA message to host"] >= 2.0
    assert steps["verify sequencing information"] < 1.0


def _two_grim_nodes(firmware="grim"):
    s = niclab.System({"preset": "grim-lanai9", "nodes": 2, "firmware": firmware})
    return s, s.grim(0), s.grim(1)


def test_rm_v_transport_translates_through_the_static_entries_without_interrupts():
    r = niclab.run("pingpong", preset="grim-lanai9", transport="rm-v", sizes=[4, 70000], repeats=2, counters=True)
    c = {o["node"]: o["counters"] for o in r.observations["counters"]}
    for node in (0, 1):
        assert c[node]["grim.xlate_hits"] > 0
        assert c[node]["grim.xlate_misses"] == 0 and c[node]["grim.xlate_errors"] == 0
        assert c[node]["grim.rm_delivered"] == c[1 - node]["grim.sent"]
    # Translating costs the receiving NI time that RM-P does not spend.
    rmp = niclab.run("pingpong", preset="grim-lanai9", transport="rm-p", sizes=[4])
    assert r.columns["latency_us"][0] > rmp.columns["latency_us"][0]


def test_rm_write_v_and_rm_read_move_bytes_between_registered_memory():
    s, a, b = _two_grim_nodes()
    src, dst, word = a.malloc_pinned(8192), b.malloc_pinned(8192), b.malloc_pinned(4)
    data = bytes((i * 7 + 3) & 0xFF for i in range(5000))
    a.write(src, data)
    b.write(dst, b"\xee" * 8192)
    a.rm_write_v(1, dst + 10, src, len(data), notify=word, value=77)
    b.wait_word(word, 77)
    assert b.read(dst + 10, len(data)) == data
    assert b.read(dst, 10) == b"\xee" * 10 and b.read(dst + 10 + len(data), 100) == b"\xee" * 100
    # Read it back into page-pinned memory: the reply lands, then the lock is zeroed.
    local, lock = a.pin_pages(8192), a.malloc_pinned(4)
    a.write(local, b"\0" * 8192)
    a.write(lock, (1).to_bytes(4, "little"))
    a.rm_read(1, dst + 10, local + 3, len(data), lock)
    a.wait_word(lock, 0)
    assert a.read(local + 3, len(data)) == data and a.read(local, 3) == b"\0\0\0"
    s.run(for_us=100)  # the NI counts the reply after its last DMA, which the host saw land
    assert b.counters()["rm_reads_served"] == 1 and a.counters()["rm_read_replies"] == 1
    # The scattered pages of the destination went through the driver: one interrupt.
    assert a.counters()["xlate_misses"] == a.interrupts() == 1
    assert a.pa(local + 4096) != a.pa(local) + 4096


def test_a_miss_interrupts_the_host_once_and_the_entry_serves_the_next_write():
    s, a, b = _two_grim_nodes()
    src, pages, word = a.malloc_pinned(4096), b.pin_pages(16384), b.malloc_pinned(4)
    a.write(src, b"x" * 4096)
    for value in (1, 2):
        a.rm_write_v(1, pages + 100, src, 4096, notify=word, value=value)
        b.wait_word(word, value)
    assert b.read(pages + 100, 4096) == b"x" * 4096
    assert b.interrupts() == 1 and b.counters()["xlate_misses"] == 1


def test_unregistered_memory_is_a_typed_error_and_nothing_is_written():
    s, a, b = _two_grim_nodes()
    src = a.malloc_pinned(64)
    a.write(src, b"y" * 64)
    before = s.host_memory(1).read(0x9000_0000, 64)
    with pytest.raises(niclab.GrimMemoryError) as local:
        a.rm_write_v(1, 0x9000_0000, 0x9000_0000, 64)   # the source is not registered here
    assert local.value.node == 0 and local.value.va == 0x9000_0000
    a.rm_write_v(1, 0x9000_0000, src, 64)                 # nor is the target there
    with pytest.raises(niclab.GrimMemoryError) as remote:
        a.wait(1)
    assert remote.value.node == 1 and remote.value.va == 0x9000_0000
    assert "RM-V write refused" in str(remote.value) and "0x90000000" in str(remote.value)
    assert b.counters()["xlate_errors"] == 1 and a.counters()["remote_errors"] == 1
    assert s.host_memory(1).read(0x9000_0000, 64) == before


def test_the_firmware_trace_gives_the_steps_of_table_5_3():
    from niclab.validation_grim import rm_steps
    st = rm_steps("grim-lanai9")
    assert len(st) == 8 and all(v > 0 for v in st.values())
    assert st["search, miss"] > st["search, hit"]
    assert st["lock, non-cached"] > st["lock, cached"]
    # 17 pages cost the driver more page walks than one.
    assert st["host interrupt + translation, 17 pages"] > st["host interrupt + translation, 1 page"]
    # The PCI DMA of the request costs at least App. A's 2 us minimum (L2249).
    assert st["DMA translation request"] >= 2.0


def test_the_rm_v_transport_runs_from_the_command_line():
    r = subprocess.run([sys.executable, "-m", "niclab", "run", "pingpong", "--preset", "grim-lanai9", "--transport", "rm-v",
                        "--sizes", "4,65536"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "65536" in r.stdout


@pytest.mark.parametrize("image", ["grim_pipelined", "grim_cutthrough"])
def test_a_data_path_image_is_chosen_by_name_and_changes_the_large_message_times(image):
    # §5.5: the same 60 KB single-message ping-pong; store-and-forward takes it whole
    # through each stage in turn, the other data paths overlap the stages.
    sf = niclab.run("pingpong", preset="grim-lanai9", transport="rm-p", sizes=[4, 60000], counters=True)
    other = niclab.run("pingpong", preset="grim-lanai9", transport="rm-p", sizes=[4, 60000], firmware=image, counters=True)
    assert other.columns["latency_us"][1] < 0.8 * sf.columns["latency_us"][1]
    # Pipelined: the library sends 2 KB fragments (the preset's), each its own message:
    # 30 for each 60 KB message where store-and-forward sends one.
    sent = {o["node"]: o["counters"]["grim.sent"] for o in other.observations["counters"]}
    sent_sf = {o["node"]: o["counters"]["grim.sent"] for o in sf.observations["counters"]}
    if image == "grim_pipelined":
        assert sent[0] > 3 * sent_sf[0]
    else:
        assert sent[0] == sent_sf[0]


def test_the_cut_through_image_runs_from_the_command_line_and_validate_names_it():
    r = subprocess.run([sys.executable, "-m", "niclab", "run", "stream", "--preset", "grim-lanai9", "--transport", "am",
                        "--sizes", "65536", "--firmware", "grim_cutthrough"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "65536" in r.stdout
    from niclab.validation_grim import TABLE_5_4_FIRMWARE
    assert TABLE_5_4_FIRMWARE == "grim_cutthrough"


def test_gm_style_runs_measure_grim_as_gms_benchmarks_do_beside_gms_published_figures():
    from niclab.validation import published
    from niclab.validation_grim_gm import gm_style, validate_grim_gm
    g = gm_style("grim-lanai9")
    lat, stream = g["results"]
    # GM's latency is Table 5.4's: half the round trip of a 4-byte ping-pong.
    pp = niclab.run("pingpong", preset="grim-lanai9", transport="rm-p", sizes=[4], firmware="grim_cutthrough")
    assert g["latency_us"] == float(pp["latency_us"][0])
    # GM's bandwidth streams one way, so messages overlap: above the ping-pong figure at the same size.
    pp64 = niclab.run("pingpong", preset="grim-lanai9", transport="rm-p", sizes=[65536], firmware="grim_cutthrough")
    assert float(stream["bandwidth_mb_s"][0]) > float(pp64["bandwidth_mb_s"][0])
    assert g["bandwidth_mb_s"] == float(max(stream["bandwidth_mb_s"]))
    # The checks divide by GM's published figure (Table 5.6), one pair per row asked for.
    v = validate_grim_gm(rows=["p3_l9"])
    pub = published("grim")
    by_key = {c.key: c for c in v.checks}
    assert set(by_key) == {"t5_6_p3_l9_latency_vs_gm", "t5_6_p3_l9_bandwidth_vs_gm"}
    assert by_key["t5_6_p3_l9_latency_vs_gm"].simulated == pytest.approx(g["latency_us"] / pub["p3_l9_gm_latency"]["value"])
    assert by_key["t5_6_p3_l9_bandwidth_vs_gm"].simulated == pytest.approx(g["bandwidth_mb_s"] / 108)


def test_fig_5_8_runs_single_store_and_forward_messages_below_the_serial_limit():
    from niclab.validation import published
    from niclab.validation_grim_sf import SF_FIRMWARE, validate_grim_store_forward
    v = validate_grim_store_forward()
    by_key = {c.key: c for c in v.checks}
    assert set(by_key) == {f"sf_{t}_bandwidth_{k}" for t in ("am", "rmp") for k in ("l4", "l9")}
    pub = published("grim")
    for key, c in by_key.items():
        assert c.published == pub[key]["value"]
        # The three stages in series bound any store-and-forward run (L1407: 46.75 MB/s).
        assert 0 < c.simulated < 46.75
    # Store-and-forward is the slowest data path: the cut-through image moves the same
    # 64,512-byte message faster.
    sf = v.results["sf_am_l9"]
    ct = niclab.run("pingpong", preset="grim-lanai9", transport="am", sizes=[64512], firmware="grim_cutthrough")
    assert SF_FIRMWARE == "grim" and float(ct["bandwidth_mb_s"][0]) > float(sf["bandwidth_mb_s"][-1])


def test_the_data_path_figures_sweep_fragments_and_switch_cut_through_per_side():
    from niclab.validation_grim_datapaths import cut_through_variants, fragment_sweep, fragmentation_onset
    # Fig. 5.10: every fragment is a message, so 256-byte fragments pay the NI's per-message
    # work 16 times per 4 KB and stream far slower than 4 KB fragments.
    sweep = fragment_sweep("grim-lanai9", "rm-p", fragments=[256, 4096], sizes=[16384, 65536])
    assert set(sweep) == {256, 4096} and sweep[256] < 0.5 * sweep[4096]
    # The AM receiver copies fragments into its reassembly buffer, RM does not: AM loses
    # more as fragmentation starts.
    assert fragmentation_onset("grim-lanai9", "am", 2048) < fragmentation_onset("grim-lanai9", "rm-p", 2048)
    # Fig. 5.12: three different runs (the sender's cut-through, 1 KB segments, changes the time).
    ct = cut_through_variants("grim-lanai9", sizes=[16384])
    assert set(ct) == {"neither", "receiver", "both"} and ct["both"] != ct["receiver"] != ct["neither"]


def test_a_slow_consumer_exhausts_the_receivers_slots_and_go_back_n_loses_nothing():
    # stream's server_work_us: the receiving host works 100 us on each message, so its two
    # AM queue slots fill and its NI refuses the next (NACK); the sender's NI resends.
    fast = niclab.run("stream", preset="grim-lanai9", transport="am", sizes=[4096], counters=True, set={"grim.am_slots": 2})
    slow = niclab.run("stream", preset="grim-lanai9", transport="am", sizes=[4096], counters=True, set={"grim.am_slots": 2},
                      server_work_us=100)
    assert fast.counters[1]["grim.nacks_sent"] == 0 and fast.counters[0]["grim.retransmits"] == 0
    c0, c1 = slow.counters[0], slow.counters[1]
    assert c1["grim.nacks_sent"] > 0 and c0["grim.nacks_received"] == c1["grim.nacks_sent"] and c0["grim.retransmits"] > 0
    # Every message the client sent arrived once: originals = sent - resends = delivered.
    assert c0["grim.sent"] - c0["grim.retransmits"] == c1["grim.am_delivered"] == fast.counters[1]["grim.am_delivered"]
    # The consumer bounds the rate: at most one 4 KB message per 100 us.
    assert float(slow["bandwidth_mb_s"][0]) <= 4096 / 100.0
    with pytest.raises(niclab.ExperimentError, match="server_work_us"):
        niclab.run("stream", preset="grim-lanai9", transport="am", sizes=[64], server_work_us=-1)


def test_a_stream_over_a_bad_link_is_resent_until_every_checked_byte_is_in_once():
    """Myrinet has no link-level retry: bits flipped on the cables into the NIs are found by
    each packet's CRC at the receiving LANai, the message is dropped and go-back-N resends
    it (tests/cpp/grim/test_grim_link_errors.cpp). The transport checks every byte."""
    def stream(ber):
        return niclab.run("stream", preset="grim-lanai9", transport="am", sizes=[9000], repeats=150, warmup=0, counters=True,
                          set={"net.bit_errors_per_1e15": ber, "grim.resend_timeout_us": 2000})
    clean, lossy = stream(0), stream(2_000_000_000)  # 2e-6 a bit
    c, k = lossy.counters, clean.counters
    assert c[1]["nic.recv_crc_errors"] > 10 and c[1]["grim.crc_drops"] > 0
    assert c[0]["grim.retransmits"] > 0 and c[0]["grim.undeliverable"] == 0
    # Every message accepted once: as many as without errors.
    assert c[1]["grim.received"] == k[1]["grim.received"] == k[0]["grim.sent"]
    assert k[0]["grim.retransmits"] == k[0]["grim.timeouts"] == k[1]["nic.recv_crc_errors"] == 0
    assert lossy.columns["bandwidth_mb_s"][0] < clean.columns["bandwidth_mb_s"][0]


def test_a_message_nobody_answers_is_given_up_and_the_sender_told():
    s = niclab.System({"preset": "grim-lanai9", "nodes": 2, "firmware": "grim",
                       "set": {"net.bit_errors_per_1e15": 10**13, "grim.resend_timeout_us": 200, "grim.resend_limit": 3}})
    a, b = s.grim(0), s.grim(1)
    b.handler("lost")
    a.am_send(1, "lost", [1], b"y" * 1000)  # 1e-2 a bit into node 1: every copy is corrupted
    with pytest.raises(niclab.GrimDeliveryError, match="node 0: an active message to node 1 was given up") as e:
        a.wait(1)
    assert e.value.node == 1 and e.value.type == 1


def test_a_multicast_nobody_answers_is_given_up_with_its_article():
    s = niclab.System({"preset": "grim-lanai9", "nodes": 2, "firmware": "grim",
                       "set": {"net.bit_errors_per_1e15": 10**13, "grim.resend_timeout_us": 200, "grim.resend_limit": 3}})
    a, b = s.grim(0), s.grim(1)
    a.handler("mc")
    b.handler("mc")
    tree = b.find_multicast_tree("lost.tree")
    b.subscribe_multicast(tree)  # node 1 is the root: the injection crosses the bad link
    a.send_mc(tree, "mc", [1], b"z" * 100)
    with pytest.raises(niclab.GrimDeliveryError, match="node 0: a multicast to node 1 was given up") as e:
        a.wait(1)
    assert e.value.node == 1 and e.value.type == 6  # GRIM_T_MC


@pytest.mark.parametrize("transport", ["am", "sockets"])
def test_bidir_of_4_mb_finishes(transport):
    """Both sides write 4 MB at once: the library polls while it waits for send-queue room
    (it used to stall for ever; tests/cpp/grim/test_grim_bidir.cpp bounds it in time)."""
    r = niclab.run("bidir", preset="grim-lanai9", transport=transport, sizes=[4 << 20], repeats=1, warmup=0)
    assert r.columns["bandwidth_mb_s"][0] > 50
