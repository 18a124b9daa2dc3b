/**
 * Markdown: renders assistant text with light terminal styling (see parse-markdown.ts); tables
 * are drawn with box rules and aligned columns within the width (see table-layout.ts).
 */
import { Box, Text } from "ink";
import { memo, useMemo, useRef } from "react";
import { parseInline, parseMarkdown, type MdBlock, type Span } from "../markdown/parse-markdown.js";
import { stableBlocks, type KeyedBlock } from "../markdown/stable-blocks.js";
import { layoutTable } from "../layout/table-layout.js";
import { WrapText } from "./WrapText.js";

export interface MarkdownProps {
  /** The Markdown source. */
  text: string;
  /** Width the text is drawn in (default 80): tables never exceed it. */
  width?: number;
}

function Spans({ spans }: { spans: Span[] }) {
  return (
    <>
      {spans.map((s, i) =>
        s.code ? (
          <Text key={i} color="cyan">
            {s.text}
          </Text>
        ) : s.link ? (
          <Text key={i} underline bold={s.bold} italic={s.italic}>
            {s.text}
            <Text dimColor> ({s.link})</Text>
          </Text>
        ) : (
          <Text key={i} bold={s.bold} italic={s.italic}>
            {s.text}
          </Text>
        ),
      )}
    </>
  );
}

function Table({ block, width }: { block: Extract<MdBlock, { type: "table" }>; width: number }) {
  const t = layoutTable(block, width);
  return (
    <Box flexDirection="column">
      <Text dimColor>{t.rules.top}</Text>
      {t.header.map((row, i) => (
        <Text key={`h${i}`} bold>
          {row}
        </Text>
      ))}
      <Text dimColor>{t.rules.mid}</Text>
      {t.body.map((row, i) => (
        <Text key={`b${i}`}>{row}</Text>
      ))}
      <Text dimColor>{t.rules.bottom}</Text>
    </Box>
  );
}

/** One parsed block drawn at `width` (memoised: a block whose props are unchanged is not drawn again). */
export const MarkdownBlock = memo(function MarkdownBlock({ block, width }: { block: MdBlock; width: number }) {
  switch (block.type) {
    case "table":
      return <Table block={block} width={width} />;
    case "heading":
      return (
        <WrapText bold color={block.level <= 2 ? "magenta" : undefined} underline={block.level === 1}>
          <Spans spans={block.spans} />
        </WrapText>
      );
    case "bullet":
      // The marker never shrinks: a shrunk one gives its column to the text, a row too wide.
      return (
        <Box paddingLeft={block.indent * 2}>
          <Box flexShrink={0}>
            <Text>{/^\d/.test(block.marker) ? `${block.marker} ` : "• "}</Text>
          </Box>
          <Box flexShrink={1}>
            <WrapText>
              <Spans spans={block.spans} />
            </WrapText>
          </Box>
        </Box>
      );
    case "quote":
      // A left rule on every row the quote wraps to, not only its first.
      return (
        <Box borderStyle="single" borderTop={false} borderRight={false} borderBottom={false} borderDimColor paddingLeft={1}>
          <WrapText dimColor>
            <Spans spans={block.spans} />
          </WrapText>
        </Box>
      );
    case "code":
      return (
        <Box flexDirection="column" paddingLeft={2}>
          {block.lines.map((line, i) => (
            <Text key={i} color="yellow">
              {line === "" ? " " : line}
            </Text>
          ))}
        </Box>
      );
    case "rule":
      return <Text dimColor>{"─".repeat(24)}</Text>;
    case "blank":
      return <Text> </Text>;
    case "para":
      return (
        <WrapText>
          <Spans spans={block.spans} />
        </WrapText>
      );
  }
});

/**
 * One already-wrapped row of Markdown source drawn with the same styles (a live pane's tail, where
 * every row is counted): a heading bold without its `#`s, a bullet as `•`, a fence line dimmed,
 * inline bold, italic, `code` and links. It stays one row (the caller truncates).
 */
export function MarkdownRow({ text }: { text: string }) {
  if (/^\s*(```|~~~)/.test(text)) return <Text dimColor>{text}</Text>;
  const heading = /^(#{1,6})\s+(.*)$/.exec(text);
  if (heading) {
    return (
      <Text bold color={heading[1]!.length <= 2 ? "magenta" : undefined}>
        <Spans spans={parseInline(heading[2]!)} />
      </Text>
    );
  }
  const bullet = /^(\s*)([-*+])\s+(.*)$/.exec(text);
  if (bullet) {
    return (
      <Text>
        {`${bullet[1]}• `}
        <Spans spans={parseInline(bullet[3]!)} />
      </Text>
    );
  }
  return (
    <Text>
      <Spans spans={parseInline(text)} />
    </Text>
  );
}

/**
 * The rendered Markdown, one row per block. A re-parse (a text that grew) keeps the objects and keys of the blocks that did not change (stableBlocks), so only
 * the changed ones are drawn again.
 */
export function Markdown({ text, width }: MarkdownProps) {
  const last = useRef<KeyedBlock[]>([]);
  const blocks = useMemo(() => (last.current = stableBlocks(last.current, parseMarkdown(text))), [text]);
  return (
    <Box flexDirection="column">
      {blocks.map(({ key, block }) => (
        <MarkdownBlock key={key} block={block} width={width ?? 80} />
      ))}
    </Box>
  );
}
