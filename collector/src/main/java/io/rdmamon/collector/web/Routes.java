package io.rdmamon.collector.web;

import io.vertx.ext.web.Router;

/**
 * A part of the collector's HTTP interface that mounts its own routes: the collector mounts each, in order, on
 * its router (order matters to Vert.x: an authentication route must come before the routes it guards).
 */
@FunctionalInterface
public interface Routes {
    void mount(Router router);
}
