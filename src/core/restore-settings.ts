/**
 * The model and permission mode a resumed main session goes on with: the last ones the person
 * chose in it (`settings` entries), unless the command line names its own. `yolo` is never
 * switched on again by itself: the person asks for it anew (said in a note).
 */
import { PERMISSION_MODES, type PermissionMode } from "../permissions/decide.js";
import type { Provider } from "../protocol/provider.js";
import type { LoadedSession } from "../session/types.js";

export interface RestoreInput {
  settings: LoadedSession["settings"];
  /** The provider of the saved session (its header). */
  savedProvider: string;
  provider: Pick<Provider, "name" | "ownsModel">;
  /** The command line named a model (`--model`): it wins. */
  modelGiven: boolean;
  /** The command line named a mode (`--permission-mode`, `--yolo`): it wins. */
  modeGiven: boolean;
}

/** What to switch to (nothing when the saved choice does not apply) and notes for the person. */
export function restoredSettings(input: RestoreInput): { model?: string; mode?: PermissionMode; notes: string[] } {
  const { settings, provider } = input;
  const notes: string[] = [];
  let model: string | undefined;
  if (settings.model !== undefined && !input.modelGiven) {
    if (input.savedProvider === provider.name && (provider.ownsModel?.(settings.model) ?? true)) model = settings.model;
    else notes.push(`this session last ran on model ${settings.model} (${input.savedProvider}); it goes on with the ${provider.name} provider's model`);
  }
  let mode: PermissionMode | undefined;
  const saved = settings.permissionMode;
  if (saved !== undefined && !input.modeGiven && (PERMISSION_MODES as readonly string[]).includes(saved)) {
    if (saved === "yolo") notes.push("this session was left in permission mode yolo; it goes on in the default mode — /mode yolo switches it on again");
    else mode = saved as PermissionMode;
  }
  return { model, mode, notes };
}
