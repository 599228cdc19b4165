// The wallet page: reads ?hash and ?username, walks the user through one strategy over the page's
// JSON API (/wallet/api/…). No framework, no third-party code. PINs and codes only ever travel in the
// body of a POST: the inputs have no `name`, so no form submission can put them in a URL.

const byId = (id) => document.getElementById(id);
const query = new URLSearchParams(window.location.search);
const hash = query.get('hash') || '';
const username = query.get('username') || '';
const steps = ['loading', 'choose', 'pin', 'totp', 'email', 'done', 'dead'];

let info = null;
let strategy = null;
let busy = false;

function apiUrl(path) {
  return new URL(`api/${path}`, window.location.href).toString();
}

async function api(method, path, body) {
  const options = { method, cache: 'no-store', credentials: 'same-origin', headers: {} };
  if (body !== undefined) {
    options.headers['content-type'] = 'application/json';
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(apiUrl(path), options);
  } catch {
    return { status: 0, data: null, retryAfter: null };
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  return { status: response.status, data, retryAfter: Number(response.headers.get('retry-after')) || null };
}

function showStep(name) {
  for (const step of steps) byId(`step-${step}`).hidden = step !== name;
  const heading = byId(`step-${name}`).querySelector('h2');
  if (heading) heading.focus();
}

function clearError() {
  const box = byId('error');
  box.hidden = true;
  box.textContent = '';
}

function showError(message, focusId) {
  const box = byId('error');
  box.textContent = message;
  box.hidden = false;
  const field = focusId ? byId(focusId) : null;
  if (field) {
    field.setAttribute('aria-invalid', 'true');
    field.setAttribute('aria-describedby', 'error');
    field.focus();
  } else {
    box.focus();
  }
}

function resetField(id) {
  const field = byId(id);
  field.value = '';
  field.removeAttribute('aria-invalid');
  if (field.getAttribute('aria-describedby') === 'error') field.removeAttribute('aria-describedby');
}

function minutes(seconds) {
  const count = Math.max(1, Math.ceil(seconds / 60));
  return count === 1 ? '1 minute' : `${count} minutes`;
}

function showDead(title, message, href) {
  clearError();
  byId('dead-heading').textContent = title;
  byId('dead-message').textContent = message;
  const link = byId('dead-link');
  const back = byId('dead-back');
  link.hidden = !href;
  if (href) link.href = href;
  back.hidden = Boolean(href) || window.history.length < 2;
  showStep('dead');
}

/** Answers every page step shares: a dead link, a lock, a server that is not there. */
function handleCommonError(answer, focusId) {
  const code = answer.data?.code;
  const fallback = info?.fallbackUrl;
  if (code === 'CG_ERR_HASH_EXPIRED') {
    showDead('This link has expired', 'Ask for a new link where you started.', fallback);
  } else if (code === 'CG_ERR_HASH_USED') {
    showDead('This link was already used', 'A wallet was already created with this link.', fallback);
  } else if (code === 'CG_ERR_UNKNOWN_HASH') {
    showDead(
      'This link is not valid',
      'Check that you opened the whole link, or ask for a new one.',
      fallback,
    );
  } else if (code === 'CG_ERR_WALLET_EXISTS') {
    showDead('You already have a wallet', 'There is already a wallet for this e-mail address.', fallback);
  } else if (code === 'CG_ERR_WALLET_LOCKED') {
    showError(`Too many wrong codes. Try again in ${minutes(answer.retryAfter || 900)}.`, focusId);
  } else if (code === 'CG_ERR_INVALID_PIN') {
    showError('That code is not right, or it has expired. Try again.', focusId);
  } else if (code === 'CG_ERR_CODE_RECENTLY_SENT') {
    showError(`A code was sent moments ago. You can ask for another in ${answer.retryAfter || 30} seconds.`);
  } else if (code === 'CG_ERR_MAIL_FAILED') {
    showError('We could not send the e-mail. Try again in a moment.');
  } else if (answer.status === 0) {
    showError('The service cannot be reached. Check your connection and try again.', focusId);
  } else {
    showError(
      `Something went wrong${answer.data?.message ? `: ${answer.data.message}` : ''}. Try again.`,
      focusId,
    );
  }
}

async function withBusy(form, work) {
  if (busy) return;
  busy = true;
  const buttons = form.querySelectorAll('button');
  for (const button of buttons) button.disabled = true;
  form.setAttribute('aria-busy', 'true');
  try {
    await work();
  } finally {
    busy = false;
    for (const button of buttons) button.disabled = false;
    form.removeAttribute('aria-busy');
  }
}

async function setup(chosen) {
  return api('POST', 'setup', { hash, username, strategy: chosen });
}

async function confirm(pin, focusId) {
  const answer = await api('POST', 'confirm', { hash, username, strategy, pin });
  if (answer.status === 200) {
    clearError();
    byId('address').textContent = answer.data.accountAddress;
    showStep('done');
    return;
  }
  handleCommonError(answer, focusId);
}

function renderQr(svgText) {
  const parsed = new DOMParser().parseFromString(svgText, 'image/svg+xml');
  const svg = parsed.documentElement;
  byId('qr').replaceChildren(
    svg.nodeName === 'svg' ? document.importNode(svg, true) : document.createTextNode(''),
  );
}

function groupSecret(secret) {
  return secret.replace(/(.{4})/g, '$1 ').trim();
}

async function start(chosen) {
  strategy = chosen;
  const answer = await setup(chosen);
  // Back, then e-mail again within 30 s: the code sent moments ago is still the one to type.
  const codeAlreadySent = chosen === 3 && answer.data?.code === 'CG_ERR_CODE_RECENTLY_SENT';
  if (answer.status !== 200 && !codeAlreadySent) {
    handleCommonError(answer);
    return;
  }
  clearError();
  if (chosen === 1) {
    resetField('pin');
    resetField('pin-again');
    showStep('pin');
  } else if (chosen === 2) {
    renderQr(answer.data.qrSvg);
    byId('totp-secret').textContent = groupSecret(answer.data.secret);
    resetField('totp-code');
    showStep('totp');
  } else {
    byId('email-to').textContent = info.username;
    resetField('email-code');
    showStep('email');
  }
}

function onCancel() {
  if (info) window.location.assign(info.cancelUrl);
}

function onBack() {
  clearError();
  showStep('choose');
}

function wire() {
  for (const button of document.querySelectorAll('button.cancel')) button.addEventListener('click', onCancel);
  for (const button of document.querySelectorAll('button.back')) button.addEventListener('click', onBack);
  byId('dead-back').addEventListener('click', () => window.history.back());

  byId('choose-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const picked = byId('choose-form').querySelector('input[name="strategy"]:checked');
    if (!picked) {
      showError('Choose how you want to confirm your transactions.', `strategy-${info.strategies[0]}`);
      return;
    }
    withBusy(byId('choose-form'), () => start(Number(picked.value)));
  });

  byId('pin-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const pin = byId('pin').value;
    const again = byId('pin-again').value;
    if (!/^\d{4,12}$/.test(pin)) {
      showError('The PIN must be 4 to 12 digits.', 'pin');
      return;
    }
    if (pin !== again) {
      resetField('pin-again');
      showError('The two PINs are not the same. Type it again.', 'pin-again');
      return;
    }
    withBusy(byId('pin-form'), async () => {
      await confirm(pin, 'pin');
      resetField('pin');
      resetField('pin-again');
    });
  });

  byId('totp-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const code = byId('totp-code').value.replace(/\s/g, '');
    if (!/^\d{6}$/.test(code)) {
      showError('Type the 6 digits your app shows.', 'totp-code');
      return;
    }
    withBusy(byId('totp-form'), async () => {
      await confirm(code, 'totp-code');
      resetField('totp-code');
    });
  });

  byId('email-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const code = byId('email-code').value.replace(/\s/g, '');
    if (!/^\d{6}$/.test(code)) {
      showError('Type the 6 digits from the e-mail.', 'email-code');
      return;
    }
    withBusy(byId('email-form'), async () => {
      await confirm(code, 'email-code');
      resetField('email-code');
    });
  });

  byId('resend').addEventListener('click', () => {
    withBusy(byId('email-form'), async () => {
      const answer = await setup(3);
      if (answer.status === 200) {
        clearError();
        resetField('email-code');
        byId('email-code').focus();
      } else {
        handleCommonError(answer);
      }
    });
  });
}

async function load() {
  wire();
  if (!hash || !username) {
    showDead('This link is not complete', 'Open the whole link you were given, or ask for a new one.', null);
    return;
  }
  const answer = await api(
    'GET',
    `hash/${encodeURIComponent(hash)}?username=${encodeURIComponent(username)}`,
  );
  if (answer.status !== 200) {
    handleCommonError(answer);
    return;
  }
  info = answer.data;
  byId('username').textContent = info.username;
  byId('for-user').hidden = false;
  if (info.state === 'expired') {
    showDead('This link has expired', 'Ask for a new link where you started.', info.fallbackUrl);
    return;
  }
  if (info.state === 'used') {
    showDead('This link was already used', 'A wallet was already created with this link.', info.fallbackUrl);
    return;
  }
  for (const allowed of info.strategies) byId(`option-${allowed}`).hidden = false;
  if (info.strategies.length === 1) byId(`strategy-${info.strategies[0]}`).checked = true;
  for (const button of document.querySelectorAll('button.back')) button.hidden = info.strategies.length === 1;
  showStep('choose');
}

document.addEventListener('DOMContentLoaded', load);
