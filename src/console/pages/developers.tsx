import { startRegistration, type PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import { useState } from 'preact/hooks';
import { API, api, type ListPage } from '../api.ts';
import { when } from '../format.ts';
import type { ApiKey, ApiKeyList, ConnectStart, ConnectStatus, ConsoleSession, Developer, Jwks, NewApiKey, Passkey, RotatedKey } from '../types.ts';
import { Alert, Choice, Empty, Field, formValue, Outcome, Page, Rows, ShownOnce, Submit, useAction, useConfirm, useLoad } from '../ui.tsx';

const SCOPE_LABELS: Record<ApiKey['scope'], string> = {
  secret: 'Secret (sk_: everything, server side only)',
  publishable: 'Publishable (pk_: validation and checkout, safe in apps)',
};

/** API keys, signing keys, Stripe Connect, console sessions and passkeys. */
export function DevelopersPage(props: { developer: Developer | null }) {
  return (
    <Page title="Developers">
      <ApiKeys />
      <SigningKeys developer={props.developer} />
      <Connect />
      <Sessions />
      <Passkeys />
    </Page>
  );
}

function ApiKeys() {
  const keys = useLoad(() => api<ApiKeyList>('GET', '/developers/api-keys'), []);
  const action = useAction();
  const confirm = useConfirm();
  const [made, setMade] = useState<{ key: string; scope: string } | null>(null);
  const create = (event: Event) => {
    event.preventDefault();
    const scope = formValue(event, 'key-scope');
    void action.run(async () => {
      const answer = await api<NewApiKey>('POST', '/developers/api-keys', { scope });
      setMade({ key: answer.key, scope });
      keys.reload();
      return `Created a ${scope} key.`;
    });
  };
  const revoke = async (key: ApiKey) => {
    if (!(await confirm.ask(`Revoke ${key.id}?`, 'Every call made with this key fails from now on. This cannot be undone.', 'Revoke key'))) return;
    void action.run(async () => {
      await api('POST', `/developers/api-keys/${key.id}/revoke`);
      keys.reload();
      return `Revoked ${key.id}.`;
    });
  };
  const live = (keys.value?.data ?? []).filter((k) => !k.revokedAt);
  return (
    <section aria-labelledby="api-keys">
      {confirm.element}
      <h2 id="api-keys">API keys</h2>
      <form class="row end" onSubmit={create} aria-label="New API key">
        <Choice
          label="Scope"
          id="key-scope"
          options={Object.entries(SCOPE_LABELS)}
        />
        <Submit action={action}>Create API key</Submit>
      </form>
      <Outcome action={action} />
      {made && <ShownOnce label={made.scope === 'secret' ? 'Secret key' : 'Publishable key'} id="new-api-key" value={made.key} />}
      <Rows
        label="API keys"
        list={{ items: live, loading: keys.loading, error: keys.error }}
        empty="No live key: create one above to call the API."
        columns={['Key', 'Scope', 'Created', 'Last used', '']}
        row={(k) => (
          <tr>
            <td class="mono small">{k.id}</td>
            <td>{k.scope}</td>
            <td>{when(k.createdAt)}</td>
            <td>{k.lastUsedAt === undefined ? 'not recorded' : k.lastUsedAt === null ? 'never' : when(k.lastUsedAt)}</td>
            <td>
              <button type="button" class="secondary small" onClick={() => revoke(k)} disabled={action.busy}>
                Revoke <span class="visually-hidden">{k.id}</span>
              </button>
            </td>
          </tr>
        )}
      />
    </section>
  );
}

function SigningKeys(props: { developer: Developer | null }) {
  const id = props.developer?.id;
  const jwksPath = id ? `/developers/${id}/jwks.json` : null;
  const jwks = useLoad(async () => (jwksPath ? api<Jwks>('GET', jwksPath) : null), [jwksPath]);
  const action = useAction();
  const confirm = useConfirm();
  const rotate = async (compromised: boolean) => {
    const body = compromised
      ? 'The current key is marked compromised: licenses it signed stop validating offline once apps refresh the JWKS. Use this only after a leak.'
      : 'A new key signs new licenses from now on; old licenses keep validating (apps find both keys in the JWKS).';
    if (!(await confirm.ask(compromised ? 'Rotate as compromised?' : 'Rotate the signing key?', body, 'Rotate signing key'))) return;
    void action.run(async () => {
      const answer = await api<RotatedKey>('POST', '/developers/signing-keys/rotate', compromised ? { compromised: true } : {});
      jwks.reload();
      return `New signing key ${answer.kid}.`;
    });
  };
  return (
    <section aria-labelledby="signing-keys">
      {confirm.element}
      <h2 id="signing-keys">Signing keys</h2>
      <p class="muted">Licenses are signed with Ed25519; apps verify them offline with the public keys in your JWKS.</p>
      <div class="row">
        <button type="button" class="secondary" onClick={() => rotate(false)} disabled={action.busy}>
          Rotate signing key
        </button>
        <button type="button" class="danger" onClick={() => rotate(true)} disabled={action.busy}>
          Rotate as compromised
        </button>
      </div>
      <Outcome action={action} />
      {jwksPath ? (
        <>
          <p>
            Public keys: <a href={`${API}${jwksPath}`}>{`${location.origin}${API}${jwksPath}`}</a>
          </p>
          <Alert error={jwks.error} what="The JWKS could not be loaded" />
          {jwks.value && (
            <ul class="plain">
              {jwks.value.keys.map((k) => (
                <li>
                  <span class="mono small">{k.kid}</span> {k.status}, from {when(k.notBefore)}
                </li>
              ))}
            </ul>
          )}
        </>
      ) : (
        <p class="muted">Your JWKS is at /v1/developers/&lt;your developer id&gt;/jwks.json; sign in to the console to see its keys here.</p>
      )}
    </section>
  );
}

function Connect() {
  const status = useLoad(() => api<ConnectStatus>('GET', '/connect/status'), []);
  const action = useAction();
  const connect = () =>
    void action.run(async () => {
      const { url } = await api<ConnectStart>('POST', '/connect/start');
      location.assign(url);
      return 'Opening Stripe…';
    });
  return (
    <section aria-labelledby="connect">
      <h2 id="connect">Stripe Connect</h2>
      <Alert error={status.error} what="The Stripe Connect status could not be loaded" />
      {status.value &&
        (status.value.connected ? (
          <p>
            Connected: payouts go to <span class="mono">{status.value.accountId}</span>.
          </p>
        ) : (
          <p>Not connected: connect your Stripe account to take payments at checkout.</p>
        ))}
      <button type="button" class={status.value?.connected ? 'secondary' : ''} onClick={connect} disabled={action.busy}>
        {status.value?.connected ? 'Connect another Stripe account' : 'Connect with Stripe'}
      </button>
      <Outcome action={action} />
    </section>
  );
}

function Sessions() {
  const sessions = useLoad(() => api<ListPage<ConsoleSession>>('GET', '/developers/console/sessions'), []);
  const action = useAction();
  const confirm = useConfirm();
  const revoke = async (s: ConsoleSession) => {
    if (!(await confirm.ask('Sign this session out?', s.current ? 'This is the session you are using: you will be signed out.' : 'That browser must sign in again.', 'Sign out session'))) return;
    void action.run(async () => {
      await api('POST', `/developers/console/sessions/${s.id}/revoke`);
      sessions.reload();
      return 'Session signed out.';
    });
  };
  const revokeAll = async () => {
    if (!(await confirm.ask('Sign out everywhere?', 'Every console session ends, this one too.', 'Sign out everywhere'))) return;
    void action.run(async () => {
      await api('POST', '/developers/console/sessions/revoke-all');
      sessions.reload();
      return 'Every session is signed out.';
    });
  };
  return (
    <section aria-labelledby="sessions">
      {confirm.element}
      <h2 id="sessions">Console sessions</h2>
      <Alert error={sessions.error} what="Console sessions could not be loaded" />
      <Outcome action={action} />
      <Rows
        label="Console sessions"
        list={{ items: sessions.value?.data ?? [], loading: sessions.loading, error: sessions.error }}
        empty="No one is signed in to the console."
        columns={['Browser', 'Signed in', 'Last used', '']}
        row={(s) => (
          <tr>
            <td>
              {s.userAgent ?? 'unknown'} <span class="muted small">{s.clientAddress}</span>
              {s.current && <span class="tag">this session</span>}
            </td>
            <td>
              {when(s.createdAt)} by {s.how === 'passkey' ? 'passkey' : 'e-mail code'}
            </td>
            <td>{when(s.lastUsedAt)}</td>
            <td>
              <button type="button" class="secondary small" onClick={() => revoke(s)} disabled={action.busy}>
                Sign out <span class="visually-hidden">session {s.id}</span>
              </button>
            </td>
          </tr>
        )}
      />
      {(sessions.value?.data.length ?? 0) > 0 && (
        <button type="button" class="danger" onClick={revokeAll} disabled={action.busy}>
          Sign out everywhere
        </button>
      )}
    </section>
  );
}

function Passkeys() {
  const passkeys = useLoad(() => api<ListPage<Passkey>>('GET', '/developers/passkeys'), []);
  const action = useAction();
  const confirm = useConfirm();
  const add = (event: Event) => {
    event.preventDefault();
    const name = formValue(event, 'passkey-name');
    void action.run(async () => {
      const options = await api<PublicKeyCredentialCreationOptionsJSON>('POST', '/developers/passkeys/registration/options', {});
      const response = await startRegistration({ optionsJSON: options });
      await api('POST', '/developers/passkeys/registration/verify', name ? { response, name } : { response });
      passkeys.reload();
      return 'Passkey added: you can sign in with it from now on.';
    });
  };
  const revoke = async (p: Passkey) => {
    if (!(await confirm.ask(`Remove the passkey ${p.name ?? p.id}?`, 'It no longer signs you in.', 'Remove passkey'))) return;
    void action.run(async () => {
      await api('POST', `/developers/passkeys/${p.id}/revoke`);
      passkeys.reload();
      return 'Passkey removed.';
    });
  };
  return (
    <section aria-labelledby="passkeys">
      {confirm.element}
      <h2 id="passkeys">Passkeys</h2>
      <form class="row end" onSubmit={add} aria-label="Add a passkey">
        <Field label="Passkey name" hint="e.g. work laptop" id="passkey-name" />
        <Submit action={action}>Add a passkey</Submit>
      </form>
      <Outcome action={action} />
      <Alert error={passkeys.error} what="Passkeys could not be loaded" />
      {passkeys.value && passkeys.value.data.length === 0 && <Empty>No passkey yet. Add one to sign in without waiting for an e-mail.</Empty>}
      {passkeys.value && passkeys.value.data.length > 0 && (
        <ul class="plain">
          {passkeys.value.data.map((p) => (
            <li class="row">
              <span>
                {p.name ?? 'Passkey'} <span class="muted small">added {when(p.createdAt)}, last used {when(p.lastUsedAt)}</span>
              </span>
              <button type="button" class="secondary small" onClick={() => revoke(p)} disabled={action.busy}>
                Remove <span class="visually-hidden">passkey {p.name ?? p.id}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
