/**
 * Machine binding: a license is unbound until its first validation, which binds it to the
 * submitted fingerprint; a different fingerprint afterwards is a mismatch until the developer unbinds.
 * With maxMachines N, each of the first N distinct fingerprints takes a slot (see activation.ts).
 */
export type BindingDecision =
  | { kind: 'matches' }
  | { kind: 'bind'; fingerprint: string }
  | { kind: 'mismatch' };

export function decideBinding(bound: string | null, submitted: string): BindingDecision {
  return decideSeat(bound === null ? [] : [bound], 1, submitted);
}

/**
 * With N machines: a known fingerprint matches (it never takes a second slot); a new one takes a
 * free slot; with none free it is a mismatch. The store repeats the check when it takes the slot.
 */
export function decideSeat(held: readonly string[], maxMachines: number | null, submitted: string): BindingDecision {
  if (held.includes(submitted)) return { kind: 'matches' };
  if (maxMachines === null || held.length < maxMachines) return { kind: 'bind', fingerprint: submitted };
  return { kind: 'mismatch' };
}
