// Acting on the collector (starting or cancelling a probe) needs the operator role: a refused request asks
// for an operator token, saying why, and is tried once more with it.

import {OperatorRequired, RequestFailed, setOperatorToken} from './api.js';
import {byId} from './dom.js';

/** Asks for an operator token, saying why; resolves to whether one was given. */
function askOperatorToken(reason) {
  const dialog = byId('operator-dialog');
  const input = byId('operator-token-input');
  byId('operator-reason').textContent = reason;
  input.value = '';
  return new Promise((resolve) => {
    const form = byId('operator-form');
    const cancel = byId('operator-cancel');
    const finish = (given) => {
      form.removeEventListener('submit', submit);
      cancel.removeEventListener('click', dismiss);
      dialog.removeEventListener('cancel', dismiss);
      if (dialog.open) dialog.close();
      resolve(given);
    };
    const submit = (e) => {
      e.preventDefault();
      setOperatorToken(input.value.trim());
      finish(Boolean(input.value.trim()));
    };
    const dismiss = (e) => {
      e.preventDefault();
      finish(false);
    };
    form.addEventListener('submit', submit);
    cancel.addEventListener('click', dismiss);
    dialog.addEventListener('cancel', dismiss);
    dialog.showModal();
  });
}

/**
 * Sends an acting request; on 401/403 asks for an operator token (why: the collector's answer) and
 * tries once more with it. Throws OperatorRequired when the user gives none or it is refused too.
 */
export async function asOperator(what, request) {
  try {
    return await request();
  } catch (e) {
    if (!(e instanceof OperatorRequired)) throw e;
    const reason = what + ' needs the operator role, and the collector refused this tab\'s token (HTTP ' + e.status
      + ': ' + e.message + '). The viewer token only reads. Enter an operator token; it is kept in this tab\'s '
      + 'session storage only.';
    if (!(await askOperatorToken(reason))) throw e;
    return request();
  }
}

/** The collector's refusal in its own words, with the HTTP status. */
export function refusal(e, outcome) {
  if (e instanceof OperatorRequired) {
    return outcome + ': ' + e.message + ' (HTTP ' + e.status + '). This needs an operator token.';
  }
  if (e instanceof RequestFailed) {
    return outcome + ': ' + e.message + ' (HTTP ' + e.status + ')'
      + (e.retryAfterSeconds ? '; retry in ' + e.retryAfterSeconds + '\u202fs' : '') + '.';
  }
  return outcome + ': ' + e.message;
}
