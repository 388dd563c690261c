#pragma once
// The IEEE 1355 DS-link network the T9000 and the DSNIC share (seed 003): 100 Mbit/s
// serial links that carry every byte as a 10-bit token and end each packet with a 4-bit
// end-of-packet token, per-link flow control by 4-bit flow-control tokens (one per 8
// characters), and STC104 (C104) packet switches: 32 ports, wormhole routing on the
// packet's header from preloaded tables, a non-blocking crossbar, 1 µs switching
// latency (seed 003 L81, L95, L502, L574). The values live in the network part
// cpp/src/parts/network/ds-link-c104.json, which both systems' presets name; each
// system adds what is its own (largest packet, protocol characters, receive buffer).
//
// Parameters (all declared by every DS-link system):
//   net.link_mbit_s         signalling rate per direction
//   net.token_bits          bits per data character (10)
//   net.eop_bits            bits of the end-of-packet token (4)
//   net.fct_bits            bits of a flow-control token (4) ...
//   net.fct_chars           ... sent back for every this many characters received (8)
//   net.header_bytes        routing header characters per packet
//   net.protocol_bytes      characters of the system's own protocol per packet (its
//                           acknowledgements carry them too): T9000 0, DSNIC 3
//   net.max_payload         largest payload of one packet (T9000 32, DSNIC up to 4096)
//   net.link_latency_ns     cable and line drivers, one way
//   net.switch_latency_ns   C104 header-to-output latency
//   net.switch_buffer_chars C104 input buffer per link
//   net.receive_buffer_chars  the NIC's link input buffer
//   net.adaptive_routing    C104 grouped adaptive routing on (1) or table routing (0)
#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "niclab/net/network.hpp"
#include "niclab/system/preset.hpp"
#include "niclab/system/system_model.hpp"

namespace niclab::ds {

std::vector<system::ParameterDecl> network_parameters();
net::NetworkParams network_params(const system::Preset& preset);
// Two nodes: direct cables (one per port, link i to link i); up to 32 terminals (nodes
// × ports, system/terminals.hpp): one C104; more: a Clos network of C104s.
nlohmann::json default_topology(uint32_t nodes, uint32_t ports = 1);

}  // namespace niclab::ds
