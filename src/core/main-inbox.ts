/**
 * MainInbox: messages sent to the main agent while a prompt runs (`steer` of the control channel),
 * read at its next turn boundary through LoopOptions.takeMessages — the same way a running child
 * reads its own inbox. Open only while a prompt runs: with no run there is no boundary to read at.
 */
import type { SteerMessage } from "./loop.js";
import type { AgentEvent, SteerSource } from "../protocol/events.js";
import { steerContent } from "../protocol/steer-message.js";

export class MainInbox {
  private messages: SteerMessage[] = [];
  private runs = 0;

  /** True while a prompt runs (a message can be read). */
  get open(): boolean {
    return this.runs > 0;
  }

  /** Marks a run as started; the returned function marks it ended and gives back the messages it never read. */
  begin(): () => SteerMessage[] {
    this.runs++;
    let ended = false;
    return () => {
      if (ended) return [];
      ended = true;
      this.runs--;
      return this.runs === 0 ? this.messages.splice(0) : [];
    };
  }

  /** Runs `run` with the inbox open; a message that arrived after the run's last boundary is reported to `onEvent` as a warning. */
  async during<T>(run: () => Promise<T>, onEvent?: (event: AgentEvent) => void): Promise<T> {
    const end = this.begin();
    try {
      return await run();
    } finally {
      for (const m of end()) onEvent?.({ type: "warning", source: "loop", message: `a message sent as the run ended was not read by the agent: ${JSON.stringify(m.text)}; send it again as a prompt` });
    }
  }

  /** Queues `text` for the next turn boundary; false when no run is open to read it. */
  push(text: string, from: SteerSource): boolean {
    if (!this.open) return false;
    this.messages.push({ text, from, content: steerContent(text, from) });
    return true;
  }

  /** The messages waiting (LoopOptions.takeMessages): each is handed out once. */
  readonly take = (): SteerMessage[] => this.messages.splice(0);
}
