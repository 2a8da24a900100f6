import type { ComponentChildren, InputHTMLAttributes } from 'preact';
import { useCallback, useEffect, useId, useRef, useState } from 'preact/hooks';
import { api, ApiError, withQuery, type ListPage, type Query } from './api.ts';
import { href, navigate } from './router.ts';

/** A page: its heading takes focus when the route changes, so a screen reader announces where it is. */
let firstPage = true;

export function Page(props: { title: string; children: ComponentChildren; actions?: ComponentChildren }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${props.title} · Seller console`;
    // Not on the first page a visit opens: there focus starts at the top, with the skip link.
    if (!firstPage) heading.current?.focus();
    firstPage = false;
  }, [props.title]);
  return (
    <>
      <div class="page-head">
        <h1 tabIndex={-1} ref={heading}>
          {props.title}
        </h1>
        {props.actions}
      </div>
      {props.children}
    </>
  );
}

export function Link(props: { to: string; children: ComponentChildren; class?: string; 'aria-current'?: 'page' }) {
  const onClick = (event: MouseEvent) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(props.to);
  };
  return (
    <a href={href(props.to)} onClick={onClick} class={props.class} aria-current={props['aria-current']}>
      {props.children}
    </a>
  );
}

export function describe(error: unknown): string {
  if (error instanceof ApiError) {
    const issues = (error.details as { issues?: { field: string; problem: string }[] } | undefined)?.issues;
    const more = issues?.length ? ` (${issues.map((i) => `${i.field}: ${i.problem}`).join('; ')})` : '';
    return `${error.message}${more}`;
  }
  return error instanceof Error ? error.message : String(error);
}

/** An error shown where it happened; announced at once. `what` says what failed. */
export function Alert(props: { error: unknown; what?: string }) {
  if (!props.error) return null;
  return (
    <p class="alert" role="alert">
      {props.what ? `${props.what}: ` : ''}
      {describe(props.error)}
    </p>
  );
}

/** Success news, announced politely. The region is always there so screen readers pick up changes. */
export function Status(props: { message: string | null }) {
  return (
    <p class={props.message ? 'status' : 'status empty'} role="status">
      {props.message ?? ''}
    </p>
  );
}

export function Empty(props: { children: ComponentChildren }) {
  return <p class="empty-state">{props.children}</p>;
}

/** A wide table that scrolls sideways on a phone; focusable so a keyboard can scroll it. */
export function Table(props: { label: string; children: ComponentChildren }) {
  return (
    <div class="table-wrap" role="region" aria-label={props.label} tabIndex={0}>
      <table>{props.children}</table>
    </div>
  );
}

/** Loads once (and again on `reload`): the value, or the error shown in place. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]) {
  const [value, setValue] = useState<T | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setLoading(true);
    setError(null);
    load().then(
      (v) => live && (setValue(v), setLoading(false)),
      (e) => live && (setError(e), setLoading(false)),
    );
    return () => void (live = false);
  }, [...deps, tick]);
  return { value, error, loading, reload: () => setTick((t) => t + 1), setValue };
}

/**
 * One list of the API, a page at a time by its cursor (docs/lists.md): `startingAfter` is the last
 * id of the page before; going back pops the cursor stack.
 */
export function useList<T extends { id: string }>(path: string, query: Query = {}, limit = 20) {
  const key = withQuery(path, query);
  const [cursors, setCursors] = useState<string[]>([]);
  useEffect(() => setCursors([]), [key]);
  const cursor = cursors[cursors.length - 1];
  const page = useLoad(() => api<ListPage<T>>('GET', withQuery(path, { ...query, limit, startingAfter: cursor })), [key, cursor]);
  const items = page.value?.data ?? [];
  return {
    ...page,
    items,
    hasMore: page.value?.hasMore ?? false,
    page: cursors.length + 1,
    next: () => {
      const last = items[items.length - 1];
      if (last) setCursors([...cursors, last.id]);
    },
    previous: () => setCursors(cursors.slice(0, -1)),
  };
}

interface Paging {
  page: number;
  hasMore: boolean;
  next: () => void;
  previous: () => void;
  loading: boolean;
}

/**
 * A list as a table: "Loading…", its error in place, what to do next when it is empty, the rows
 * (`row` gives each <tr>), and its pages when it has them. A column named '' is the actions column.
 */
export function Rows<T>(props: {
  label: string;
  list: { items: T[]; loading: boolean; error: unknown } & Partial<Paging>;
  empty: ComponentChildren;
  columns: string[];
  row: (item: T) => ComponentChildren;
}) {
  const { list } = props;
  return (
    <>
      <Loading loading={list.loading} />
      <Alert error={list.error} what={`${props.label} could not be loaded`} />
      {!list.loading && !list.error && list.items.length === 0 && <Empty>{props.empty}</Empty>}
      {list.items.length > 0 && (
        <Table label={props.label}>
          <thead>
            <tr>
              {props.columns.map((column) => (
                <th scope="col">{column || <span class="visually-hidden">Actions</span>}</th>
              ))}
            </tr>
          </thead>
          <tbody>{list.items.map(props.row)}</tbody>
        </Table>
      )}
      {list.next && <Pager list={list as Paging} label={props.label} />}
    </>
  );
}

export function Pager(props: { list: Paging; label: string }) {
  const { list } = props;
  if (list.page === 1 && !list.hasMore) return null;
  return (
    <nav class="pager" aria-label={`${props.label} pages`}>
      <button type="button" class="secondary" onClick={list.previous} disabled={list.page === 1 || list.loading}>
        Previous page
      </button>
      <span>Page {list.page}</span>
      <button type="button" class="secondary" onClick={list.next} disabled={!list.hasMore || list.loading}>
        Next page
      </button>
    </nav>
  );
}

/**
 * Destructive actions ask first, in a modal <dialog> (focus moves into it and returns after; Escape
 * cancels). `ask` resolves true when the seller confirms.
 */
export function useConfirm() {
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  const [text, setText] = useState({ title: '', body: '', action: '' });
  const answer = useRef<(ok: boolean) => void>(() => {});
  const ask = useCallback((title: string, body: string, action: string) => {
    setText({ title, body, action });
    return new Promise<boolean>((resolve) => {
      answer.current = resolve;
      requestAnimationFrame(() => dialog.current?.showModal());
    });
  }, []);
  const close = (ok: boolean) => {
    dialog.current?.close();
    answer.current(ok);
    answer.current = () => {};
  };
  const element = (
    <dialog ref={dialog} aria-labelledby={`${id}-title`} aria-describedby={`${id}-body`} onCancel={() => answer.current(false)} onClose={() => answer.current(false)}>
      <h2 id={`${id}-title`}>{text.title}</h2>
      <p id={`${id}-body`}>{text.body}</p>
      <div class="row">
        <button type="button" class="secondary" onClick={() => close(false)} autoFocus>
          Cancel
        </button>
        <button type="button" class="danger" onClick={() => close(true)}>
          {text.action}
        </button>
      </div>
    </dialog>
  );
  return { ask, element };
}

/** Copies `value`; where the clipboard is refused, selects the field `target` instead. */
export function CopyButton(props: { value: string; target: string; label?: string }) {
  const [copied, setCopied] = useState<string | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.value);
      setCopied('Copied to the clipboard.');
    } catch {
      (document.getElementById(props.target) as HTMLInputElement | null)?.select();
      setCopied('Selected: press Ctrl+C (⌘C) to copy.');
    }
  };
  return (
    <>
      <div class="row">
        <button type="button" class="secondary" onClick={copy}>
          {props.label ?? 'Copy'}
        </button>
      </div>
      <Status message={copied} />
    </>
  );
}

/** A secret the service shows once: read-only, with a copy button, and said plainly. */
export function ShownOnce(props: { label: string; value: string; id: string }) {
  return (
    <div class="secret">
      <label for={props.id}>{props.label}</label>
      <p class="hint" id={`${props.id}-hint`}>
        Shown this once: copy it now and keep it somewhere safe.
      </p>
      <input id={props.id} readOnly value={props.value} aria-describedby={`${props.id}-hint`} class="mono" />
      <CopyButton value={props.value} target={props.id} label={`Copy ${props.label.toLowerCase()}`} />
    </div>
  );
}

/** A labelled input. */
export function Field(props: { label: string; hint?: string; id: string } & InputHTMLAttributes<HTMLInputElement>) {
  const { label, hint, id, ...input } = props;
  return (
    <div class="field">
      <label for={id}>
        {label}
        {hint && <span class="hint">{hint}</span>}
      </label>
      <input id={id} name={id} {...input} />
    </div>
  );
}

/**
 * A filter's options: `any` (no filter), then each value with its label. The labels are a Record
 * over the values the API documents (types.ts), so a new status without its label fails the type check.
 */
export const filterOptions = <V extends string>(any: string, labels: Record<V, string>): [string, string][] => [['', any], ...Object.entries<string>(labels)];

/**
 * A labelled <select> of [value, text] options: read from its form by `id` (uncontrolled), or
 * controlled with `value` and `onChange`.
 */
export function Choice(props: { label: string; id: string; options: [string, string][]; value?: string; onChange?: (value: string) => void; required?: boolean }) {
  return (
    <div class={props.onChange ? 'field inline' : 'field'}>
      <label for={props.id}>{props.label}</label>
      <select
        id={props.id}
        name={props.id}
        value={props.value}
        required={props.required}
        onChange={props.onChange && ((e) => props.onChange!((e.target as HTMLSelectElement).value))}
      >
        {props.options.map(([value, text]) => (
          <option value={value}>{text}</option>
        ))}
      </select>
    </div>
  );
}

/** A list's filters: `onSearch` gets the submitted form's event (read fields with formValue). */
export function SearchForm(props: { label: string; onSearch: (event: Event) => void; children: ComponentChildren }) {
  const submit = (event: Event) => {
    event.preventDefault();
    props.onSearch(event);
  };
  return (
    <form class="filters" role="search" aria-label={props.label} onSubmit={submit}>
      {props.children}
      <div class="row">
        <button type="submit">Search</button>
      </div>
    </form>
  );
}

/** An action's button: busy while it runs, its error in place, its success announced. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [message, setMessage] = useState<string | null>(null);
  const run = async (action: () => Promise<string | null | void>) => {
    setBusy(true);
    setError(null);
    setMessage(null);
    try {
      const done = await action();
      setMessage(done ?? null);
      return true;
    } catch (e) {
      setError(e);
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, message, run, setMessage };
}

type Action = ReturnType<typeof useAction>;

/** A form's submit button, disabled while its action runs. */
export function Submit(props: { action: Action; class?: string; children: ComponentChildren }) {
  return (
    <button type="submit" class={props.class} disabled={props.action.busy}>
      {props.children}
    </button>
  );
}

/** What an action came to: its error in place, its success announced. */
export function Outcome(props: { action: Action }) {
  return (
    <>
      <Alert error={props.action.error} />
      <Status message={props.action.message} />
    </>
  );
}

/**
 * The end of a card form (`grid-form`), across its width: the submit button with any `buttons`
 * beside it, then the action's outcome and what follows it (`children`).
 */
export function FormEnd(props: { action: Action; submit: ComponentChildren; buttons?: ComponentChildren; children?: ComponentChildren }) {
  return (
    <>
      <div class="row wide">
        <Submit action={props.action}>{props.submit}</Submit>
        {props.buttons}
      </div>
      <div class="wide">
        <Outcome action={props.action} />
        {props.children}
      </div>
    </>
  );
}

export function Loading(props: { loading: boolean }) {
  return props.loading ? (
    <p class="muted" aria-live="polite">
      Loading…
    </p>
  ) : null;
}

export function formValue(event: Event, name: string): string {
  const form = event.currentTarget as HTMLFormElement;
  return ((form.elements.namedItem(name) as HTMLInputElement | null)?.value ?? '').trim();
}
