-- niclab.lua: Wireshark dissector for niclab's packet captures.
--
-- niclab (a simulator of network interfaces and their networks) writes pcapng files
-- whose interfaces use LINKTYPE_USER0 (147, Wireshark's encapsulation USER0): each
-- frame is a small capture header, niclab's packet header and the payload, as a
-- simulated cable carried it. The layout is in niclab's traces/CAPTURE.md. The
-- payload format byte says which system made the packets:
--   SeaStar   64-byte frames; a Portals message's first packet is its Portals header
--   StarT-X   Arctic messages: the hardware header word, JAM's word, payload words
--   T9000     virtual-link packets and acknowledgements (the VCP's protocol)
--   DSNIC     CSP packets: the three protocol characters ride in the message id
--
-- Use:  tshark -X lua_script:niclab.lua -r run.pcapng
--       tshark -X lua_script:niclab.lua -r run.pcapng -T fields -e niclab.src -e portals.match_bits
-- or copy this file into Wireshark's personal Lua plugins folder
-- (~/.local/lib/wireshark/plugins/, `niclab capture --install-dissector`).
--
-- Written for the Lua of Wireshark 3.x and 4.x (5.1 to 5.4): bit operations through
-- Wireshark's BitOp library (the global `bit`), which every version ships.

local bit = bit

local FORMATS = { [0] = "raw", [1] = "SeaStar", [2] = "StarT-X", [3] = "T9000", [4] = "DSNIC" }
local FRAME_VERSION = 1
local HEADER_BYTES = 37  -- version 1: capture header (10) + packet header (27)

---------------------------------------------------------------------------------------
-- niclab: the capture header and the network's packet header (every frame)
---------------------------------------------------------------------------------------
local niclab = Proto("niclab", "niclab simulated network packet")
local nf = niclab.fields
nf.version = ProtoField.uint8("niclab.version", "Capture layout version")
nf.hdr_len = ProtoField.uint8("niclab.hdr_len", "Capture header length")
nf.format = ProtoField.uint8("niclab.format", "Payload format", base.DEC, FORMATS)
nf.vc = ProtoField.uint8("niclab.vc", "Virtual channel on this cable")
nf.cflags = ProtoField.uint8("niclab.capture_flags", "Capture flags", base.HEX)
nf.corrupted = ProtoField.bool("niclab.corrupted", "Corrupted (a bit flipped on a link with retry off)", 8, nil, 0x01)
nf.retries = ProtoField.uint8("niclab.retries", "Link-level retries before this copy")
nf.link_crc = ProtoField.uint16("niclab.link_crc", "Link CRC (CRC-16-CCITT)", base.HEX)
nf.link_crc_good = ProtoField.bool("niclab.link_crc_good", "Link CRC good")
nf.src = ProtoField.uint32("niclab.src", "Source node")
nf.dst = ProtoField.uint32("niclab.dst", "Destination node")
nf.msg_id = ProtoField.uint32("niclab.msg_id", "Message id", base.HEX_DEC)
nf.seq = ProtoField.uint16("niclab.seq", "Packet number in its message")
nf.pflags = ProtoField.uint8("niclab.packet_flags", "Packet flags", base.HEX)
nf.head = ProtoField.bool("niclab.head", "Head (first packet of its message)", 8, nil, 0x01)
nf.tail = ProtoField.bool("niclab.tail", "Tail (last packet of its message)", 8, nil, 0x02)
nf.random_up = ProtoField.bool("niclab.random_up_route", "Random up-route", 8, nil, 0x04)
nf.vnet = ProtoField.uint8("niclab.vnet", "Virtual network (0: highest priority)")
nf.route_bytes = ProtoField.uint8("niclab.route_bytes", "Source-route bytes at the payload's start")
nf.len = ProtoField.uint16("niclab.len", "Payload length")
nf.msg_bytes = ProtoField.uint32("niclab.msg_bytes", "Message bytes")
nf.msg_crc = ProtoField.uint32("niclab.msg_crc", "Message CRC", base.HEX)
nf.payload = ProtoField.bytes("niclab.payload", "Payload")

local ef_bad_crc = ProtoExpert.new("niclab.link_crc_bad", "Link CRC does not match the packet",
                                   expert.group.CHECKSUM, expert.severity.ERROR)
local ef_corrupted = ProtoExpert.new("niclab.corrupted.expert", "Delivered with a flipped bit (link retry off)",
                                     expert.group.MALFORMED, expert.severity.WARN)
local ef_version = ProtoExpert.new("niclab.version.unknown", "Capture layout version this dissector does not know",
                                   expert.group.UNDECODED, expert.severity.WARN)
niclab.experts = { ef_bad_crc, ef_corrupted, ef_version }

niclab.prefs.portals = Pref.bool("Decode Portals headers", true,
                                 "Decode a SeaStar message's first packet as a Portals header when it looks like one")

-- CRC-16-CCITT, "CCITT-FALSE" (poly 0x1021, init 0xFFFF, no reflection): niclab's link CRC.
local crc16_table = {}
for i = 0, 255 do
    local c = bit.lshift(i, 8)
    for _ = 1, 8 do
        if bit.band(c, 0x8000) ~= 0 then c = bit.bxor(bit.lshift(c, 1), 0x1021) else c = bit.lshift(c, 1) end
        c = bit.band(c, 0xFFFF)
    end
    crc16_table[i] = c
end
local function crc16(tvb, offset, length, crc)
    for i = offset, offset + length - 1 do
        local x = bit.band(bit.bxor(bit.rshift(crc, 8), tvb(i, 1):uint()), 0xFF)
        crc = bit.band(bit.bxor(bit.lshift(crc, 8), crc16_table[x]), 0xFFFF)
    end
    return crc
end

-- Bytes of a payload Tvb, which is nil for a packet without payload (a T9000 or DSNIC ack).
local function plen(p) return p and p:len() or 0 end
local H = { src = 10, dst = 14, msg_id = 18, seq = 22, pflags = 24, vnet = 25, route = 26, len = 27,
            msg_bytes = 29, msg_crc = 33 }

---------------------------------------------------------------------------------------
-- Portals 3.3 header (firmware/sdk/include/niclab/fw/portals_fw.h, struct ptl_hdr)
---------------------------------------------------------------------------------------
local portals = Proto("portals", "Portals 3.3 header (SeaStar)")
local PTL_OPS = { [1] = "PUT", [2] = "GET", [3] = "REPLY", [4] = "ACK",
                  [0x81] = "FW_ACK", [0x82] = "FW_NACK" }  -- the last two: go-back-N control, firmware to firmware
local pf = portals.fields
pf.op = ProtoField.uint8("portals.op", "Operation", base.DEC, PTL_OPS)
pf.flags = ProtoField.uint8("portals.flags", "Flags", base.HEX)
pf.ack_req = ProtoField.bool("portals.ack_req", "Acknowledgement requested", 8, nil, 0x01)
pf.inline = ProtoField.bool("portals.inline", "Payload inline in the header", 8, nil, 0x02)
pf.pt_index = ProtoField.uint16("portals.pt_index", "Portal table index")
pf.src_nid = ProtoField.uint32("portals.src_nid", "Initiator node id")
pf.src_pid = ProtoField.uint16("portals.src_pid", "Initiator process id")
pf.dst_pid = ProtoField.uint16("portals.dst_pid", "Target process id")
pf.length = ProtoField.uint32("portals.length", "Length")
pf.match_bits = ProtoField.uint64("portals.match_bits", "Match bits", base.HEX)
pf.offset = ProtoField.uint32("portals.offset", "Offset")
pf.md_cookie = ProtoField.uint32("portals.md_cookie", "Initiator MD cookie", base.HEX)
pf.hdr_data = ProtoField.uint64("portals.hdr_data", "Header data", base.HEX)
pf.mlength = ProtoField.uint32("portals.mlength", "Manipulated length")
pf.uid = ProtoField.uint16("portals.uid", "User id")
pf.ac_index = ProtoField.uint16("portals.ac_index", "Access control index")
pf.seq = ProtoField.uint16("portals.seq", "Go-back-N sequence number")
pf.ack = ProtoField.uint16("portals.ack", "Go-back-N cumulative ACK (next expected)")
pf.inline_data = ProtoField.bytes("portals.inline_data", "Inline data")

local PTL_HDR_BYTES = 64

local function looks_like_portals(p)
    if plen(p) < PTL_HDR_BYTES then return false end
    local op, flags = p(0, 1):uint(), p(1, 1):uint()
    return PTL_OPS[op] ~= nil and bit.band(flags, 0xFC) == 0
end

local function dissect_portals(p, pinfo, tree)
    local t = tree:add(portals, p(0, PTL_HDR_BYTES))
    local op = p(0, 1):uint()
    t:add(pf.op, p(0, 1))
    local ft = t:add(pf.flags, p(1, 1))
    ft:add(pf.ack_req, p(1, 1))
    ft:add(pf.inline, p(1, 1))
    t:add_le(pf.pt_index, p(2, 2))
    t:add_le(pf.src_nid, p(4, 4))
    t:add_le(pf.src_pid, p(8, 2))
    t:add_le(pf.dst_pid, p(10, 2))
    t:add_le(pf.length, p(12, 4))
    t:add_le(pf.match_bits, p(16, 8))
    t:add_le(pf.offset, p(24, 4))
    t:add_le(pf.md_cookie, p(28, 4))
    t:add_le(pf.hdr_data, p(32, 8))
    t:add_le(pf.mlength, p(40, 4))
    t:add_le(pf.uid, p(44, 2))
    t:add_le(pf.ac_index, p(46, 2))
    t:add_le(pf.seq, p(48, 2))
    t:add_le(pf.ack, p(50, 2))
    local length = p(12, 4):le_uint()
    if bit.band(p(1, 1):uint(), 0x02) ~= 0 then
        t:add(pf.inline_data, p(52, math.min(length, 12)))
    end
    pinfo.cols.protocol = "Portals"
    if op >= 0x80 then return string.format("%s ack %d", PTL_OPS[op], p(50, 2):le_uint()) end
    local text = string.format("%s pt %d match 0x%s len %d seq %d", PTL_OPS[op], p(2, 2):le_uint(),
                               p(16, 8):le_uint64():tohex(), length, p(48, 2):le_uint())
    if op ~= 1 then text = text .. string.format(" mlen %d", p(40, 4):le_uint()) end
    return text
end

local function dissect_seastar(tvb, p, pinfo, tree)
    local head = bit.band(tvb(H.pflags, 1):uint(), 0x01) ~= 0
    if head and niclab.prefs.portals and looks_like_portals(p) then
        local text = dissect_portals(p, pinfo, tree)
        if plen(p) > PTL_HDR_BYTES then tree:add(nf.payload, p(PTL_HDR_BYTES)) end
        return text
    end
    pinfo.cols.protocol = "SeaStar"
    if p then tree:add(nf.payload, p()) end
    return string.format("SeaStar msg 0x%x packet %d, %d B", tvb(H.msg_id, 4):le_uint(), tvb(H.seq, 2):le_uint(), plen(p))
end

---------------------------------------------------------------------------------------
-- StarT-X message (cpp/include/niclab/systems/startx/message.hpp) and JAM's word
-- (jam_word.hpp)
---------------------------------------------------------------------------------------
local startx = Proto("startx", "StarT-X message (Arctic)")
local sf = startx.fields
local PRIORITY = { [0] = "low", [1] = "high" }
sf.word0 = ProtoField.uint32("startx.header", "Hardware header word", base.HEX)
sf.down_route = ProtoField.uint32("startx.down_route", "Down route (receiver node)", base.DEC, nil, 0xFFFF0000)
sf.up_route = ProtoField.uint32("startx.up_route", "Up route", base.HEX, nil, 0x0000FF00)
sf.reserved = ProtoField.uint32("startx.reserved", "Reserved", base.DEC, nil, 0x00000080)
sf.random_up = ProtoField.bool("startx.random_up", "Random up-route", 32, nil, 0x00000040)
sf.priority = ProtoField.uint32("startx.priority", "Priority", base.DEC, PRIORITY, 0x00000020)
sf.payload_words = ProtoField.uint32("startx.payload_words", "Payload words", base.DEC, nil, 0x0000001F)
sf.rdma = ProtoField.bool("startx.rdma", "Part of an RDMA stream (model metadata: niclab.msg_id 1)")
sf.payload = ProtoField.bytes("startx.payload", "Payload words")

local jam = Proto("jam", "JAM word (StarT-X)")
local jf = jam.fields
local JAM_KINDS = { [0] = "stream", [1] = "rpc", [2] = "control" }
local JAM_CONTROL = { [1] = "tag_descriptor", [2] = "rdma_request", [3] = "rdma_grant" }
jf.word = ProtoField.uint32("jam.word", "JAM word", base.HEX)
jf.sender = ProtoField.uint32("jam.sender", "Sender node", base.DEC, nil, 0xFF000000)
jf.kind = ProtoField.uint32("jam.kind", "Kind", base.DEC, JAM_KINDS, 0x00C00000)
jf.first = ProtoField.bool("jam.first", "First message of a transfer", 32, nil, 0x00200000)
jf.last = ProtoField.bool("jam.last", "Last message of a transfer", 32, nil, 0x00100000)
jf.repeat_tag = ProtoField.bool("jam.repeat", "Tag repeats the previous transfer's", 32, nil, 0x00080000)
jf.pad = ProtoField.uint32("jam.pad", "Pad bytes at the end", base.DEC, nil, 0x0007F000)
jf.tag = ProtoField.uint32("jam.tag", "Tag (12 bits)", base.DEC, nil, 0x00000FFF)
jf.control = ProtoField.uint32("jam.control", "Control code", base.DEC, JAM_CONTROL, 0x00000FFF)
jf.data = ProtoField.bytes("jam.data", "Data")

local function dissect_startx(tvb, p, pinfo, tree)
    pinfo.cols.protocol = "StarT-X"
    if plen(p) < 8 then
        if p then tree:add(nf.payload, p()) end
        return "StarT-X (short message)"
    end
    local t = tree:add(startx, p())
    local w0 = p(0, 4):le_uint()
    local wt = t:add_le(sf.word0, p(0, 4))
    for _, f in ipairs({ sf.down_route, sf.up_route, sf.reserved, sf.random_up, sf.priority, sf.payload_words }) do
        wt:add_le(f, p(0, 4))
    end
    t:add(sf.rdma, tvb(H.msg_id, 4), tvb(H.msg_id, 4):le_uint() == 1):set_generated()
    local w1 = p(4, 4):le_uint()
    local jt = t:add(jam, p(4, 4))
    jt:add_le(jf.word, p(4, 4))
    for _, f in ipairs({ jf.sender, jf.kind, jf.first, jf.last, jf.repeat_tag, jf.pad }) do jt:add_le(f, p(4, 4)) end
    local kind = bit.band(bit.rshift(w1, 22), 3)
    jt:add_le(kind == 2 and jf.control or jf.tag, p(4, 4))
    local words = bit.band(w0, 0x1F)
    local body = math.min(words * 4, plen(p) - 8)
    if body > 0 then
        t:add(sf.payload, p(8, body))
        local pad = bit.band(bit.rshift(w1, 12), 0x7F)
        if body - pad > 0 then jt:add(jf.data, p(8, body - pad)) end
    end
    local prio = bit.band(w0, 0x20) ~= 0 and "high" or "low"
    local text = string.format("StarT-X %s, %d payload words, JAM %s", prio, words, JAM_KINDS[kind] or "?")
    if kind == 2 then text = text .. " " .. (JAM_CONTROL[bit.band(w1, 0xFFF)] or "?") end
    if bit.band(w1, 0x00200000) ~= 0 then text = text .. " first" end
    if bit.band(w1, 0x00100000) ~= 0 then text = text .. " last" end
    return text
end

---------------------------------------------------------------------------------------
-- T9000 virtual-link packet (cpp/src/systems/t9000/vcp.cpp): the message id is the
-- virtual link, bit 31 marks an acknowledgement; the tail flag is the end of message
---------------------------------------------------------------------------------------
local t9000 = Proto("t9000", "T9000 virtual-link packet")
local tf = t9000.fields
tf.vl = ProtoField.uint32("t9000.vl", "Virtual link", base.DEC, nil, 0x7FFFFFFF)
tf.ack = ProtoField.bool("t9000.ack", "Acknowledgement", 32, nil, 0x80000000)
tf.packet = ProtoField.uint16("t9000.packet", "Packet number in the message")
tf.eom = ProtoField.bool("t9000.end_of_message", "End of message")
tf.data = ProtoField.bytes("t9000.data", "Data")

local function dissect_t9000(tvb, p, pinfo, tree)
    pinfo.cols.protocol = "T9000"
    local t = tree:add(t9000, tvb(H.msg_id, 4))
    t:add_le(tf.vl, tvb(H.msg_id, 4))
    t:add_le(tf.ack, tvb(H.msg_id, 4))
    local id = tvb(H.msg_id, 4):le_uint()
    local vl = bit.band(id, 0x7FFFFFFF)
    if bit.band(id, 0x80000000) ~= 0 then return string.format("T9000 VL %d ack", vl) end
    local eom = bit.band(tvb(H.pflags, 1):uint(), 0x02) ~= 0
    t:add_le(tf.packet, tvb(H.seq, 2))
    t:add(tf.eom, tvb(H.pflags, 1), eom)
    if p then t:add(tf.data, p()) end
    return string.format("T9000 VL %d packet %d, %d B%s", vl, tvb(H.seq, 2):le_uint(), plen(p),
                         eom and " (end of message)" or "")
end

---------------------------------------------------------------------------------------
-- DSNIC packet (cpp/include/niclab/systems/dsnic/wire.hpp): three protocol characters,
-- kind (2 bits), virtual link (6 bits), sequence (16 bits), in the message id; the
-- benchmarks' tag rides in message_bytes
---------------------------------------------------------------------------------------
local dsnic = Proto("dsnic", "DSNIC CSP packet")
local df = dsnic.fields
local DS_KINDS = { [0] = "data", [1] = "last", [2] = "ack", [3] = "credit" }
df.kind = ProtoField.uint32("dsnic.kind", "Kind", base.DEC, DS_KINDS, 0x00C00000)
df.vl = ProtoField.uint32("dsnic.vl", "Virtual link", base.DEC, nil, 0x003F0000)
df.seq = ProtoField.uint32("dsnic.seq", "Sequence / acknowledged / credit limit", base.DEC, nil, 0x0000FFFF)
df.tag = ProtoField.uint32("dsnic.tag", "Tag (benchmark, out of band)")
df.data = ProtoField.bytes("dsnic.data", "Data")

local function dissect_dsnic(tvb, p, pinfo, tree)
    pinfo.cols.protocol = "DSNIC"
    local t = tree:add(dsnic, tvb(H.msg_id, 4))
    t:add_le(df.kind, tvb(H.msg_id, 4))
    t:add_le(df.vl, tvb(H.msg_id, 4))
    t:add_le(df.seq, tvb(H.msg_id, 4))
    local id = tvb(H.msg_id, 4):le_uint()
    local kind, vl, seq = bit.band(bit.rshift(id, 22), 3), bit.band(bit.rshift(id, 16), 63), bit.band(id, 0xFFFF)
    if kind == 1 then t:add_le(df.tag, tvb(H.msg_bytes, 4)) end
    if p then t:add(df.data, p()) end
    if kind >= 2 then return string.format("DSNIC VL %d %s %d", vl, DS_KINDS[kind], seq) end
    return string.format("DSNIC VL %d %s seq %d, %d B", vl, DS_KINDS[kind], seq, plen(p))
end

local SUBDISSECTORS = { [1] = dissect_seastar, [2] = dissect_startx, [3] = dissect_t9000, [4] = dissect_dsnic }

---------------------------------------------------------------------------------------

function niclab.dissector(tvb, pinfo, tree)
    if tvb:len() < HEADER_BYTES then return 0 end
    pinfo.cols.protocol = "niclab"
    local hdr_len = tvb(1, 1):uint()
    local t = tree:add(niclab, tvb(0, math.min(hdr_len, tvb:len())))
    local vt = t:add(nf.version, tvb(0, 1))
    if tvb(0, 1):uint() ~= FRAME_VERSION then vt:add_proto_expert_info(ef_version) end
    t:add(nf.hdr_len, tvb(1, 1))
    t:add(nf.format, tvb(2, 1))
    t:add(nf.vc, tvb(3, 1))
    local ct = t:add(nf.cflags, tvb(4, 1))
    ct:add(nf.corrupted, tvb(4, 1))
    t:add(nf.retries, tvb(5, 1))
    t:add_le(nf.src, tvb(H.src, 4))
    t:add_le(nf.dst, tvb(H.dst, 4))
    t:add_le(nf.msg_id, tvb(H.msg_id, 4))
    t:add_le(nf.seq, tvb(H.seq, 2))
    local pt = t:add(nf.pflags, tvb(H.pflags, 1))
    pt:add(nf.head, tvb(H.pflags, 1))
    pt:add(nf.tail, tvb(H.pflags, 1))
    pt:add(nf.random_up, tvb(H.pflags, 1))
    t:add(nf.vnet, tvb(H.vnet, 1))
    t:add(nf.route_bytes, tvb(H.route, 1))
    t:add_le(nf.len, tvb(H.len, 2))
    t:add_le(nf.msg_bytes, tvb(H.msg_bytes, 4))
    t:add_le(nf.msg_crc, tvb(H.msg_crc, 4))

    local length = math.min(tvb(H.len, 2):le_uint(), math.max(tvb:len() - hdr_len, 0))
    -- The link CRC covers the packet header (the 27 bytes from offset 10) and the payload.
    local crc_item = t:add_le(nf.link_crc, tvb(8, 2))
    local good = crc16(tvb, hdr_len, length, crc16(tvb, 10, 27, 0xFFFF)) == tvb(8, 2):le_uint()
    crc_item:add(nf.link_crc_good, tvb(8, 2), good):set_generated()
    if not good then crc_item:add_proto_expert_info(ef_bad_crc) end
    if bit.band(tvb(4, 1):uint(), 0x01) ~= 0 then ct:add_proto_expert_info(ef_corrupted) end

    local src, dst = tvb(H.src, 4):le_uint(), tvb(H.dst, 4):le_uint()
    pinfo.cols.src = "node " .. src
    pinfo.cols.dst = "node " .. dst
    local payload = length > 0 and tvb(hdr_len, length):tvb() or nil
    local format = tvb(2, 1):uint()
    local sub = SUBDISSECTORS[format]
    local text
    if sub then
        text = sub(tvb, payload, pinfo, tree)
    else
        if length > 0 then t:add(nf.payload, tvb(hdr_len, length)) end
        text = string.format("msg 0x%x packet %d, %d B", tvb(H.msg_id, 4):le_uint(), tvb(H.seq, 2):le_uint(), length)
    end
    pinfo.cols.info = text
    return tvb:len()
end

local encap = (wtap_encaps and wtap_encaps.USER0) or (wtap and wtap.USER0) or 45
DissectorTable.get("wtap_encap"):add(encap, niclab)
