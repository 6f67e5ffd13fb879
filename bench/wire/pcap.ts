/**
 * A reader for the classic pcap file tcpdump writes (`-w`), enough to take the TCP segments with
 * a payload out of a loopback capture: the kernel's stamp of each segment, its ports and bytes.
 * Pure: a Buffer in, segments out.
 *
 * Link types read: Ethernet (Linux `lo` captures as Ethernet), Linux cooked captures v1 and v2
 * (`-i any`) and BSD loopback; IPv4 and IPv6 (no extension headers) carrying TCP.
 */

/** One TCP segment that carried bytes. */
export interface TcpSegment {
  /** The capture's stamp, ms since the epoch (µs or ns precision, as the file says). */
  timeMs: number;
  sourcePort: number;
  destinationPort: number;
  sequence: number;
  payload: Buffer;
}

const MAGIC_MICROSECONDS = 0xa1b2c3d4;
const MAGIC_NANOSECONDS = 0xa1b23c4d;
const GLOBAL_HEADER_BYTES = 24;
const RECORD_HEADER_BYTES = 16;

const LINK_ETHERNET = 1;
const LINK_NULL = 0;
const LINK_LINUX_SLL = 113;
const LINK_LINUX_SLL2 = 276;

const ETHERTYPE_IPV4 = 0x0800;
const ETHERTYPE_IPV6 = 0x86dd;
const PROTOCOL_TCP = 6;

interface FileLayout {
  littleEndian: boolean;
  /** Divisor that turns the fractional stamp into ms. */
  fractionPerMs: number;
  linkType: number;
}

function layoutOf(file: Buffer): FileLayout {
  if (file.length < GLOBAL_HEADER_BYTES) throw new Error(`a pcap file has a ${GLOBAL_HEADER_BYTES}-byte header; this one has ${file.length} bytes`);
  for (const littleEndian of [true, false]) {
    const magic = littleEndian ? file.readUInt32LE(0) : file.readUInt32BE(0);
    if (magic === MAGIC_MICROSECONDS || magic === MAGIC_NANOSECONDS) {
      return {
        littleEndian,
        fractionPerMs: magic === MAGIC_MICROSECONDS ? 1e3 : 1e6,
        linkType: littleEndian ? file.readUInt32LE(20) : file.readUInt32BE(20),
      };
    }
  }
  throw new Error(`not a pcap file (magic 0x${file.readUInt32LE(0).toString(16)}); pcapng is not read: capture with tcpdump -w`);
}

/** The network-layer packet inside a link-layer frame, and its ethertype; null when it is neither IPv4 nor IPv6. */
function networkPacket(frame: Buffer, linkType: number): { ethertype: number; packet: Buffer } | null {
  switch (linkType) {
    case LINK_ETHERNET:
      return frame.length < 14 ? null : { ethertype: frame.readUInt16BE(12), packet: frame.subarray(14) };
    case LINK_LINUX_SLL:
      return frame.length < 16 ? null : { ethertype: frame.readUInt16BE(14), packet: frame.subarray(16) };
    case LINK_LINUX_SLL2:
      return frame.length < 20 ? null : { ethertype: frame.readUInt16BE(0), packet: frame.subarray(20) };
    case LINK_NULL: {
      if (frame.length < 4) return null;
      // The address family is in the capturing host's byte order: 2 is IPv4; 24, 28 and 30 are IPv6 on the BSDs.
      const family = frame.readUInt32LE(0) > 0xffff ? frame.readUInt32BE(0) : frame.readUInt32LE(0);
      return { ethertype: family === 2 ? ETHERTYPE_IPV4 : ETHERTYPE_IPV6, packet: frame.subarray(4) };
    }
    default:
      throw new Error(`link type ${linkType} is not read: capture on a loopback or Ethernet interface`);
  }
}

/** The TCP segment inside an IP packet; null when the packet carries something else. */
function tcpOf(ethertype: number, packet: Buffer): Buffer | null {
  if (ethertype === ETHERTYPE_IPV4) {
    if (packet.length < 20 || packet[9] !== PROTOCOL_TCP) return null;
    const headerBytes = (packet[0]! & 0x0f) * 4;
    // The total length trims link-layer padding off short frames.
    return packet.subarray(headerBytes, Math.min(packet.length, packet.readUInt16BE(2)));
  }
  if (ethertype === ETHERTYPE_IPV6) {
    if (packet.length < 40 || packet[6] !== PROTOCOL_TCP) return null;
    return packet.subarray(40, Math.min(packet.length, 40 + packet.readUInt16BE(4)));
  }
  return null;
}

/** Every TCP segment of the capture that carried a payload, in capture order. */
export function tcpSegments(file: Buffer): TcpSegment[] {
  const layout = layoutOf(file);
  const read32 = (at: number): number => (layout.littleEndian ? file.readUInt32LE(at) : file.readUInt32BE(at));
  const segments: TcpSegment[] = [];
  for (let at = GLOBAL_HEADER_BYTES; at + RECORD_HEADER_BYTES <= file.length; ) {
    const seconds = read32(at);
    const fraction = read32(at + 4);
    const captured = read32(at + 8);
    const frame = file.subarray(at + RECORD_HEADER_BYTES, at + RECORD_HEADER_BYTES + captured);
    at += RECORD_HEADER_BYTES + captured;
    // A capture stopped mid-write ends in a partial record.
    if (frame.length < captured) break;
    const network = networkPacket(frame, layout.linkType);
    const tcp = network && tcpOf(network.ethertype, network.packet);
    if (!tcp || tcp.length < 20) continue;
    const payload = tcp.subarray((tcp[12]! >> 4) * 4);
    if (payload.length === 0) continue;
    segments.push({
      timeMs: seconds * 1000 + fraction / layout.fractionPerMs,
      sourcePort: tcp.readUInt16BE(0),
      destinationPort: tcp.readUInt16BE(2),
      sequence: tcp.readUInt32BE(4),
      payload,
    });
  }
  return segments;
}
