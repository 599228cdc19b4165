import { quote } from '../errors/chaingate-error.ts';

export type ValidationIssue = { instancePath?: string; message?: string; params?: Record<string, unknown> };

/** "body.params: missing required field 'x'", from the first Ajv error: the field is always named. */
export function validationMessage(
  issue: ValidationIssue | undefined,
  context: string,
  fallback: string,
): string {
  if (!issue) return fallback;
  const missing = issue.params?.requiredProperties ?? issue.params?.missingProperty;
  const path = (issue.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
  const where = `${context}${path ? `.${path}` : ''}`;
  if (missing)
    return `${where}: missing required field '${Array.isArray(missing) ? missing.join(', ') : String(missing)}'`;
  const additional = issue.params?.additionalProperty;
  if (additional !== undefined) return `${where}: unknown field '${quote(additional)}'`;
  return `${where} ${issue.message ?? 'is invalid'}`;
}
