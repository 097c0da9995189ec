/**
 * The shape of a `blocks` (rich text) value, checked the way Strapi's blocks validator does: an
 * array of block nodes (paragraph, heading, quote, list, image, code) whose children are inline
 * nodes (text, link), with Strapi's messages. Unknown extra keys on nodes are allowed, as there.
 */
import type { Issues } from './body-issues.ts';
import { notType, yupPath as pathText, type Path } from './body-messages.ts';

type Node = Record<string, unknown>;

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

export function checkBlocks(value: unknown, path: Path, issues: Issues): void {
  if (!Array.isArray(value)) {
    issues.add(path, notType(path, 'array', value), value);
    return;
  }
  value.forEach((node, index) => checkBlock(node, [...path, index], issues));
}

function checkBlock(node: unknown, path: Path, issues: Issues): void {
  const type = isNode(node) ? node.type : undefined;
  switch (type) {
    case 'paragraph':
    case 'heading':
    case 'quote': {
      const n = node as Node;
      const label = type === 'paragraph' ? 'Paragraph' : type === 'heading' ? 'Heading' : 'Quote';
      if (type === 'heading' && ![1, 2, 3, 4, 5, 6].includes(n.level as number)) {
        issues.add([...path, 'level'], `${pathText(path)}.level must be one of the following values: 1, 2, 3, 4, 5, 6`, n.level);
      }
      checkChildren(n, path, issues, `${label} node children must have at least one Text or Link node`, checkInline);
      return;
    }
    case 'code':
      checkChildren(node as Node, path, issues, 'Quote node children must have at least one Text or Link node', checkText);
      return;
    case 'list':
      checkList(node as Node, path, issues);
      return;
    case 'image': {
      const n = node as Node;
      if (!isNode(n.image)) issues.add([...path, 'image'], notType([...path, 'image'], 'object', n.image), n.image);
      if (!Array.isArray(n.children)) issues.add([...path, 'children'], notType([...path, 'children'], 'array', n.children), n.children);
      else n.children.forEach((child, index) => checkInline(child, [...path, 'children', index], issues));
      return;
    }
    default:
      issues.add(path, 'Block node is of invalid type', node);
  }
}

function checkList(node: Node, path: Path, issues: Issues): void {
  if (node.format !== 'ordered' && node.format !== 'unordered') {
    issues.add([...path, 'format'], `${pathText(path)}.format must be one of the following values: ordered, unordered`, node.format);
  }
  checkChildren(node, path, issues, 'List node children must have at least one ListItem or ListNode', (child, childPath) => {
    const type = isNode(child) ? child.type : undefined;
    if (type === 'list') checkList(child as Node, childPath, issues);
    else if (type === 'list-item') {
      const item = child as Node;
      if (!Array.isArray(item.children)) issues.add([...childPath, 'children'], notType([...childPath, 'children'], 'array', item.children), item.children);
      else item.children.forEach((inline, index) => checkInline(inline, [...childPath, 'children', index], issues));
    } else issues.add(childPath, 'Inline node must be list-item or list', child);
  });
}

function checkChildren(node: Node, path: Path, issues: Issues, emptyMessage: string, check: (child: unknown, path: Path, issues: Issues) => void): void {
  const childrenPath = [...path, 'children'];
  if (!Array.isArray(node.children)) {
    issues.add(childrenPath, notType(childrenPath, 'array', node.children), node.children);
    return;
  }
  if (node.children.length === 0) issues.add(childrenPath, emptyMessage, node.children);
  node.children.forEach((child, index) => check(child, [...childrenPath, index], issues));
}

function checkInline(node: unknown, path: Path, issues: Issues): void {
  const type = isNode(node) ? node.type : undefined;
  if (type === 'text') checkText(node, path, issues);
  else if (type === 'link') {
    const link = node as Node;
    if (typeof link.url !== 'string' || !isSafeLink(link.url)) issues.add([...path, 'url'], 'Please specify a valid link.', link.url);
    if (!Array.isArray(link.children)) issues.add([...path, 'children'], notType([...path, 'children'], 'array', link.children), link.children);
    else link.children.forEach((child, index) => checkText(child, [...path, 'children', index], issues));
  } else issues.add(path, 'Inline node must be Text or Link', node);
}

function checkText(node: unknown, path: Path, issues: Issues): void {
  if (!isNode(node) || node.type !== 'text') {
    issues.add(path, 'Inline node must be Text or Link', node);
    return;
  }
  if (typeof node.text !== 'string') issues.add([...path, 'text'], 'Text must be defined with at least an empty string', node.text);
}

const blockedProtocols = new Set(['javascript:', 'vbscript:', 'data:']);

function isSafeLink(link: string): boolean {
  try {
    const url = new URL(link.startsWith('/') ? `https://example.com${link}` : link);
    return !blockedProtocols.has(url.protocol);
  } catch {
    return false;
  }
}
