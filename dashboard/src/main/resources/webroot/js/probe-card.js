// One probe as a card: its state and progress while it runs, then its result against the link rate or its
// error, with a cancel button while it runs.

import * as fmt from './format.js';
import {RequestFailed, sendJson} from './api.js';
import {el, setText} from './dom.js';
import {probeHref} from './links.js';
import {asOperator, refusal} from './operator.js';
import {endpointText, gbits, isTerminal, ratioText, sizeText} from './probe-text.js';

/** One probe: its state and progress while it runs, then its result against the link rate or its error. */
export class ProbeCard {
  constructor(store) {
    this.store = store;
    this.probe = null;
    this.body = el('div');
    this.announce = el('p', {className: 'sr-only', 'aria-live': 'polite'});
    this.root = el('section', {className: 'probe-card'}, this.body, this.announce);
    this.lastAnnounced = '';
  }

  show(probe) {
    if (probe?.id !== this.probe?.id) this.cancelStatus = null;
    this.probe = probe;
    this.render();
  }

  render() {
    const p = this.probe;
    if (!p) {
      this.body.replaceChildren();
      return;
    }
    const focused = this.root.contains(document.activeElement) ? document.activeElement.dataset.action : null;
    const outputOpen = this.body.querySelector('details.probe-output')?.open;
    const title = el('h3', {}, el('a', {href: probeHref(p.id)}, endpointText(p.source) + ' → ' + endpointText(p.destination)));
    const state = el('span', {className: 'probe-state state-' + p.state}, p.state);
    const params = [sizeText(p.sizeBytes), p.durationSeconds + '\u202fs', p.qps + (p.qps === 1 ? ' QP' : ' QPs'),
      p.gidIndex == null ? null : 'GID ' + p.gidIndex, p.bidirectional ? 'bidirectional' : null]
      .filter(Boolean).join(' · ');
    const who = [p.requestedBy ? 'by ' + p.requestedBy : null, 'created ' + fmt.clock(p.createdMillis),
      p.finishedMillis ? 'finished ' + fmt.clock(p.finishedMillis) : null].filter(Boolean).join(' · ');
    const parts = [el('header', {}, title, state), el('p', {className: 'muted'}, params),
      el('p', {className: 'muted'}, 'Probe ', el('code', {}, p.id), ' ' + who)];
    if (!isTerminal(p)) parts.push(steps(p, this.store.steps), progress(p));
    if (p.result) parts.push(result(p));
    if (p.error || p.state === 'failed' || (p.exitCode ?? 0) !== 0) parts.push(failure(p));
    if (p.output?.length) {
      parts.push(el('details', {className: 'probe-output', open: outputOpen},
        el('summary', {}, 'perftest output (' + p.output.length + ' lines)'), el('pre', {}, p.output.join('\n'))));
    }
    if (!isTerminal(p)) {
      const cancel = el('button', {type: 'button', className: 'danger'}, 'Cancel probe');
      cancel.dataset.action = 'cancel';
      cancel.addEventListener('click', () => this.cancel(cancel));
      parts.push(el('div', {className: 'probe-actions'}, cancel));
    }
    parts.push(this.cancelStatus || el('p', {className: 'probe-cancel-status', role: 'status'}));
    this.cancelStatus = parts[parts.length - 1];
    this.body.replaceChildren(...parts);
    if (focused) this.body.querySelector('[data-action=' + focused + ']')?.focus();
    const said = p.id + ' ' + p.state + (p.result ? (p.result.passed ? ', passed' : ', below the pass ratio') : '');
    if (said !== this.lastAnnounced) {
      this.lastAnnounced = said;
      this.announce.textContent = 'Probe ' + said;
    }
  }

  async cancel(button) {
    button.disabled = true;
    const id = this.probe.id;
    try {
      const probe = await asOperator('Cancelling a probe',
        () => sendJson('DELETE', '/api/probes/' + encodeURIComponent(id)));
      this.store.put(probe);
      this.cancelStatus.textContent = '';
    } catch (e) {
      button.disabled = false;
      setText(this.cancelStatus, refusal(e, 'Not cancelled'), 'probe-cancel-status bad');
      if (e instanceof RequestFailed && e.status === 409) this.store.load(id);
    }
  }
}

function steps(p, names) {
  const at = p.step;
  return el('ol', {className: 'probe-steps', 'aria-label': 'Steps'}, ...names.map((s, i) =>
    el('li', {className: i < at ? 'past' : i === at ? 'current' : '', 'aria-current': i === at ? 'step' : null}, s)));
}

function progress(p) {
  const share = Math.max(0, Math.min(1, p.progress || 0));
  const left = p.startedMillis ? Math.max(0, p.startedMillis + p.durationSeconds * 1000 - Date.now()) : null;
  const bar = el('progress', {max: 1, value: share, 'aria-label': 'Progress'});
  return el('p', {className: 'probe-progress'}, bar, ' ' + fmt.percent(share)
    + (left != null ? ' · about ' + fmt.duration(left) + ' left' : ' · waiting for the perftest server'));
}

function result(p) {
  const r = p.result;
  const linkRate = p.linkRateBitsPerSecond;
  const reference = linkRate == null ? 'the link rate (unknown)'
    : (p.bidirectional ? '2 × ' : '') + gbits(linkRate) + ' link rate';
  const ratio = r.linkRatio;
  const pass = p.passRatio;
  const verdict = r.passed ? 'PASS' : 'FAIL';
  const bar = el('div', {className: 'probe-bar', role: 'meter', 'aria-label': 'Share of link rate',
    'aria-valuemin': 0, 'aria-valuemax': 100, 'aria-valuenow': ratio == null ? null : Math.round(ratio * 100),
    'aria-valuetext': ratioText(ratio) + ' of ' + reference});
  const fill = el('span', {className: 'fill'});
  fill.style.width = Math.min(100, Math.max(0, (ratio || 0) * 100)) + '%';
  bar.append(fill);
  if (pass != null) {
    const mark = el('span', {className: 'mark', title: 'pass at ' + fmt.percent(pass)});
    mark.style.left = pass * 100 + '%';
    bar.append(mark);
  }
  return el('div', {className: 'probe-result ' + (r.passed ? 'pass' : 'fail')},
    el('p', {className: 'probe-bw'}, el('b', {className: 'probe-bandwidth'}, gbits(r.bandwidthBitsPerSecond)),
      // perftest measures no peak in duration mode (-D) and prints 0.00 there
      ' average' + (r.peakBitsPerSecond > 0 ? ' · peak ' + gbits(r.peakBitsPerSecond) : '') + ' · '
        + fmt.count(r.messageRatePerSecond) + ' msg/s'),
    bar,
    el('p', {}, el('span', {className: 'probe-ratio'}, ratioText(ratio)), ' of ' + reference + ' — ',
      el('b', {className: 'probe-verdict ' + (r.passed ? 'ok' : 'bad')}, verdict),
      pass == null ? '' : ' (passes at ≥ ' + fmt.percent(pass) + ')'),
    el('p', {className: 'muted'}, sizeText(r.sizeBytes) + ' messages, ' + fmt.count(r.iterations) + ' iterations'
      + (p.exitCode == null ? '' : ', perftest exit code ' + p.exitCode)));
}

function failure(p) {
  return el('div', {className: 'probe-failure'},
    el('p', {}, el('b', {className: 'bad'}, p.state === 'cancelled' ? 'Cancelled' : 'Error'),
      p.exitCode == null ? '' : ' · perftest exit code ', p.exitCode == null ? '' : el('code', {className: 'probe-exit'}, String(p.exitCode))),
    p.error ? el('pre', {className: 'probe-error'}, p.error) : null);
}
