// REST calls with the viewer token (Authorization: Bearer, the same flow as the API's other clients).
// The token lives in sessionStorage: it never goes into a URL, so it is neither logged nor linked.

const TOKEN_KEY = 'rdmamon-token';
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
export const requireAuth = () => authPrompt();

export async function getJson(path, signal) {
  const response = await fetch(path, {headers: {Accept: 'application/json', ...authHeaders()}, signal});
  if (response.status === 401) {
    requireAuth();
    throw new AuthRequired();
  }
  const body = await response.json().catch(() => ({error: 'not JSON'}));
  if (!response.ok) throw new Error(path + ': ' + response.status + ' ' + (body.error || ''));
  return body;
}
