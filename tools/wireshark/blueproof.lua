-- blueproof.lua: Wireshark dissector for the blueproof transmitter's frames
-- (docs/transmitter-wire.md) carried over GATT (the frame characteristic's chunks,
-- docs/transmitter-links.md "BLE") and over TCP (length-prefixed messages, "TCP").
--
-- Load:  tshark -X lua_script:tools/wireshark/blueproof.lua -r capture.pcap
-- GATT:  found by the characteristic UUID when the capture shows discovery; otherwise name the
--        value handle: -o blueproof_chunk.handles:0x0012 (comma-separated).
-- TCP:   found heuristically on any port (u32 length, a message kind, a frame version 3).

local frame_proto = Proto("blueproof", "blueproof transmitter frame")
local chunk_proto = Proto("blueproof_chunk", "blueproof transmitter chunk (GATT)")
local tcp_proto = Proto("blueproof_tcp", "blueproof transmitter message (TCP)")

local kinds = { [1] = "hello", [2] = "keyRequest", [3] = "keyResponse", [4] = "data" }
local tcp_kinds = { [0] = "hello", [1] = "open", [2] = "close", [3] = "frame" }

local f = {
  version = ProtoField.uint8("blueproof.version", "Version"),
  kind = ProtoField.uint8("blueproof.kind", "Kind", base.DEC, kinds),
  length = ProtoField.uint32("blueproof.length", "Body length"),
  user = ProtoField.guid("blueproof.user", "User id"),
  hello_flags = ProtoField.uint8("blueproof.hello.flags", "Hello flags", base.HEX),
  name = ProtoField.string("blueproof.hello.name", "Display name"),
  device = ProtoField.string("blueproof.hello.device", "Device type"),
  nonce = ProtoField.bytes("blueproof.hello.nonce", "Challenge (nonce)"),
  hello_key = ProtoField.bytes("blueproof.hello.signing_key", "Signing key (proof)"),
  hello_signature = ProtoField.bytes("blueproof.hello.signature", "Signature (proof)"),
  key_length = ProtoField.uint16("blueproof.key.length", "Key text length"),
  key = ProtoField.string("blueproof.key.text", "Public key (base64)"),
  signature_length = ProtoField.uint8("blueproof.signature.length", "Signature length"),
  signature = ProtoField.bytes("blueproof.signature", "Ed25519 signature"),
  data_flags = ProtoField.uint8("blueproof.data.flags", "Data flags", base.HEX),
  broadcast = ProtoField.bool("blueproof.data.flags.broadcast", "Broadcast", 8, nil, 0x01),
  mesh = ProtoField.bool("blueproof.data.flags.mesh", "Mesh", 8, nil, 0x02),
  encrypted = ProtoField.bool("blueproof.data.flags.encrypted", "Encrypted", 8, nil, 0x04),
  dictionary = ProtoField.bool("blueproof.data.flags.dictionary", "Has dictionary", 8, nil, 0x08),
  binary = ProtoField.bool("blueproof.data.flags.binary", "Has binary", 8, nil, 0x10),
  hops = ProtoField.uint8("blueproof.data.hops", "Hops remaining"),
  packet = ProtoField.guid("blueproof.data.packet", "Packet id"),
  sender = ProtoField.guid("blueproof.data.sender", "Sender"),
  receiver = ProtoField.guid("blueproof.data.receiver", "Receiver"),
  expiry = ProtoField.absolute_time("blueproof.data.expiry", "Expiry", base.UTC),
  sender_key = ProtoField.bytes("blueproof.data.sender_key", "Sender signing key"),
  payload_length = ProtoField.uint32("blueproof.data.payload_length", "Payload length"),
  payload = ProtoField.bytes("blueproof.data.payload", "Payload"),
}
frame_proto.fields = f

local c = {
  flags = ProtoField.uint8("blueproof_chunk.flags", "Chunk flags", base.HEX),
  first = ProtoField.bool("blueproof_chunk.flags.first", "First", 8, nil, 0x01),
  last = ProtoField.bool("blueproof_chunk.flags.last", "Last", 8, nil, 0x02),
  hello = ProtoField.bool("blueproof_chunk.flags.hello", "Hello (central's user id)", 8, nil, 0x80),
  sequence = ProtoField.uint16("blueproof_chunk.sequence", "Frame sequence"),
  index = ProtoField.uint16("blueproof_chunk.index", "Chunk index"),
  total = ProtoField.uint32("blueproof_chunk.total", "Frame length"),
  user = ProtoField.guid("blueproof_chunk.user", "Central's user id"),
  body = ProtoField.bytes("blueproof_chunk.body", "Frame bytes"),
  reassembled_in = ProtoField.framenum("blueproof_chunk.reassembled_in", "Frame reassembled in"),
}
chunk_proto.fields = c

local t = {
  length = ProtoField.uint32("blueproof_tcp.length", "Message length"),
  kind = ProtoField.uint8("blueproof_tcp.kind", "Message kind", base.DEC, tcp_kinds),
  user = ProtoField.guid("blueproof_tcp.user", "Sender's user id"),
}
tcp_proto.fields = t

local e_malformed = ProtoExpert.new("blueproof.malformed", "Malformed transmitter frame", expert.group.MALFORMED, expert.severity.ERROR)
frame_proto.experts = { e_malformed }

-- A GUID field shows RFC 4122 order as Wireshark's GUIDs are little-endian in part: add the
-- bytes big-endian (add, not add_le) so the text matches the UUID the transmitter prints.
local function need(tvb, tree, offset, count)
  if tvb:len() < offset + count then
    tree:add_proto_expert_info(e_malformed, string.format("needs %d byte(s) at offset %d, %d left", count, offset, tvb:len() - offset))
    return false
  end
  return true
end

local function short_text(tvb, tree, field, offset)
  if not need(tvb, tree, offset, 1) then return nil end
  local count = tvb(offset, 1):uint()
  if not need(tvb, tree, offset + 1, count) then return nil end
  tree:add(field, tvb(offset + 1, count), tvb(offset + 1, count):string(ENC_UTF_8))
  return offset + 1 + count
end

local function dissect_hello(tvb, tree, offset)
  if not need(tvb, tree, offset, 17) then return nil end
  tree:add(f.user, tvb(offset, 16))
  local flags = tvb(offset + 16, 1):uint()
  tree:add(f.hello_flags, tvb(offset + 16, 1))
  offset = offset + 17
  if bit.band(flags, 0x01) ~= 0 then offset = short_text(tvb, tree, f.name, offset) if not offset then return nil end end
  if bit.band(flags, 0x02) ~= 0 then offset = short_text(tvb, tree, f.device, offset) if not offset then return nil end end
  if bit.band(flags, 0xF8) ~= 0 then tree:add_proto_expert_info(e_malformed, "unknown hello flag bits") end
  if not need(tvb, tree, offset, 16) then return nil end
  tree:add(f.nonce, tvb(offset, 16))
  offset = offset + 16
  if bit.band(flags, 0x04) ~= 0 then
    if not need(tvb, tree, offset, 96) then return nil end
    tree:add(f.hello_key, tvb(offset, 32))
    tree:add(f.hello_signature, tvb(offset + 32, 64))
    offset = offset + 96
  end
  return offset
end

local function dissect_key(tvb, tree, offset)
  if not need(tvb, tree, offset, 18) then return nil end
  tree:add(f.user, tvb(offset, 16))
  local count = tvb(offset + 16, 2):uint()
  tree:add(f.key_length, tvb(offset + 16, 2))
  offset = offset + 18
  if not need(tvb, tree, offset, count + 1) then return nil end
  tree:add(f.key, tvb(offset, count))
  offset = offset + count
  local signature = tvb(offset, 1):uint()
  tree:add(f.signature_length, tvb(offset, 1))
  if not need(tvb, tree, offset + 1, signature) then return nil end
  if signature > 0 then tree:add(f.signature, tvb(offset + 1, signature)) end
  return offset + 1 + signature
end

local function dissect_data(tvb, tree, offset)
  if not need(tvb, tree, offset, 2) then return nil end
  local flags = tvb(offset, 1):uint()
  local flag_tree = tree:add(f.data_flags, tvb(offset, 1))
  for _, field in ipairs({ f.broadcast, f.mesh, f.encrypted, f.dictionary, f.binary }) do flag_tree:add(field, tvb(offset, 1)) end
  if bit.band(flags, 0xE0) ~= 0 or bit.band(flags, 0x18) == 0 then
    tree:add_proto_expert_info(e_malformed, "data flags: unknown bits, or neither dictionary nor binary")
  end
  tree:add(f.hops, tvb(offset + 1, 1))
  offset = offset + 2
  -- An encrypted frame is sealed: its sender id, key and signature travel inside the payload.
  local sealed = bit.band(flags, 0x04) ~= 0
  local ids = (bit.band(flags, 0x01) ~= 0 and 1 or 2) + (sealed and 0 or 1)
  local key = sealed and 0 or 32
  if not need(tvb, tree, offset, 16 * ids + 8 + key + 4) then return nil end
  tree:add(f.packet, tvb(offset, 16))
  local at = offset + 16
  if not sealed then tree:add(f.sender, tvb(at, 16)); at = at + 16 end
  if bit.band(flags, 0x01) == 0 then tree:add(f.receiver, tvb(at, 16)) end
  offset = offset + 16 * ids
  local ms = tvb(offset, 8):uint64()
  local seconds = (ms / 1000):tonumber()
  tree:add(f.expiry, tvb(offset, 8), NSTime.new(seconds, (ms % 1000):tonumber() * 1000000))
  if not sealed then tree:add(f.sender_key, tvb(offset + 8, 32)) end
  local count = tvb(offset + 8 + key, 4):uint()
  tree:add(f.payload_length, tvb(offset + 8 + key, 4))
  offset = offset + 12 + key
  local signature = sealed and 0 or 64
  if not need(tvb, tree, offset, count + signature) then return nil end
  if count > 0 then tree:add(f.payload, tvb(offset, count)) end
  if not sealed then tree:add(f.signature, tvb(offset + count, 64)) end
  return offset + count + signature
end

-- One whole frame.
function frame_proto.dissector(tvb, pinfo, tree)
  local subtree = tree:add(frame_proto, tvb())
  if not need(tvb, subtree, 0, 6) then return end
  local kind = tvb(1, 1):uint()
  subtree:add(f.version, tvb(0, 1))
  subtree:add(f.kind, tvb(1, 1))
  subtree:add(f.length, tvb(2, 4))
  pinfo.cols.protocol = "blueproof"
  pinfo.cols.info:append(" transmitter " .. (kinds[kind] or ("kind " .. kind)))
  subtree:append_text(", " .. (kinds[kind] or ("kind " .. kind)))
  if tvb(0, 1):uint() ~= 3 then subtree:add_proto_expert_info(e_malformed, "version is not 3") return end
  if tvb(2, 4):uint() ~= tvb:len() - 6 then
    subtree:add_proto_expert_info(e_malformed, string.format("body length %d, %d byte(s) present", tvb(2, 4):uint(), tvb:len() - 6))
    return
  end
  local ends
  if kind == 1 then ends = dissect_hello(tvb, subtree, 6)
  elseif kind == 2 or kind == 3 then ends = dissect_key(tvb, subtree, 6)
  elseif kind == 4 then ends = dissect_data(tvb, subtree, 6)
  else subtree:add_proto_expert_info(e_malformed, "unknown kind") return end
  if ends and ends ~= tvb:len() then subtree:add_proto_expert_info(e_malformed, "bytes left after the last field") end
end

-- GATT chunks, joined per (link, direction, frame sequence) on the first pass.
local pending = {}     -- key -> { bytes = ByteArray, total = n }
local complete = {}    -- frame number of a last chunk -> ByteArray of the whole frame
local joined_in = {}   -- frame number of any chunk -> frame number of its last chunk

function chunk_proto.init()
  pending, complete, joined_in = {}, {}, {}
end

function chunk_proto.dissector(tvb, pinfo, tree)
  if tvb:len() < 5 then return 0 end
  local subtree = tree:add(chunk_proto, tvb())
  local flags = tvb(0, 1):uint()
  local flag_tree = subtree:add(c.flags, tvb(0, 1))
  for _, field in ipairs({ c.first, c.last, c.hello }) do flag_tree:add(field, tvb(0, 1)) end
  local sequence = tvb(1, 2):le_uint()
  subtree:add_le(c.sequence, tvb(1, 2))
  subtree:add_le(c.index, tvb(3, 2))
  pinfo.cols.protocol = "blueproof"
  if bit.band(flags, 0x80) ~= 0 then
    if tvb:len() >= 21 then subtree:add(c.user, tvb(5, 16)) end
    pinfo.cols.info:append(" transmitter link hello")
    return tvb:len()
  end
  local offset = 5
  local first = bit.band(flags, 0x01) ~= 0
  if first then
    if tvb:len() < 9 then return tvb:len() end
    subtree:add_le(c.total, tvb(5, 4))
    offset = 9
  end
  local body = tvb:range(offset, tvb:len() - offset)
  if tvb:len() > offset then subtree:add(c.body, body) end
  local key = tostring(pinfo.src) .. ">" .. tostring(pinfo.dst) .. "#" .. sequence
  if not pinfo.visited then
    if first then pending[key] = { bytes = ByteArray.new(), chunks = {} } end
    local entry = pending[key]
    if entry then
      if tvb:len() > offset then entry.bytes:append(body:bytes()) end
      table.insert(entry.chunks, pinfo.number)
      if bit.band(flags, 0x02) ~= 0 then
        complete[pinfo.number] = entry.bytes
        for _, number in ipairs(entry.chunks) do joined_in[number] = pinfo.number end
        pending[key] = nil
      end
    end
  end
  local whole = complete[pinfo.number]
  if whole then
    frame_proto.dissector:call(whole:tvb("Transmitter frame"), pinfo, tree)
  else
    if joined_in[pinfo.number] then subtree:add(c.reassembled_in, joined_in[pinfo.number]) end
    pinfo.cols.info:append(string.format(" transmitter chunk seq=%d", sequence))
  end
  return tvb:len()
end

chunk_proto.prefs.handles = Pref.string("GATT value handles", "",
  "Attribute handles of the transmitter's frame characteristic, comma-separated (0x hex or decimal)")

local registered = {}
local function register_handles()
  local table = DissectorTable.get("btatt.handle")
  for _, handle in ipairs(registered) do table:remove(handle, chunk_proto) end
  registered = {}
  for text in string.gmatch(chunk_proto.prefs.handles, "[^,%s]+") do
    local handle = tonumber(text)
    if handle then table:add(handle, chunk_proto) table.insert(registered, handle) end
  end
end
chunk_proto.prefs_changed = register_handles

-- The frame characteristic, BLELinkProfile.frameCharacteristic, in the forms the UUID table keys use.
local uuid_table = DissectorTable.get("bluetooth.uuid")
for _, key in ipairs({ "5b1e7a01-0b1e-4f5a-9c3d-7e2a61b0f001", "5b1e7a010b1e4f5a9c3d7e2a61b0f001" }) do
  uuid_table:add(key, chunk_proto)
end

-- TCP: u32 big-endian length, then one kind octet and its body.
local function tcp_message_length(tvb, pinfo, offset)
  return tvb(offset, 4):uint() + 4
end

local function dissect_tcp_message(tvb, pinfo, tree)
  local subtree = tree:add(tcp_proto, tvb())
  subtree:add(t.length, tvb(0, 4))
  local kind = tvb(4, 1):uint()
  subtree:add(t.kind, tvb(4, 1))
  pinfo.cols.protocol = "blueproof"
  if kind == 0 and tvb:len() >= 21 then
    subtree:add(t.user, tvb(5, 16))
    pinfo.cols.info:append(" transmitter link hello")
  elseif kind == 3 and tvb:len() > 5 then
    frame_proto.dissector:call(tvb(5):tvb(), pinfo, tree)
  else
    pinfo.cols.info:append(" transmitter link " .. (tcp_kinds[kind] or "?"))
  end
  return tvb:len()
end

function tcp_proto.dissector(tvb, pinfo, tree)
  dissect_tcp_pdus(tvb, tree, 5, tcp_message_length, dissect_tcp_message)
  return tvb:len()
end

local function tcp_heuristic(tvb, pinfo, tree)
  if tvb:len() < 5 then return false end
  local length, kind = tvb(0, 4):uint(), tvb(4, 1):uint()
  if length < 1 or length > 16 * 1024 * 1024 or tcp_kinds[kind] == nil then return false end
  if kind == 0 and length ~= 17 then return false end
  if (kind == 1 or kind == 2) and length ~= 1 then return false end
  if kind == 3 and (tvb:len() < 7 or tvb(5, 1):uint() ~= 3 or kinds[tvb(6, 1):uint()] == nil) then return false end
  pinfo.conversation = tcp_proto
  tcp_proto.dissector(tvb, pinfo, tree)
  return true
end
tcp_proto:register_heuristic("tcp", tcp_heuristic)
