/**
 * The HTTP building blocks every feature package shares: JSON replies and answers
 * ({@link io.rdmamon.collector.web.JsonReplies}, {@link io.rdmamon.collector.web.ApiAnswer}), a part that mounts its
 * own routes ({@link io.rdmamon.collector.web.Routes}), the refusal of malformed percent-escapes
 * ({@link io.rdmamon.collector.web.PercentEscapes}) and the throttled log of refused requests
 * ({@link io.rdmamon.collector.web.RefusalLog}). At the bottom: it uses no other package of the collector; the REST
 * handlers over the fleet are in {@code http}, each feature's own API in its package.
 */
package io.rdmamon.collector.web;
