/**
 * Checks the permission rules of every settings file at load, so a rule that could never match
 * (see `parseRule`) stops the run with the file, the list entry, the rule and the fix — instead
 * of being silently ignored, which for a `deny` rule would be a hole.
 */
import { SettingsError, type ScopedSettings } from "../settings/settings.js";
import { parseRule } from "./rules.js";

/** Throws a SettingsError naming the file and entry for the first rule `parseRule` refuses. */
export function checkSettingsRules(scopes: readonly ScopedSettings[]): void {
  for (const { path, settings } of scopes) {
    for (const kind of ["allow", "ask", "deny"] as const) {
      settings.permissions?.[kind]?.forEach((rule, i) => {
        try {
          parseRule(rule, kind);
        } catch (err) {
          throw new SettingsError(`${path}: "permissions.${kind}[${i}]": ${(err as Error).message}`);
        }
      });
    }
  }
}
