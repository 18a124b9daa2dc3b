/** `ink config` and `/config`: the effective settings with their sources, or the error that makes them unusable. */
import { loadSettings, projectSettingsPath, userSettingsPath } from "../settings/settings.js";
import { formatSettingsReport } from "../settings/config-report.js";
import { errorMessage } from "../protocol/error-message.js";
import { checkSettingsRules } from "../permissions/settings-rules.js";

/** The report lines for `cwd` (the project file only when trusted). Never throws. */
export function settingsReportLines(inkHome: string, cwd: string, trusted: boolean): string[] {
  try {
    const loaded = loadSettings({ inkHome, projectDir: cwd, trusted });
    checkSettingsRules(loaded.scopes);
    return formatSettingsReport(loaded, { user: userSettingsPath(inkHome), project: projectSettingsPath(cwd) });
  } catch (err) {
    return [`settings could not be loaded: ${errorMessage(err)}`];
  }
}
