/**
 * Reading of `tokenizer_config.json`: the special tokens HF resolves from it, whether encode adds
 * BOS/EOS, and the chat template. Pure: takes the parsed JSON.
 */

/** The fields of a tokenizer_config.json servebench uses. */
export interface TokenizerConfigInfo {
  bosToken: string | null;
  eosToken: string | null;
  unkToken: string | null;
  padToken: string | null;
  additionalSpecialTokens: string[];
  addBosToken: boolean;
  addEosToken: boolean;
  chatTemplate: string | null;
}

/** A token given as a plain string or as a serialised `AddedToken` (`{content: ...}`). */
function tokenText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && typeof (value as { content?: unknown }).content === 'string') {
    return (value as { content: string }).content;
  }
  return null;
}

/** A `chat_template` that is a string, or a list of named templates (the `default` one wins). */
function templateText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    const named = value as { name?: unknown; template?: unknown }[];
    const chosen = named.find((t) => t.name === 'default') ?? named[0];
    return typeof chosen?.template === 'string' ? chosen.template : null;
  }
  return null;
}

/**
 * Extracts what servebench needs from a parsed tokenizer_config.json (`{}` when the file is absent).
 * `separateTemplate` is the content of a `chat_template.jinja` next to it, used when the config has none.
 */
export function readTokenizerConfig(config: Record<string, unknown>, separateTemplate: string | null = null): TokenizerConfigInfo {
  const additional = Array.isArray(config.additional_special_tokens) ? config.additional_special_tokens : [];
  return {
    bosToken: tokenText(config.bos_token),
    eosToken: tokenText(config.eos_token),
    unkToken: tokenText(config.unk_token),
    padToken: tokenText(config.pad_token),
    additionalSpecialTokens: additional.map(tokenText).filter((t): t is string => t !== null),
    addBosToken: config.add_bos_token === true,
    addEosToken: config.add_eos_token === true,
    chatTemplate: templateText(config.chat_template) ?? separateTemplate,
  };
}

/**
 * The TemplateProcessing `single` pattern HF's Llama-style fast tokenizers install when the config
 * asks for BOS/EOS (`update_post_processor`), or null when encode adds nothing beyond tokenizer.json.
 */
export function specialTokenTemplate(info: TokenizerConfigInfo): { single: string; tokens: string[] } | null {
  const bos = info.addBosToken ? info.bosToken : null;
  const eos = info.addEosToken ? info.eosToken : null;
  if (bos === null && eos === null) return null;
  const parts = [...(bos === null ? [] : [`${bos}:0`]), '$A:0', ...(eos === null ? [] : [`${eos}:0`])];
  return { single: parts.join(' '), tokens: [bos, eos].filter((t): t is string => t !== null) };
}

/** How many special tokens encode adds by the config alone (a tokenizer.json may add its own). */
export function specialTokenCount(info: TokenizerConfigInfo): number {
  return specialTokenTemplate(info)?.tokens.length ?? 0;
}
