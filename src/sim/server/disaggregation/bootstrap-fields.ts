/**
 * The PD router's bootstrap fields of a request (pure): `bootstrap_host`, `bootstrap_port` and
 * `bootstrap_room`, each a scalar or one entry per prompt of a batch (reference §1.1 step 3).
 * Rooms are uint64 values in [0, 2^63−1] drawn at random, so most exceed 2^53: they are read from
 * the body's source text and kept as exact decimal strings.
 */
import { HttpError } from '../../../core/http-error.js';
import { rawTopLevelValues } from './raw-json-fields.js';

/** Where one prompt's KV comes from: the prefill's bootstrap server and the room naming the transfer. */
export interface BootstrapTarget {
  host: string;
  /** Null when the router had no bootstrap port for that prefill: the decode then uses its own `--disaggregation-bootstrap-port`. */
  port: number | null;
  /** The room as an exact decimal string. */
  room: string;
}

/** SGLang's health probes name this host: the transfer is faked, no bootstrap server is asked (disaggregation/utils.py L32). */
export const FAKE_BOOTSTRAP_HOST = '2.2.2.2';

const MAX_ROOM = (1n << 63n) - 1n;

function roomOf(raw: string): string {
  if (!/^\d+$/.test(raw) || BigInt(raw) > MAX_ROOM) {
    throw new HttpError(400, `'bootstrap_room' must be an integer from 0 to 2^63-1 (or a list of them), got ${raw.slice(0, 40)}`, { param: 'bootstrap_room' });
  }
  return BigInt(raw).toString();
}

/** The rooms of a room field's source text: one, a list, or none (`null`). */
export function parseRooms(raw: string): string[] | null {
  const text = raw.trim();
  if (text === 'null') return null;
  if (!text.startsWith('[')) return [roomOf(text)];
  const inner = text.slice(1, -1).trim();
  return inner === '' ? [] : inner.split(',').map((item) => roomOf(item.trim()));
}

function perPrompt<T>(value: T | T[], count: number, field: string): T[] {
  if (!Array.isArray(value)) return Array.from({ length: count }, () => value);
  if (value.length !== count) throw new HttpError(400, `'${field}' has ${value.length} entries for ${count} prompts`, { param: field });
  return value;
}

function isPort(value: unknown): value is number | null {
  return value === null || (typeof value === 'number' && Number.isInteger(value) && value > 0 && value < 65536);
}

/**
 * The bootstrap target of each of a request's `count` prompts, or null when it names no room (a
 * request not sent by a PD router). A scalar room of a batch stands for `room + i` for the i-th
 * prompt, as SGLang expands it (io_struct.py L662-668).
 */
export function bootstrapTargets(body: Record<string, unknown>, bodyText: string, count: number): BootstrapTarget[] | null {
  const rawRoom = rawTopLevelValues(bodyText, ['bootstrap_room']).get('bootstrap_room');
  const rooms = rawRoom === undefined ? null : parseRooms(rawRoom);
  if (rooms === null) return null;
  const host = body['bootstrap_host'];
  if (!(typeof host === 'string' || (Array.isArray(host) && host.every((h) => typeof h === 'string')))) {
    throw new HttpError(400, "'bootstrap_host' must be a string or a list of strings when 'bootstrap_room' is given", { param: 'bootstrap_host' });
  }
  const port = body['bootstrap_port'] ?? null;
  if (!(isPort(port) || (Array.isArray(port) && port.every(isPort)))) {
    throw new HttpError(400, "'bootstrap_port' must be a port number, null, or a list of them", { param: 'bootstrap_port' });
  }
  const roomList = rawRoom!.trim().startsWith('[') ? perPrompt(rooms, count, 'bootstrap_room') : rooms.length === 1
    ? Array.from({ length: count }, (_, i) => (BigInt(rooms[0]!) + BigInt(i)).toString())
    : rooms;
  const hosts = perPrompt<string>(host, count, 'bootstrap_host');
  const ports = perPrompt<number | null>(port as number | null | (number | null)[], count, 'bootstrap_port');
  return roomList.map((room, i) => ({ host: hosts[i]!, port: ports[i]!, room }));
}

/** `host:port` of a target's bootstrap server; a null port is the decode's own bootstrap port (scheduler.py L2070-2072). */
export function bootstrapAddress(target: BootstrapTarget, ownBootstrapPort: number): string {
  return `${target.host}:${target.port ?? ownBootstrapPort}`;
}
