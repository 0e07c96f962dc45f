/**
 * The heading tree of a document: headings nest by level (a skipped level nests under the
 * nearest shallower heading), text before the first heading belongs to the document itself.
 */
import type { Block, TextBlock } from "./document";

export type OutlineSection = {
  readonly title: string;
  readonly level: number;
  readonly anchor?: string;
  /** Headings from the document root down to this section, this one last. */
  readonly path: readonly string[];
  readonly blocks: TextBlock[];
  readonly children: OutlineSection[];
};

export type Outline = {
  /** Text before the first heading. */
  readonly blocks: TextBlock[];
  readonly sections: OutlineSection[];
};

export function buildOutline(blocks: readonly Block[]): Outline {
  const root: Outline = { blocks: [], sections: [] };
  const stack: OutlineSection[] = [];
  for (const block of blocks) {
    if (block.kind === "heading") {
      const title = block.text.trim();
      if (title === "") continue;
      while (stack.length > 0 && (stack.at(-1)?.level ?? 0) >= block.level) stack.pop();
      const parent = stack.at(-1);
      const section: OutlineSection = {
        title,
        level: block.level,
        ...(block.anchor ? { anchor: block.anchor } : {}),
        path: [...(parent?.path ?? []), title],
        blocks: [],
        children: [],
      };
      (parent ? parent.children : root.sections).push(section);
      stack.push(section);
    } else {
      (stack.at(-1)?.blocks ?? root.blocks).push(block);
    }
  }
  return root;
}
