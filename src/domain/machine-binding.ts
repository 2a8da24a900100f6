/**
 * Machine binding: a license is unbound until its first validation, which binds it to the
 * submitted fingerprint; a different fingerprint afterwards is a mismatch until the developer unbinds.
 */
export type BindingDecision =
  | { kind: 'matches' }
  | { kind: 'bind'; fingerprint: string }
  | { kind: 'mismatch' };

export function decideBinding(bound: string | null, submitted: string): BindingDecision {
  if (bound === null) return { kind: 'bind', fingerprint: submitted };
  return bound === submitted ? { kind: 'matches' } : { kind: 'mismatch' };
}
