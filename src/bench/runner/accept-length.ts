/**
 * Speculative-decoding accept length from a `/get_server_info` body (spec §5): a PD router's body
 * is read through `decode[0]`; the value is `internal_states[0].avg_spec_accept_length`.
 */

/** The accept length, or null when the body does not report one. */
export function acceptLengthFromServerInfo(body: unknown): number | null {
  if (typeof body !== 'object' || body === null) return null;
  let info = body as Record<string, unknown>;
  if ('decode' in info) {
    const decode = info.decode;
    if (!Array.isArray(decode) || typeof decode[0] !== 'object' || decode[0] === null) return null;
    info = decode[0] as Record<string, unknown>;
  }
  const states = info.internal_states;
  if (!Array.isArray(states) || states.length === 0) return null;
  const value = (states[0] as Record<string, unknown> | null)?.avg_spec_accept_length;
  return typeof value === 'number' ? value : null;
}
