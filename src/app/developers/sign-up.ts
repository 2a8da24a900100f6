import { InvalidRequestError } from '../../domain/errors.ts';
import { API_KEY_PREFIX, normalizeEmail, type ApiKeyRecord, type ApiKeyScope, type SignUpResult } from '../../domain/developer.ts';
import type { Deps } from '../../ports/deps.ts';
import { newSigningKey } from '../signing-keys/new-signing-key.ts';

export async function signUp(
  deps: Pick<Deps, 'clock' | 'ids' | 'hashing' | 'signer' | 'developers'>,
  input: { email: string; name: string },
): Promise<SignUpResult> {
  const email = normalizeEmail(input.email);
  if (!email) throw new InvalidRequestError('email is not a valid e-mail address.', 'email');
  const name = input.name.trim();
  if (!name) throw new InvalidRequestError('name must not be empty.', 'name');
  const createdAt = deps.clock.now();
  const developer = { id: deps.ids.next('dev'), email, name, createdAt };
  const issue = (scope: ApiKeyScope) => {
    const key = deps.ids.secret(API_KEY_PREFIX[scope]);
    const record: ApiKeyRecord = {
      id: deps.ids.next('key'),
      developerId: developer.id,
      scope,
      keyHash: deps.hashing.hash(key),
      createdAt,
      revokedAt: null,
      lastUsedAt: null,
    };
    return { key, record };
  };
  const secret = issue('secret');
  const publishable = issue('publishable');
  await deps.developers.createAccount({
    developer,
    apiKeys: [secret.record, publishable.record],
    signingKey: newSigningKey(deps, developer.id),
  });
  return { ...developer, secretKey: secret.key, apiKey: secret.key, publishableKey: publishable.key };
}
