/**
 * A {@link Tokenizer} over HF's Rust `tokenizers` (native binding, 2–10× faster than pure JS) and
 * `@huggingface/jinja` for chat templates, built from a tokenizer.json plus its tokenizer_config.json.
 */
import { Tokenizer as NativeTokenizer, templateProcessing } from '@anush008/tokenizers';
import { Template } from '@huggingface/jinja';
import { UserError } from '../core/errors.js';
import { specialTokenTemplate, type TokenizerConfigInfo } from './tokenizer-config.js';
import type { ChatTemplateOptions, TemplateMessage, Tokenizer } from './types.js';

class HfTokenizer implements Tokenizer {
  readonly vocabSize: number;
  readonly bosToken: string | null;
  readonly hasChatTemplate: boolean;
  readonly specialTokenIds: readonly number[];
  private vocabIdList: number[] | null = null;
  /** Parsed on first use, so a template the Jinja port cannot read only fails the runs that need it. */
  private template: Template | null = null;
  private longestTokenBytesRead: number | null;

  constructor(
    readonly name: string,
    private readonly native: NativeTokenizer,
    private readonly config: TokenizerConfigInfo,
    readonly numSpecialTokensToAdd: number,
    knownLongestTokenBytes: number | null,
  ) {
    this.longestTokenBytesRead = knownLongestTokenBytes;
    this.vocabSize = native.getVocabSize(false);
    this.bosToken = config.bosToken;
    this.hasChatTemplate = config.chatTemplate !== null;
    const named = [config.bosToken, config.eosToken, config.unkToken, config.padToken, ...config.additionalSpecialTokens];
    const ids = new Set<number>();
    for (const token of named) {
      const id = token === null ? null : native.tokenToId(token);
      if (id !== null) ids.add(id);
    }
    this.specialTokenIds = [...ids].sort((a, b) => a - b);
  }

  /**
   * The UTF-8 length of the longest vocabulary entry. A byte-level entry (`ĠĠ`) writes each byte
   * it stands for as one 2-byte character, so this overstates such vocabularies up to 2×: a bound
   * that is loose, never short.
   */
  get longestTokenBytes(): number {
    if (this.longestTokenBytesRead === null) {
      let longest = 1;
      for (const token of Object.keys(this.native.getVocab(true))) longest = Math.max(longest, Buffer.byteLength(token));
      this.longestTokenBytesRead = longest;
    }
    return this.longestTokenBytesRead;
  }

  async encode(text: string, addSpecialTokens = true): Promise<number[]> {
    const encoding = await this.native.encode(text, null, { addSpecialTokens });
    return encoding.getIds();
  }

  async encodeBatch(texts: readonly string[], addSpecialTokens = true): Promise<number[][]> {
    if (texts.length === 0) return [];
    const encodings = await this.native.encodeBatch([...texts], { addSpecialTokens });
    return encodings.map((e) => e.getIds());
  }

  decode(ids: readonly number[], skipSpecialTokens = false): Promise<string> {
    return this.native.decode(ids as number[], skipSpecialTokens);
  }

  async decodeBatch(ids: readonly (readonly number[])[], skipSpecialTokens = false): Promise<string[]> {
    if (ids.length === 0) return [];
    return this.native.decodeBatch(ids as number[][], skipSpecialTokens);
  }

  vocabIds(): number[] {
    if (this.vocabIdList === null) {
      this.vocabIdList = Object.values(this.native.getVocab(true)).sort((a, b) => a - b);
    }
    return this.vocabIdList.slice();
  }

  idToToken(id: number): string | null {
    return this.native.idToToken(id);
  }

  tokenToId(token: string): number | null {
    return this.native.tokenToId(token);
  }

  private parsedTemplate(): Template {
    if (this.template === null) {
      const source = this.config.chatTemplate;
      if (source === null) {
        throw new UserError(`tokenizer ${this.name} has no chat template: pass --tokenizer with a folder whose tokenizer_config.json has chat_template`);
      }
      try {
        this.template = new Template(source);
      } catch (error) {
        throw new UserError(`the chat template of tokenizer ${this.name} cannot be parsed (${(error as Error).message.split('\n')[0]}): pass --tokenizer with another template`);
      }
    }
    return this.template;
  }

  applyChatTemplate(messages: readonly TemplateMessage[], options: ChatTemplateOptions): string {
    const template = this.parsedTemplate();
    try {
      return template.render({
        ...options.extraContext,
        messages,
        add_generation_prompt: options.addGenerationPrompt,
        ...(options.tools === undefined ? {} : { tools: options.tools }),
        bos_token: this.config.bosToken ?? '',
        eos_token: this.config.eosToken ?? '',
        unk_token: this.config.unkToken ?? '',
        pad_token: this.config.padToken ?? '',
      });
    } catch (error) {
      throw new UserError(`the chat template of tokenizer ${this.name} rejected the messages: ${(error as Error).message.split('\n')[0]}`);
    }
  }
}

/**
 * Builds a tokenizer from a tokenizer.json path and its parsed config. Installs HF's BOS/EOS
 * post-processor when the config asks for it (the DeepSeek tokenizer.json alone adds no BOS).
 */
export async function createHfTokenizer(
  name: string,
  tokenizerJsonPath: string,
  config: TokenizerConfigInfo,
  knownLongestTokenBytes: number | null,
): Promise<Tokenizer> {
  const native = NativeTokenizer.fromFile(tokenizerJsonPath);
  const template = specialTokenTemplate(config);
  if (template !== null) {
    const tokens: [string, number][] = [];
    for (const token of template.tokens) {
      const id = native.tokenToId(token);
      if (id === null) throw new UserError(`${tokenizerJsonPath}: special token ${token} from tokenizer_config.json is not in the vocabulary; fix the config or remove add_bos_token/add_eos_token`);
      tokens.push([token, id]);
    }
    native.setPostProcessor(templateProcessing(template.single, undefined, tokens));
  }
  const added = (await native.encode('', null, { addSpecialTokens: true })).getLength();
  return new HfTokenizer(name, native, config, added, knownLongestTokenBytes);
}
