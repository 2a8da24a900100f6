import { startAuthentication, type PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { useRef, useState } from 'preact/hooks';
import { api } from '../api.ts';
import type { LoginStarted, SessionAnswer } from '../types.ts';
import { Field, formValue, Outcome, Page, Submit, useAction } from '../ui.tsx';

/**
 * Sign in by a code e-mailed to the account's address, or by a passkey (discoverable: no e-mail
 * needed). Both end in a session cookie and the CSRF token the console sends from then on.
 */
export function SignIn(props: { onSignedIn: (answer: SessionAnswer) => void }) {
  const [loginId, setLoginId] = useState<string | null>(null);
  const [email, setEmail] = useState('');
  const action = useAction();
  const code = useRef<HTMLInputElement>(null);

  const sendCode = (event: Event) => {
    event.preventDefault();
    const address = formValue(event, 'email');
    void action.run(async () => {
      const answer = await api<LoginStarted>('POST', '/developers/login', { email: address }, { quiet401: true });
      setEmail(address);
      setLoginId(answer.loginId);
      requestAnimationFrame(() => code.current?.focus());
      return `If ${address} has an account, a 6-digit code is on its way.`;
    });
  };
  const verify = (event: Event) => {
    event.preventDefault();
    const value = formValue(event, 'code');
    void action.run(async () => {
      const answer = await api<SessionAnswer>('POST', '/developers/login/verify', { loginId, code: value }, { quiet401: true });
      props.onSignedIn(answer);
    });
  };
  const passkey = () =>
    void action.run(async () => {
      // The API documents the WebAuthn options as an opaque object: the browser library's type is their shape.
      const { challengeId, options } = await api<{ challengeId: string; options: PublicKeyCredentialRequestOptionsJSON }>('POST', '/developers/login/passkey/options', {}, { quiet401: true });
      const response = await startAuthentication({ optionsJSON: options });
      const answer = await api<SessionAnswer>('POST', '/developers/login/passkey/verify', { challengeId, response }, { quiet401: true });
      props.onSignedIn(answer);
    });

  return (
    <main id="content" class="narrow">
      <Page title="Sign in to the seller console">
        {loginId === null ? (
          <form onSubmit={sendCode} class="card">
            <Field label="E-mail" id="email" type="email" autoComplete="username webauthn" required defaultValue={email} />
            <Submit action={action}>Send me a code</Submit>
          </form>
        ) : (
          <form onSubmit={verify} class="card">
            <p>
              Enter the code sent to <strong>{email}</strong>.
            </p>
            <div class="field">
              <label for="code">Code</label>
              <input id="code" name="code" ref={code} inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" maxLength={6} required />
            </div>
            <div class="row">
              <Submit action={action}>Sign in</Submit>
              <button type="button" class="secondary" onClick={() => setLoginId(null)}>
                Use another address
              </button>
            </div>
          </form>
        )}
        <div class="card">
          <p>Or sign in with a passkey you added under Developers.</p>
          <button type="button" class="secondary" onClick={passkey} disabled={action.busy}>
            Sign in with a passkey
          </button>
        </div>
        <Outcome action={action} />
        <p class="muted small">
          Lost every key? Sign in by e-mail code, then create a new secret key under Developers.
        </p>
      </Page>
    </main>
  );
}
