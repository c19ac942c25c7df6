// REST calls with the viewer token (Authorization: Bearer, the same flow as the API's other clients).
// The token lives in sessionStorage: it never goes into a URL, so it is neither logged nor linked.
// Acting (starting or cancelling a probe) needs the operator role, whose token is a separate one:
// it is asked for only when the collector refuses, and it is kept in sessionStorage too (never
// localStorage: it must not outlive the tab).

const TOKEN_KEY = 'rdmamon-token';
const OPERATOR_TOKEN_KEY = 'rdmamon-operator-token';
const listeners = new Set();

export class AuthRequired extends Error {
  constructor() {
    super('the collector asks for a viewer token');
  }
}

export const token = () => sessionStorage.getItem(TOKEN_KEY);

export function setToken(value) {
  if (value) sessionStorage.setItem(TOKEN_KEY, value);
  else sessionStorage.removeItem(TOKEN_KEY);
  listeners.forEach((fn) => fn());
}

/** Called whenever the token changes (the live stream reconnects with the new one). */
export const onTokenChange = (fn) => listeners.add(fn);

export function authHeaders() {
  const t = token();
  return t ? {Authorization: 'Bearer ' + t} : {};
}

let authPrompt = () => {};
/** What to do when the collector answers 401 (main.js opens the token dialog). */
export const onAuthRequired = (fn) => { authPrompt = fn; };

/**
 * The collector answered 401 to a request sent with `sentToken` (null: none): asks for the viewer token, unless the
 * token changed since the request left. A page's first requests leave before the user gives the token, and on a busy
 * machine a refusal can come back after it was given; asking again would ask for the token just given.
 */
export const requireAuth = (sentToken) => {
  if (sentToken === token()) authPrompt();
};

/**
 * GET of a JSON answer with these headers; rejects with an Error carrying the HTTP `status`. Uses no storage and no
 * DOM, so a worker (pingmesh-worker.js) calls it too, with the headers the page gives it.
 */
export async function fetchJson(path, headers, signal) {
  const response = await fetch(path, {headers: {Accept: 'application/json', ...headers}, signal});
  const body = await response.json().catch(() => ({error: 'not JSON'}));
  if (!response.ok) {
    const error = new Error(path + ': ' + response.status + ' ' + (body.error || ''));
    error.status = response.status;
    throw error;
  }
  return body;
}

/**
 * GET with the viewer token; a 401 asks for the token (and rejects with AuthRequired). A 401 to a request sent before
 * the token changed is sent again with the new token.
 */
export async function getJson(path, signal) {
  const sent = token();
  try {
    return await fetchJson(path, authHeaders(), signal);
  } catch (e) {
    if (e.status !== 401) throw e;
    if (token() !== sent) return getJson(path, signal);
    requireAuth(sent);
    throw new AuthRequired();
  }
}

/** The collector refused to act for this token (401: none or unknown, 403: not an operator's). */
export class OperatorRequired extends Error {
  constructor(status, reason) {
    super(reason || (status === 403 ? 'this token may only read' : 'missing or unknown bearer token'));
    this.status = status;
  }
}

/** Any other refusal: the status, the collector's own error text, and Retry-After when sent. */
export class RequestFailed extends Error {
  constructor(status, reason, retryAfterSeconds) {
    super(reason);
    this.status = status;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export const operatorToken = () => sessionStorage.getItem(OPERATOR_TOKEN_KEY);

export function setOperatorToken(value) {
  if (value) sessionStorage.setItem(OPERATOR_TOKEN_KEY, value);
  else sessionStorage.removeItem(OPERATOR_TOKEN_KEY);
}

/**
 * A request that acts (POST, DELETE): with the operator token when one was given, else the viewer's
 * (which is enough when it is an operator token itself). Resolves to the JSON answer.
 */
export async function sendJson(method, path, body) {
  const bearer = operatorToken() || token();
  const headers = {Accept: 'application/json', ...(bearer ? {Authorization: 'Bearer ' + bearer} : {})};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)});
  const answer = await response.json().catch(() => ({error: 'the collector answered ' + response.status + ' without JSON'}));
  if (response.status === 401 || response.status === 403) throw new OperatorRequired(response.status, answer.error);
  if (!response.ok) {
    const retryAfter = Number(response.headers.get('Retry-After'));
    throw new RequestFailed(response.status, answer.error || 'the collector answered ' + response.status,
      Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null);
  }
  return answer;
}
