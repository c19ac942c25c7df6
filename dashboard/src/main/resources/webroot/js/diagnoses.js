// The diagnoses list, drawn the same way in the overview's panel and beside a port's charts.

import * as fmt from './format.js';
import {el} from './dom.js';
import {portHref} from './links.js';

/**
 * Fills a list with diagnoses as the engine sorts them (critical first, then the oldest): severity, rule,
 * place (a link to the port), since when, evidence, and the runbook text with a link to its page.
 */
export function renderDiagnoses(list, diagnoses, runbooks, withPlace) {
  const items = diagnoses.slice(0, 200).map((d) => {
    const li = el('li', {className: 'diag sev-' + d.severity, 'data-rule': d.rule, 'data-node': d.node},
      el('div', {}, el('span', {className: 'badge sev-' + d.severity}, d.severity), ' ',
        el('code', {className: 'rule'}, d.rule)),
      el('div', {className: 'where', title: d.since}, ...place(d, withPlace),
        'since ' + fmt.clock(d.sinceMillis) + ' (' + fmt.duration(Date.now() - d.sinceMillis) + ')'),
      el('div', {className: 'evidence'}, d.evidence));
    const book = runbooks[d.rule];
    if (book) {
      li.append(el('details', {}, el('summary', {}, 'Runbook'), el('p', {className: 'runbook'}, book.runbook),
        el('a', {href: book.runbookUrl, target: '_blank', rel: 'noopener'}, book.runbookPath)));
    }
    return li;
  });
  if (!items.length) items.push(el('li', {className: 'sev-ok none'}, 'no active diagnoses'));
  list.replaceChildren(...items);
}

/** Where a diagnosis is, before its "since": a link to the port or node in lists of the whole fleet. */
function place(d, withPlace) {
  if (withPlace) {
    const link = d.scope === 'node' ? el('a', {href: '#/?q=' + encodeURIComponent(d.node)}, d.node)
      : el('a', {href: portHref(d)}, d.node + ' ' + d.device + '/' + d.port);
    return [link, ' · '];
  }
  return d.scope === 'port' ? [d.device + '/' + d.port + ' · '] : [];
}
