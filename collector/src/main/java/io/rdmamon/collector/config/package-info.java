/**
 * What the settings records of every package share: the error of a bad setting
 * ({@link io.rdmamon.collector.config.ConfigException}) and a listen address
 * ({@link io.rdmamon.collector.config.ListenAddress}). At the bottom, apart from the collector's own configuration
 * ({@code CollectorConfig}) in the root package, which wires every package's settings.
 */
package io.rdmamon.collector.config;
