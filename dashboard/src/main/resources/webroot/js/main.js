// Wiring: the push stream feeds the fleet model and the open port; the URL fragment says what is
// open, so every view is a deep link (#/port/<node>/<device>/<port>[/<tab>], #/?q=…&f=…,
// #/probes[/<id>], #/pingmesh[?group=G], #/timeline[?node=&kind=&severity=], #/fabric[?subnet=&link=]). The views (overview.js, detail.js,
// probes.js, pingmesh.js, timeline.js, fabric.js) never import one
// another: this module composes them (the pingmesh view starts probes into the Probes view's store), and what they
// share lives in helper modules (dom.js, links.js, diagnoses.js, format.js).

import {Fleet} from './fleet.js';
import {LiveStream} from './live.js';
import {Overview} from './overview.js';
import {FleetMap} from './fleet-map.js';
import {Detail} from './detail.js';
import {Probes} from './probes.js';
import {Pingmesh} from './pingmesh.js';
import {PortChanges, Timeline} from './timeline.js';
import {Fabric} from './fabric.js';
import {onAuthRequired, setToken, token} from './api.js';
import * as fmt from './format.js';
import {byId, setText} from './dom.js';

const fleet = new Fleet();
const conn = byId('conn');
let status = {connected: false, since: Date.now(), reason: 'connecting'};
let lastUpdate = 0;

const live = new LiveStream({
  onEvent: (name, data) => {
    if (name === 'hello') {
      fleet.setFields(data.portFields);
      detail.configure(data);
      probes.onConnected();
    } else if (name === 'fleet') {
      lastUpdate = data.ts;
      fleet.apply(data);
    } else if (name === 'diagnoses') {
      fleet.setDiagnoses(data);
    } else if (name === 'port') {
      detail.onPort(data);
    } else if (name === 'probe') {
      probes.onEvent(data);
    } else if (name === 'change') {
      timeline.onChange(data);
      portChanges.onChange(data);
    } else if (name === 'error') {
      console.warn('live feed: ' + data.error);
    }
  },
  onStatus: (s) => {
    status = s;
    renderStatus();
  },
});

const overview = new Overview(fleet, {
  onQueryChange: (q, f) => {
    const params = new URLSearchParams();
    if (q) params.set('q', q);
    if (f && f !== 'all') params.set('f', f);
    const query = params.toString();
    history.replaceState(null, '', '#/' + (query ? '?' + query : ''));
  },
});
new FleetMap(fleet);
const detail = new Detail(live, fleet);
const probes = new Probes(fleet);
const pingmesh = new Pingmesh(probes.store);
const timeline = new Timeline();
const portChanges = new PortChanges();
const fabric = new Fabric();

function renderStatus() {
  if (status.connected) {
    setText(conn, 'live' + (lastUpdate ? ' · ' + fmt.clock(lastUpdate) : ''), 'conn ok');
  } else {
    const retry = status.retryAt ? ' · retrying in ' + fmt.duration(Math.max(0, status.retryAt - Date.now())) : '';
    setText(conn, 'disconnected since ' + fmt.clock(status.since) + ' (' + fmt.duration(Date.now() - status.since)
      + ')' + retry, 'conn bad');
    conn.title = status.reason || '';
  }
}
setInterval(renderStatus, 1000);

/** Hides the overview, the port page and the Probes view: what a full-page view (pingmesh, timeline, fabric) does. */
function showOnlyAView() {
  byId('overview-view').hidden = true;
  detail.close();
  probes.closePort();
  probes.closeView();
}

function route() {
  const hash = location.hash.replace(/^#/, '') || '/';
  const [path, query] = hash.split('?');
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  const inProbes = parts[0] === 'probes';
  const inPingmesh = parts[0] === 'pingmesh';
  const inTimeline = parts[0] === 'timeline';
  const inFabric = parts[0] === 'fabric';
  byId('probes-link').toggleAttribute('aria-current', inProbes);
  byId('pingmesh-link').toggleAttribute('aria-current', inPingmesh);
  byId('timeline-link').toggleAttribute('aria-current', inTimeline);
  byId('fabric-link').toggleAttribute('aria-current', inFabric);
  if (!inPingmesh) pingmesh.close();
  if (!inTimeline) timeline.close();
  if (!inFabric) fabric.close();
  if (parts[0] !== 'port') portChanges.close();
  if (inFabric) {
    showOnlyAView();
    const params = new URLSearchParams(query || '');
    fabric.open(params.get('subnet') || '', params.get('link') || '');
    byId('crumbs').replaceChildren(params.get('subnet') || '');
    document.title = 'Fabric · rdmamon';
    return;
  }
  if (inTimeline) {
    showOnlyAView();
    const params = new URLSearchParams(query || '');
    const filters = {node: params.get('node') || '', kind: params.get('kind') || '',
      severity: params.get('severity') || ''};
    timeline.open(filters);
    byId('crumbs').replaceChildren(filters.node ? 'node ' + filters.node : '');
    document.title = 'Timeline · rdmamon';
    return;
  }
  if (inPingmesh) {
    showOnlyAView();
    const group = new URLSearchParams(query || '').get('group') || '';
    pingmesh.open(group);
    byId('crumbs').replaceChildren(group ? 'group ' + group : '');
    document.title = 'Pingmesh · rdmamon';
    return;
  }
  if (inProbes) {
    byId('overview-view').hidden = true;
    detail.close();
    probes.closePort();
    probes.openView(parts[1]);
    byId('crumbs').replaceChildren(parts[1] ? 'probe ' + parts[1] : '');
    document.title = 'Probes · rdmamon';
    return;
  }
  probes.closeView();
  if (parts[0] === 'port' && parts.length >= 4) {
    byId('overview-view').hidden = true;
    detail.open(parts[1], parts[2], parts[3], parts[4]);
    probes.openPort(parts[1], parts[2], parts[3]);
    portChanges.open(parts[1], parts[2], parts[3]);
    document.title = parts[1] + ' ' + parts[2] + '/' + parts[3] + ' · rdmamon';
    return;
  }
  detail.close();
  probes.closePort();
  byId('crumbs').replaceChildren();
  byId('overview-view').hidden = false;
  document.title = 'rdmamon';
  const params = new URLSearchParams(query || '');
  overview.setQuery(params.get('q') || '', params.get('f') || 'all', false);
  overview.render();
}
window.addEventListener('hashchange', route);

// keyboard: "/" searches, Escape goes back to the overview
document.addEventListener('keydown', (e) => {
  const typing = ['INPUT', 'SELECT', 'TEXTAREA'].includes(document.activeElement?.tagName);
  if (e.key === '/' && !typing) {
    e.preventDefault();
    if (!byId('overview-view').hidden) byId('search').focus();
    else if (!byId('probes-view').hidden) byId('pv-source-filter').focus();
    else if (!byId('pingmesh-view').hidden) byId('pm-group').focus();
    else if (!byId('timeline-view').hidden) byId('tl-node').focus();
    else byId('counter-search').focus();
  } else if (e.key === 'Escape' && !typing && /^#\/(port\/|probes|pingmesh|timeline|fabric)/.test(location.hash)) {
    location.hash = '#/';
  }
});

// theme: the system's by default, a choice is remembered
const themeButton = byId('theme-button');
function applyTheme(theme) {
  if (theme) document.documentElement.dataset.theme = theme;
  else delete document.documentElement.dataset.theme;
  const dark = theme ? theme === 'dark' : matchMedia('(prefers-color-scheme: dark)').matches;
  themeButton.textContent = dark ? 'Light' : 'Dark';
  themeButton.setAttribute('aria-label', 'Switch to ' + (dark ? 'light' : 'dark') + ' theme');
  detail.restyle();
  pingmesh.restyle();
}
themeButton.addEventListener('click', () => {
  const dark = document.documentElement.dataset.theme
    ? document.documentElement.dataset.theme === 'dark' : matchMedia('(prefers-color-scheme: dark)').matches;
  const next = dark ? 'light' : 'dark';
  localStorage.setItem('rdmamon-theme', next);
  applyTheme(next);
});
applyTheme(localStorage.getItem('rdmamon-theme'));

// token: asked for when the collector answers 401
const dialog = byId('token-dialog');
const tokenInput = byId('token-input');
const askToken = () => {
  if (!dialog.open) {
    tokenInput.value = token() || '';
    dialog.showModal();
  }
};
onAuthRequired(askToken);
byId('token-button').addEventListener('click', askToken);
byId('token-cancel').addEventListener('click', () => dialog.close());
byId('token-form').addEventListener('submit', () => setToken(tokenInput.value.trim()));

route();
if (!location.hash.startsWith('#/port/')) live.watch([]);
