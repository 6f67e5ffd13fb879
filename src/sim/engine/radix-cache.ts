/**
 * SGLang's radix prefix cache over prompt token ids: a compressed trie whose nodes hold KV for a
 * run of tokens. Requests lock the path they reuse; unlocked leaves are evicted least recently used
 * first when the KV pool needs room. Sizes are in tokens.
 */

class RadixNode {
  readonly children = new Map<number, RadixNode>();
  lockCount = 0;
  lastAccess = 0;
  constructor(
    public key: number[],
    public parent: RadixNode | null,
  ) {}
}

/** What a lookup found: the reusable prefix length and the node that ends it (to lock). */
export interface PrefixMatch {
  length: number;
  node: RadixNode;
}

export class RadixCache {
  private root = new RadixNode([], null);
  /** Tokens held by the cache. */
  size = 0;
  /** Tokens in nodes no running request locks (free to evict). */
  evictable = 0;

  /** Longest cached prefix of `ids`, at most `limit` tokens; touches the path for LRU. */
  match(ids: ArrayLike<number>, limit: number, now: number): PrefixMatch {
    let node = this.root;
    let length = 0;
    while (length < limit) {
      const child = node.children.get(ids[length]!);
      if (!child) break;
      let common = 0;
      while (common < child.key.length && length + common < limit && child.key[common] === ids[length + common]) common++;
      if (common === 0) break;
      const matched = common < child.key.length ? this.split(child, common) : child;
      matched.lastAccess = now;
      node = matched;
      length += common;
      if (common < child.key.length) break;
    }
    return { length, node };
  }

  /** Splits `node` so that its first `at` tokens become a parent node; returns that parent. */
  private split(node: RadixNode, at: number): RadixNode {
    const parent = node.parent!;
    const head = new RadixNode(node.key.slice(0, at), parent);
    head.lockCount = node.lockCount;
    head.lastAccess = node.lastAccess;
    parent.children.set(head.key[0]!, head);
    node.key = node.key.slice(at);
    node.parent = head;
    head.children.set(node.key[0]!, node);
    return head;
  }

  /** Adds `ids` to the cache; returns how many tokens were new (now owned by the cache). */
  insert(ids: ArrayLike<number>, now: number): number {
    const found = this.match(ids, ids.length, now);
    const rest = Array.from({ length: ids.length - found.length }, (_, i) => ids[found.length + i]!);
    if (rest.length === 0) return 0;
    const leaf = new RadixNode(rest, found.node);
    leaf.lastAccess = now;
    found.node.children.set(rest[0]!, leaf);
    this.size += rest.length;
    this.evictable += rest.length;
    return rest.length;
  }

  /** Pins the path ending at `node` while a request uses it. */
  lock(node: RadixNode): void {
    for (let n: RadixNode | null = node; n && n !== this.root; n = n.parent) {
      if (n.lockCount === 0) this.evictable -= n.key.length;
      n.lockCount++;
    }
  }

  /** Releases a path pinned by `lock`. */
  unlock(node: RadixNode): void {
    for (let n: RadixNode | null = node; n && n !== this.root; n = n.parent) {
      n.lockCount--;
      if (n.lockCount === 0) this.evictable += n.key.length;
    }
  }

  /** Evicts unlocked leaves, least recently used first, until `tokens` are freed or none remain. */
  evict(tokens: number): number {
    let freed = 0;
    const leaves: RadixNode[] = [];
    const collect = (node: RadixNode): void => {
      for (const child of node.children.values()) {
        if (child.children.size === 0) {
          if (child.lockCount === 0) leaves.push(child);
        } else collect(child);
      }
    };
    collect(this.root);
    leaves.sort((a, b) => a.lastAccess - b.lastAccess);
    while (freed < tokens && leaves.length > 0) {
      const leaf = leaves.shift()!;
      const parent = leaf.parent!;
      parent.children.delete(leaf.key[0]!);
      freed += leaf.key.length;
      this.size -= leaf.key.length;
      this.evictable -= leaf.key.length;
      if (parent !== this.root && parent.children.size === 0 && parent.lockCount === 0) {
        // The parent became a leaf: it joins the candidates in LRU order.
        const at = leaves.findIndex((n) => n.lastAccess > parent.lastAccess);
        leaves.splice(at < 0 ? leaves.length : at, 0, parent);
      }
    }
    return freed;
  }

  /** Drops everything (SGLang `/flush_cache`, only valid with no request running). */
  reset(): void {
    this.root = new RadixNode([], null);
    this.size = 0;
    this.evictable = 0;
  }
}
