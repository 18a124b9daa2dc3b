/**
 * MainInbox: messages sent to the main agent while a prompt runs (`steer` of the control channel),
 * read at its next turn boundary through LoopOptions.takeMessages — the same way a running child
 * reads its own inbox. Open only while a prompt runs: with no run there is no boundary to read at.
 */
import type { SteerMessage } from "./loop.js";
import type { SteerSource } from "../protocol/events.js";
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

  /** Queues `text` for the next turn boundary; false when no run is open to read it. */
  push(text: string, from: SteerSource): boolean {
    if (!this.open) return false;
    this.messages.push({ text, from, content: steerContent(text, from) });
    return true;
  }

  /** The messages waiting (LoopOptions.takeMessages): each is handed out once. */
  readonly take = (): SteerMessage[] => this.messages.splice(0);
}
