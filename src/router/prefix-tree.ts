/**
 * cache_aware's picture of each worker's prefix cache: one radix tree over request text (chars),
 * every node marked with the workers ("tenants") whose requests passed through it and when, as
 * SGLang's approximate tree. Pure: time is a tick the caller advances.
 */

class TreeNode {
  readonly children = new Map<string, TreeNode>();
  /** Tenant → tick of its last request through this node. */
  readonly tenants = new Map<string, number>();
  constructor(
    public edge: string,
    public parent: TreeNode | null,
  ) {}
}

export interface PrefixMatch {
  /** Chars of the text found in the tree along nodes an available tenant holds. */
  matched: number;
  /** The most recently used available tenant of the deepest such node; null when nothing matched. */
  tenant: string | null;
}

function commonPrefixLength(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

export class PrefixTree {
  private readonly root = new TreeNode('', null);
  /** Chars each tenant holds, for eviction. */
  private readonly sizes = new Map<string, number>();
  private tick = 0;

  /** Records that `tenant` was sent `text`: every node along its path is marked. */
  insert(text: string, tenant: string): void {
    const now = ++this.tick;
    let node = this.root;
    let rest = text;
    this.mark(node, tenant, now);
    while (rest.length > 0) {
      let child = node.children.get(rest[0]!);
      if (child === undefined) {
        child = new TreeNode(rest, node);
        node.children.set(rest[0]!, child);
      } else {
        const shared = commonPrefixLength(child.edge, rest);
        if (shared < child.edge.length) child = this.split(child, shared);
      }
      this.mark(child, tenant, now);
      rest = rest.slice(child.edge.length);
      node = child;
    }
  }

  /** The longest prefix of `text` the tree holds for any tenant `available` accepts. */
  match(text: string, available: (tenant: string) => boolean): PrefixMatch {
    let node = this.root;
    let matched = 0;
    let deepest: TreeNode | null = null;
    for (;;) {
      const child = node.children.get(text[matched] ?? '');
      if (child === undefined || ![...child.tenants.keys()].some(available)) break;
      const shared = commonPrefixLength(child.edge, text.slice(matched));
      matched += shared;
      deepest = child;
      if (shared < child.edge.length) break;
      node = child;
    }
    if (deepest === null) return { matched: 0, tenant: null };
    let best: string | null = null;
    let bestTick = -1;
    for (const [tenant, tick] of deepest.tenants) {
      if (available(tenant) && tick > bestTick) [best, bestTick] = [tenant, tick];
    }
    return { matched, tenant: best };
  }

  /** Chars held for `tenant`. */
  size(tenant: string): number {
    return this.sizes.get(tenant) ?? 0;
  }

  /** Drops each tenant's least recently used leaves until it holds at most `maxChars`. */
  evict(maxChars: number): void {
    for (const [tenant, size] of [...this.sizes]) {
      let held = size;
      while (held > maxChars) {
        const leaf = this.oldestLeaf(tenant);
        if (leaf === null) break;
        held -= leaf.edge.length;
        this.unmark(leaf, tenant);
      }
    }
  }

  private oldestLeaf(tenant: string): TreeNode | null {
    let oldest: TreeNode | null = null;
    const stack = [...this.root.children.values()];
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (!node.tenants.has(tenant)) continue;
      const deeper = [...node.children.values()].filter((child) => child.tenants.has(tenant));
      if (deeper.length === 0 && (oldest === null || node.tenants.get(tenant)! < oldest.tenants.get(tenant)!)) oldest = node;
      stack.push(...deeper);
    }
    return oldest;
  }

  private mark(node: TreeNode, tenant: string, now: number): void {
    if (!node.tenants.has(tenant)) this.sizes.set(tenant, this.size(tenant) + node.edge.length);
    node.tenants.set(tenant, now);
  }

  private unmark(node: TreeNode, tenant: string): void {
    node.tenants.delete(tenant);
    this.sizes.set(tenant, this.size(tenant) - node.edge.length);
    if (node.tenants.size === 0 && node.parent !== null) node.parent.children.delete(node.edge[0]!);
  }

  /** Splits `node`'s edge after `at` chars; the upper part keeps the tenants (and their ticks) of both. */
  private split(node: TreeNode, at: number): TreeNode {
    const parent = node.parent!;
    const upper = new TreeNode(node.edge.slice(0, at), parent);
    for (const [tenant, tick] of node.tenants) upper.tenants.set(tenant, tick);
    parent.children.set(upper.edge[0]!, upper);
    node.edge = node.edge.slice(at);
    node.parent = upper;
    upper.children.set(node.edge[0]!, node);
    return upper;
  }
}
