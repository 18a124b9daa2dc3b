/** Markdown: renders assistant text with light terminal styling (see parse-markdown.ts). */
import { Box, Text } from "ink";
import { parseMarkdown, type MdBlock, type Span } from "./markdown/parse-markdown.js";

export interface MarkdownProps {
  /** The Markdown source. */
  text: string;
  /** Show only the last this-many source lines (live, still-streaming text); undefined = all. */
  tailLines?: number;
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

function Block({ block }: { block: MdBlock }) {
  switch (block.type) {
    case "heading":
      return (
        <Text bold color={block.level <= 2 ? "magenta" : undefined} underline={block.level === 1}>
          <Spans spans={block.spans} />
        </Text>
      );
    case "bullet":
      return (
        <Box paddingLeft={block.indent * 2}>
          <Text>{/^\d/.test(block.marker) ? `${block.marker} ` : "• "}</Text>
          <Box flexShrink={1}>
            <Text>
              <Spans spans={block.spans} />
            </Text>
          </Box>
        </Box>
      );
    case "quote":
      return (
        <Text dimColor>
          {"│ "}
          <Spans spans={block.spans} />
        </Text>
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
        <Text>
          <Spans spans={block.spans} />
        </Text>
      );
  }
}

/** The rendered Markdown, one row per block. */
export function Markdown({ text, tailLines }: MarkdownProps) {
  const source = tailLines === undefined ? text : text.split("\n").slice(-Math.max(1, tailLines)).join("\n");
  const blocks = parseMarkdown(source);
  return (
    <Box flexDirection="column">
      {blocks.map((block, i) => (
        <Block key={i} block={block} />
      ))}
    </Box>
  );
}
