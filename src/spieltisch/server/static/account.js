// Accounts (optional): the header's "Sign in" / "Sign up" and the signed-in name, the
// sign-in dialog, and the `/account` page (password, language, sign out, delete).
// Passkeys (WebAuthn) where the browser has them: sign up or in with one, add and remove
// them on the account page (the server's side: server/passkey_routes.py).
// Playing as a guest needs none of it. The session is an HttpOnly cookie the page never
// sees; util.js `api()` sends the session's CSRF token with every change.

import { LANGUAGES, language, onLanguageChange, setLanguage, t } from './i18n.js';
import { addRoute, go } from './router.js';
import { $, api, ask, esc, toast } from './util.js';

let me = null;  // {id, name, lang} while signed in
let mode = 'signin';  // what the dialog does: 'signin' or 'signup'

/** The signed-in account, or null. */
export const account = () => me;

// -- passkeys ------------------------------------------------------------------------

/** Whether this browser can make and use passkeys (HTTPS or localhost only). */
const passkeysWork = () => Boolean(window.PublicKeyCredential && navigator.credentials);

/** base64url (WebAuthn's JSON form of bytes) to bytes and back. */
function fromB64(text) {
  const bin = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0)).buffer;
}

function toB64(buffer) {
  let bin = '';
  for (const b of new Uint8Array(buffer)) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The server's JSON options as `navigator.credentials` takes them (bytes as buffers). */
function publicKey(o) {
  const ids = (list) => (list || []).map((c) => ({ ...c, id: fromB64(c.id) }));
  const out = { ...o, challenge: fromB64(o.challenge) };
  if (o.user) {
    out.user = { ...o.user, id: fromB64(o.user.id) };
    out.excludeCredentials = ids(o.excludeCredentials);
  } else {
    out.allowCredentials = ids(o.allowCredentials);
  }
  return out;
}

/** A made or used passkey as JSON for the server (bytes as base64url). */
function credentialJson(c) {
  const r = c.response;
  const response = { clientDataJSON: toB64(r.clientDataJSON) };
  if (r.attestationObject) {
    response.attestationObject = toB64(r.attestationObject);
    response.transports = r.getTransports ? r.getTransports() : [];
  } else {
    response.authenticatorData = toB64(r.authenticatorData);
    response.signature = toB64(r.signature);
    response.userHandle = r.userHandle ? toB64(r.userHandle) : null;
  }
  return { id: c.id, rawId: toB64(c.rawId), type: c.type, response };
}

/** One passkey ceremony: the server's options (`path/options` with `start`), the
 * browser's authenticator (`make`: a new passkey, else one it has), the answer back to
 * `path` (with `extra`). Errors read as the server's or as "not used". */
async function ceremony(path, start, extra, make) {
  const { options } = await api('POST', `${path}/options`, start);
  let credential;
  try {
    credential = make ? await navigator.credentials.create({ publicKey: publicKey(options) })
      : await navigator.credentials.get({ publicKey: publicKey(options) });
  } catch {
    credential = null;
  }
  if (!credential) throw new Error(t('No passkey was used (cancelled, or none for this site).'));
  return api('POST', path, { ...extra, credential: credentialJson(credential) });
}

/** The seat tokens this browser keeps (`seat.CODE`): a guest who signs up keeps them. */
function keptSeats() {
  const seats = [];
  for (let i = 0; i < localStorage.length; i += 1) {
    const key = localStorage.key(i);
    if (!key?.startsWith('spieltisch.seat.')) continue;
    try {
      const kept = JSON.parse(localStorage.getItem(key));
      if (kept?.token) seats.push({ code: key.slice('spieltisch.seat.'.length), token: kept.token });
    } catch { /* not ours to judge: left out */ }
  }
  return seats;
}

/** The header's part: the buttons, or the signed-in name linking to `/account`. */
function drawHeader() {
  const box = $('#account');
  if (!box) return;
  if (me) {
    const title = t('Your account');
    box.innerHTML = `<a href="/account" id="account-link" title="${esc(title)}"><svg class="icon" aria-hidden="true" viewBox="0 0 16 16" width="14" height="14"><circle cx="8" cy="5" r="3.2" fill="currentColor"/><path d="M1.5 15.5c0-3.6 2.9-6 6.5-6s6.5 2.4 6.5 6z" fill="currentColor"/></svg> <span class="wide-only">${esc(me.name)}</span></a>`;
  } else {
    box.innerHTML = `<button type="button" id="signin-btn">${esc(t('Sign in'))}</button>
      <button type="button" id="signup-btn">${esc(t('Sign up'))}</button>`;
  }
}

/** The sign-in dialog (made once, labelled again in the current language). */
function dialog() {
  let dlg = $('#account-dialog');
  if (!dlg) {
    dlg = document.createElement('dialog');
    dlg.id = 'account-dialog';
    dlg.setAttribute('aria-labelledby', 'account-title');
    document.body.append(dlg);
    dlg.addEventListener('submit', (e) => {
      if (e.submitter?.value === 'cancel') return;  // method=dialog closes it
      e.preventDefault();
      submit();
    });
    dlg.addEventListener('click', (e) => {
      if (e.target.id === 'account-switch') openDialog(mode === 'signin' ? 'signup' : 'signin');
      if (e.target.id === 'account-passkey') passkeyDialog();
    });
  }
  return dlg;
}

/** Open the dialog to sign in or to sign up. */
function openDialog(what) {
  mode = what;
  const dlg = dialog();
  const up = mode === 'signup';
  const title = up ? t('Sign up') : t('Sign in');
  const passkeyLabel = up ? t('Sign up with a passkey') : t('Sign in with a passkey');
  const passkeyNote = up ? t('Only the name is needed: no password.') : t('No name or password needed.');
  const passkeyRow = passkeysWork() ? `<p class="row passkey-row">
      <button type="button" id="account-passkey">${esc(passkeyLabel)}</button>
      <span class="small muted">${esc(passkeyNote)}</span></p>` : '';
  dlg.innerHTML = `<form method="dialog" class="account-form" novalidate>
    <div class="dialog-head"><h1 id="account-title" class="h2">${esc(title)}</h1></div>
    <p class="small muted">${esc(up ? t('An account keeps your name and your games. Your current tables come along.')
    : t('Playing as a guest needs no account.'))}</p>
    <label>${esc(t('Name'))} <input id="account-name" name="name" autocomplete="username"
      required minlength="3" maxlength="24" value="${esc(localStorage.getItem('spieltisch.name') || '')}"></label>
    <label>${esc(t('Password'))} <input id="account-password" name="password" type="password"
      required minlength="8" maxlength="256" autocomplete="${up ? 'new-password' : 'current-password'}"
      aria-describedby="account-error"></label>
    <p id="account-error" class="error" role="alert"></p>
    <div class="row"><button type="submit" class="big" value="ok">${esc(title)}</button>
      <button type="submit" value="cancel" formnovalidate>${esc(t('Cancel'))}</button>
      <button type="button" id="account-switch">${esc(up ? t('I have an account: sign in')
    : t('No account yet: sign up'))}</button></div>
    ${passkeyRow}
  </form>`;
  if (!dlg.open) dlg.showModal();
  $('#account-name', dlg).focus();
}

/** Send the dialog's form; errors are shown in it, next to the fields. */
async function submit() {
  const dlg = dialog();
  const error = $('#account-error', dlg);
  const body = {
    name: $('#account-name', dlg).value.trim(),
    password: $('#account-password', dlg).value,
    seats: keptSeats(),
  };
  if (mode === 'signup') body.lang = language();
  error.textContent = '';
  try {
    await signedIn(await api('POST', mode === 'signup' ? '/api/account/signup' : '/api/account/signin', body));
  } catch (e) {
    error.textContent = e.message;
    $('#account-password', dlg).focus();
  }
}

/** Signed in (or up): the dialog closes, the header shows the name. */
async function signedIn(answer) {
  me = answer.account;
  dialog().close();
  drawHeader();
  // signing in elsewhere brings the person's language along (a sign-up sent this one)
  if (me.lang && me.lang !== language()) await setLanguage(me.lang, true);
  toast(t('Signed in as {name}.', { name: me.name }), 'info');
}

/** The dialog's passkey button: sign up with a new passkey (the name field's name) or
 * sign in with one this browser's authenticator has (no name needed). */
async function passkeyDialog() {
  const dlg = dialog();
  const error = $('#account-error', dlg);
  error.textContent = '';
  try {
    const seats = { seats: keptSeats() };
    const answer = mode === 'signup'
      ? await ceremony('/api/account/passkey/signup',
        { name: $('#account-name', dlg).value.trim(), lang: language() }, seats, true)
      : await ceremony('/api/account/passkey/signin', {}, seats, false);
    await signedIn(answer);
  } catch (e) {
    error.textContent = e.message;
  }
}

async function signOut() {
  await api('POST', '/api/account/signout');
  me = null;
  drawHeader();
  go('/');
}

/** Wire the header: who is signed in (asked once), the buttons, language changes. */
export async function installAccount() {
  $('#account')?.addEventListener('click', (e) => {
    const b = e.target.closest('button');
    if (b?.id === 'signin-btn') openDialog('signin');
    if (b?.id === 'signup-btn') openDialog('signup');
  });
  onLanguageChange(() => {
    drawHeader();
    const dlg = $('#account-dialog');
    if (dlg?.open) openDialog(mode);
  });
  try {
    me = (await api('GET', '/api/me')).account;
  } catch { me = null; }
  drawHeader();
}

// -- the /account page ---------------------------------------------------------------

class AccountPage {
  constructor() {
    $('#app').dataset.page = 'account';
    this.keys = null;  // {password, passkeys} once the server told them
    this.draw();
    this.loadKeys();
  }

  /** Ask for the account's passkeys (and whether it has a password), then draw again. */
  async loadKeys() {
    if (!me) return;
    try {
      this.keys = await api('GET', '/api/account/passkeys');
    } catch { return; }
    this.draw();
  }

  /** The passkeys part of the page: the list, "Add a passkey" where the browser can. */
  passkeysHtml() {
    const when = (seconds) => new Date(seconds * 1000).toLocaleDateString(language());
    const items = (this.keys?.passkeys || []).map((k) => {
      const added = t('Passkey added on {date}', { date: when(k.created) });
      const used = k.last_used ? t('last used on {date}', { date: when(k.last_used) }) : '';
      const label = t('Remove this passkey');
      const remove = t('Remove');
      const text = used ? `${added} · ${used}` : added;
      return `<li class="row"><span>${esc(text)}</span>
        <button type="button" class="passkey-remove" data-id="${esc(k.id)}" aria-label="${esc(label)}">${esc(remove)}</button></li>`;
    }).join('');
    const none = this.keys && !this.keys.passkeys.length
      ? `<p class="small muted">${esc(t('No passkeys yet: a passkey signs you in without a password.'))}</p>` : '';
    const add = passkeysWork() ? `<button type="button" id="passkey-add">${esc(t('Add a passkey'))}</button>` : '';
    return `<h2>${esc(t('Passkeys'))}</h2>${none}<ul class="passkey-list">${items}</ul>
      <p id="passkey-error" class="error" role="alert"></p>${add}`;
  }

  draw() {
    document.title = t('spieltisch — your account');
    const app = $('#app');
    if (!me) {
      app.innerHTML = `<section class="panel"><h1>${esc(t('Your account'))}</h1>
        <p>${esc(t('You are playing as a guest.'))}</p>
        <p class="row"><button type="button" id="page-signin">${esc(t('Sign in'))}</button>
        <button type="button" id="page-signup">${esc(t('Sign up'))}</button></p></section>`;
      $('#page-signin').onclick = () => openDialog('signin');
      $('#page-signup').onclick = () => openDialog('signup');
      return;
    }
    const langs = Object.entries(LANGUAGES).map(([code, name]) => `<option value="${code}"${
      code === me.lang ? ' selected' : ''}>${esc(name)}</option>`).join('');
    // an account made with a passkey has no password: a passkey confirms its deletion
    const hasPassword = this.keys ? this.keys.password : true;
    const noPassword = t('This account has no password: it signs in with its passkeys.');
    const noPasswordHtml = hasPassword ? '' : `<p class="small muted">${esc(noPassword)}</p>`;
    const deleteWith = hasPassword
      ? `<label>${esc(t('Password'))} <input id="delete-password" type="password" autocomplete="current-password" required></label>`
      : `<p class="small muted">${esc(t('You confirm with one of your passkeys.'))}</p>`;
    app.innerHTML = `<section class="panel account-page">
      <h1>${esc(t('Your account'))}</h1>
      <p>${esc(t('Signed in as {name}.', { name: me.name }))}
        <button type="button" id="signout-btn">${esc(t('Sign out'))}</button></p>
      <form id="lang-form" class="row">
        <label>${esc(t('Your language'))} <select id="account-lang">${langs}</select></label>
        <button type="submit">${esc(t('Save'))}</button>
      </form>
      ${this.passkeysHtml()}
      ${noPasswordHtml}
      <h2${hasPassword ? '' : ' hidden'}>${esc(t('Change the password'))}</h2>
      <form id="password-form" novalidate${hasPassword ? '' : ' hidden'}>
        <p class="small muted">${esc(t('Your other sessions (other browsers) are signed out.'))}</p>
        <label>${esc(t('Current password'))} <input id="old-password" type="password" autocomplete="current-password" required></label>
        <label>${esc(t('New password'))} <input id="new-password" type="password" autocomplete="new-password" required minlength="8"></label>
        <p id="password-error" class="error" role="alert"></p>
        <button type="submit">${esc(t('Change the password'))}</button>
      </form>
      <h2>${esc(t('Delete the account'))}</h2>
      <form id="delete-form" novalidate>
        <p class="small muted">${esc(t('Your name, password, sessions and ratings are deleted; the games you played stay, with your name replaced by "(deleted player)".'))}</p>
        ${deleteWith}
        <p id="delete-error" class="error" role="alert"></p>
        <button type="submit" class="danger">${esc(t('Delete the account'))}</button>
      </form>
    </section>`;
    $('#signout-btn').onclick = () => signOut();
    $('#lang-form').onsubmit = (e) => { e.preventDefault(); this.language(); };
    $('#password-form').onsubmit = (e) => { e.preventDefault(); this.password(); };
    $('#delete-form').onsubmit = (e) => { e.preventDefault(); this.remove(hasPassword); };
    $('#passkey-add')?.addEventListener('click', () => this.addPasskey());
    app.querySelectorAll('.passkey-remove').forEach((b) => {
      b.onclick = () => this.removePasskey(b.dataset.id);
    });
  }

  async addPasskey() {
    $('#passkey-error').textContent = '';
    try {
      this.keys = await ceremony('/api/account/passkey/add', {}, {}, true);
      this.draw();
      toast(t('The passkey is added.'), 'info');
    } catch (e) { $('#passkey-error').textContent = e.message; }
  }

  async removePasskey(id) {
    $('#passkey-error').textContent = '';
    try {
      this.keys = await api('POST', '/api/account/passkey/remove', { id });
      this.draw();
      toast(t('The passkey is removed.'), 'info');
    } catch (e) { $('#passkey-error').textContent = e.message; }
  }

  async language() {
    const lang = $('#account-lang').value;
    try {
      me = (await api('POST', '/api/account/lang', { lang })).account;
      await setLanguage(lang, true);  // the page is drawn again in it
      toast(t('Saved.'), 'info');
    } catch (e) { toast(e.message); }
  }

  async password() {
    const error = $('#password-error');
    error.textContent = '';
    try {
      await api('POST', '/api/account/password',
        { old: $('#old-password').value, new: $('#new-password').value });
      $('#old-password').value = '';
      $('#new-password').value = '';
      toast(t('The password is changed.'), 'info');
    } catch (e) { error.textContent = e.message; }
  }

  async remove(hasPassword) {
    const error = $('#delete-error');
    error.textContent = '';
    // ask once more before deleting
    if (!await ask(t('Delete your account for good? This cannot be undone.'), t('Delete the account'))) return;
    try {
      if (hasPassword) await api('POST', '/api/account/delete', { password: $('#delete-password').value });
      else await ceremony('/api/account/passkey/delete', {}, {}, false);
      me = null;
      drawHeader();
      toast(t('The account is deleted.'), 'info');
      go('/');
    } catch (e) { error.textContent = e.message; }
  }

  onLanguage() { this.draw(); }
}

addRoute(/^\/account\/?$/, async () => {
  $('#rules-btn').hidden = true;
  return new AccountPage();
});
