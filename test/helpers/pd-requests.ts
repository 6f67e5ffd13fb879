/**
 * What PD tests send a decode or prefill sim, and what SGLang answers when its prefill is lost,
 * written out here as the protocol states them (not taken from the code under test).
 */

/** 2000 token ids: a prompt long enough that its KV transfer takes a measurable time. */
export const PD_PROMPT = Array.from({ length: 2000 }, (_, i) => 100 + i);

/** A router's body: rooms are written into the JSON text as they are, past what a JS number holds. */
export function routerBody(room: string, bootstrapPort: number | null, fields: Record<string, unknown>, prompt: readonly number[] = PD_PROMPT): string {
  const json = JSON.stringify({ input_ids: prompt, bootstrap_host: '127.0.0.1', bootstrap_port: bootstrapPort, ...fields });
  return `${json.slice(0, -1)},"bootstrap_room":${room}}`;
}

/** SGLang's message for a decode request whose prefill at 127.0.0.1:`port` was lost. */
export function lostPrefillMessage(rid: string, room: string, port: number): string {
  return (
    `Decode transfer failed for request rank=0 decode_req.req.rid='${rid}' decode_req.req.bootstrap_room=${room} ` +
    `with exception KVTransferError(bootstrap_room=${room}): Lost connection with prefill instance (bootstrap_addr: 127.0.0.1:${port})`
  );
}
