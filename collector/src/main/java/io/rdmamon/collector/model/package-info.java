/**
 * The collector's shared vocabulary: the types several feature packages speak, so that none of them imports another
 * for a name. A port's key ({@link io.rdmamon.collector.model.PortKey}), the diagnosis rules and their severities
 * ({@link io.rdmamon.collector.model.Rule}, {@link io.rdmamon.collector.model.Severity}), a port's QoS profile and
 * RoCE DSCP ({@link io.rdmamon.collector.model.QosProfile}, {@link io.rdmamon.collector.model.RoceDscp}) and the
 * pingmesh's verdict on a path ({@link io.rdmamon.collector.model.PathVerdict}). At the bottom: it uses the protocol
 * and no other package of the collector.
 */
package io.rdmamon.collector.model;
