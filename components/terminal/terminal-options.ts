/** What the environment says about drawing frames: the terminal's scroll region, and whether frames are diffed at all. */

/**
 * Whether frames may scroll a band of rows with the terminal (full-screen: a scroll region,
 * DECSTBM + SU; inline: deleted and inserted lines): from `INK_SCROLL_REGION` (on, off or auto;
 * anything else is reported through `warn` and taken as auto), else from `TERM` — the xterm
 * family, tmux, screen, kitty, alacritty, foot, wezterm, rxvt and Windows Terminal (WT_SESSION)
 * have it; the Linux console, `dumb` and unknown terminals get row repaints.
 */
export function scrollRegionSupport(env: NodeJS.ProcessEnv, warn: (message: string) => void = () => {}): boolean {
  const setting = env.INK_SCROLL_REGION?.trim().toLowerCase();
  if (setting === "on") return true;
  if (setting === "off") return false;
  if (setting && setting !== "auto") warn(`INK_SCROLL_REGION=${env.INK_SCROLL_REGION} is not one of on, off, auto; using auto (set it to on or off to choose)`);
  if (env.WT_SESSION) return true;
  return /^(xterm|tmux|screen|kitty|xterm-kitty|alacritty|foot|wezterm|rxvt|vte|gnome|konsole|st-|iterm)/.test(env.TERM ?? "");
}

/**
 * Whether frames are written as only their changed cells (the default) or whole
 * (`INK_FRAME_DIFF=off`: the fallback if a terminal ever shows a frame garbled).
 */
export function frameDiffEnabled(env: NodeJS.ProcessEnv): boolean {
  return env.INK_FRAME_DIFF?.trim().toLowerCase() !== "off";
}
