/**
 * The environment the UI modules load in. Ink renders only a final frame when it thinks it runs in
 * CI (CI=true), which would leave a person in a real terminal with a blank screen, so CI variables
 * are hidden while Ink loads (it reads them once), and restored afterwards, so the commands that
 * tools run see the person's own environment. (React's production build is chosen in one place:
 * scripts/build.mjs replaces `process.env.NODE_ENV` when it bundles; nothing sets it at run time.)
 */

const HIDDEN = ["CI", "CONTINUOUS_INTEGRATION"] as const;

/** Runs `load` with the UI's load-time environment in `env`, then restores `env` exactly. */
export async function withUiLoadEnv<T>(load: () => Promise<T>, env: NodeJS.ProcessEnv = process.env): Promise<T> {
  const saved: Record<string, string | undefined> = {};
  for (const key of HIDDEN) {
    saved[key] = env[key];
    delete env[key];
  }
  try {
    return await load();
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete env[key];
      else env[key] = value;
    }
  }
}
