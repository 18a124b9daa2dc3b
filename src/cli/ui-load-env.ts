/**
 * The environment the UI modules load in. Ink renders only a final frame when it thinks it runs in
 * CI (CI=true), which would leave a person in a real terminal with a blank screen, so CI variables
 * are hidden while Ink loads (it reads them once). React picks its build when it is first loaded:
 * unless NODE_ENV says otherwise, the production build (the development build costs about a quarter
 * more CPU while streaming and far more memory). Both are restored afterwards, so the commands that
 * tools run see the person's own environment (an `npm install` must not inherit NODE_ENV=production).
 */

const HIDDEN = ["CI", "CONTINUOUS_INTEGRATION"] as const;

/** Runs `load` with the UI's load-time environment in `env`, then restores `env` exactly. */
export async function withUiLoadEnv<T>(load: () => Promise<T>, env: NodeJS.ProcessEnv = process.env): Promise<T> {
  const saved: Record<string, string | undefined> = { NODE_ENV: env.NODE_ENV };
  for (const key of HIDDEN) {
    saved[key] = env[key];
    delete env[key];
  }
  if (env.NODE_ENV === undefined || env.NODE_ENV === "") env.NODE_ENV = "production";
  try {
    return await load();
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete env[key];
      else env[key] = value;
    }
  }
}
