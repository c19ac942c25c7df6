/**
 * The diagnosis engine: runs the rules of {@code diagnosis.rules} on every sample and sweep, with hysteresis, and
 * keeps the fleet-wide views they compare a port with (modal link rates, the QoS majority, topology changes). Above
 * the rules, which implement the interfaces of {@code diagnosis} ({@code PortRule}, {@code NodeRule}) and never see
 * the engine.
 */
package io.rdmamon.collector.diagnosis.engine;
