"""The CERN DSNIC from Python: Comms1 over CSP channels with the per-interrupt packet
count, and the packet-size rule as a ConfigError naming its key."""

import pytest

import niclab


def test_comms1_counts_packets_per_interrupt_and_delivers_every_byte():
    small = niclab.run("comms1", system="dsnic", transport="csp", sizes=[1, 4096], repeats=2,
                       per_interrupt=1, set={"dsnic.packet_bytes": 8})
    large = niclab.run("comms1", system="dsnic", transport="csp", sizes=[1, 4096], repeats=2,
                       per_interrupt=1, set={"dsnic.packet_bytes": 4096})
    ppi_small = small.columns["packets_per_interrupt"]
    ppi_large = large.columns["packets_per_interrupt"]
    # 512 eight-byte packets per message: interrupts coalesce; one 4 KB packet: at most one each.
    assert ppi_small[1] > 4 * ppi_large[1]
    assert 0 < ppi_large[1] <= 1
    # A 1-byte message with 4 KB packets moves a whole padded packet over PCI: slower.
    assert large.columns["latency_us"][0] > small.columns["latency_us"][0]


def test_per_interrupt_on_a_system_without_the_counts_is_an_error():
    with pytest.raises(niclab.ExperimentError) as e:
        niclab.run("comms1", system="startx", sizes=[8], per_interrupt=1)
    assert "per_interrupt" in str(e.value)


@pytest.mark.parametrize("bad", [12, 2, 8192])
def test_packet_size_must_be_a_power_of_two_from_8_to_4096(bad):
    with pytest.raises(niclab.ConfigError) as e:
        niclab.run("comms1", system="dsnic", sizes=[1], set={"dsnic.packet_bytes": bad})
    assert e.value.key_path == "dsnic.packet_bytes"
