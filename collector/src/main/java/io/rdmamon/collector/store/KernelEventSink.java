package io.rdmamon.collector.store;

import io.rdmamon.protocol.model.KernelEvents;

import java.util.List;

/**
 * Told of each kernel record an agent reports for the first time ({@link NodeStore#kernelEvents}), for a change log to
 * subscribe to ({@link NodeStore#addKernelEventSink}). Called on the ingest thread while the store is locked: record
 * and return, never block nor call back into the store from another thread.
 */
@FunctionalInterface
public interface KernelEventSink {
    /** {@code fresh}: the records of {@code node} not reported before, oldest first (never empty). */
    void kernelEvents(String node, List<KernelEvents.Event> fresh);
}
