// The URL fragments of the dashboard's views (#/port/…, #/probes/…): every view links with these, and
// main.js's router reads them back.

export const portHref = (row) =>
  '#/port/' + [row.node, row.device, row.port].map(encodeURIComponent).join('/');

export const probeHref = (id) => '#/probes/' + encodeURIComponent(id);
