package io.rdmamon.collector.store;

import io.rdmamon.protocol.wire.HostLayout;

/**
 * What one node is estimated to cost the collector's heap in steady state, from its layout (the hello's, or a layout
 * change's): its state outside the rate history ({@link #stateBytes}: the last two samples, the decoder's plan, the
 * {@code /metrics} chunk of its series, the diagnosis engine's windows, the live feed's copy) and what one rate-history
 * point of all its ports costs ({@link #historyBytesPerPoint}, {@link NodeHistory}).
 *
 * <p>The state is linear in the ports and in the values the layout names (counters, hw counters, ethtool statistics,
 * netdev counters, module readings: its slots) and GID entries. The coefficients are measured, not derived:
 * {@code NodeHeapCostBench} (it module) runs a collector process with a 2-point history, feeds it 100 to 200 nodes of
 * one shape at 1 Hz, scrapes {@code /metrics} once and reads the heap after a full GC against the idle process's;
 * docs/performance.md ("Heap admission") lists the shapes and figures. The estimate is rounded up from the worst
 * shape measured: admission is meant to refuse before the heap runs out, not to fill it.
 *
 * @param stateBytes           heap outside the rate history
 * @param historyBytesPerPoint one rate-history point of every port of the node
 */
public record NodeCost(long stateBytes, long historyBytesPerPoint) {
    /** A node whatever its ports: its entry in the store, registry, claims, diagnosis, the connection. */
    static final long NODE_BYTES = 16 * 1024;
    /** Each port: its records, names, per-port series without a counter behind them, its diagnosis windows. */
    static final long PORT_BYTES = 8 * 1024;
    /** Each value slot: two samples' values, its name's series text in the exposition chunk, its rate windows. */
    static final long SLOT_BYTES = 220;
    /** Each GID entry: the record and its strings in the layout, its info series. */
    static final long GID_BYTES = 400;

    /**
     * Share of the maximum heap the admitted nodes may take with their histories and the idle process. The estimate
     * is the steady state; on top of it a {@code /metrics} scrape renders every node with a new sample anew (measured:
     * eight 128-port nodes, 54 MiB live at {@code -Xmx128m}, ran the heap out during the first scrape: about 9 MiB
     * more per node while it lasts), frames and hellos are in flight, and G1 wants headroom above the live set
     * (docs/deploy.md gives the heap 1.6 times it). Half the heap leaves room for all of it.
     */
    public static final int ADMISSION_HEAP_PERCENT = 50;
    /** The idle collector's live heap (12 MiB measured, lone) with room for a replica's cluster member. */
    public static final long BASELINE_BYTES = 24L * 1024 * 1024;

    /**
     * The heap the admitted nodes' estimates ({@link #stateBytes} plus their histories within the history budget) may
     * take in a JVM of {@code maxHeapBytes}: {@value #ADMISSION_HEAP_PERCENT} % of it, less the idle process
     * ({@link #BASELINE_BYTES}) and the hellos that may wait to be decoded ({@code waitingHelloBytes}).
     */
    public static long admissionLimit(long maxHeapBytes, long waitingHelloBytes) {
        return Math.max(0, maxHeapBytes * ADMISSION_HEAP_PERCENT / 100 - BASELINE_BYTES - waitingHelloBytes);
    }

    /** What a node with {@code layout} costs. */
    public static NodeCost of(HostLayout layout) {
        long ports = 0;
        long gids = 0;
        for (HostLayout.DeviceLayout device : layout.devices()) {
            ports += device.ports().size();
            for (HostLayout.PortLayout port : device.ports()) {
                gids += port.gids().size();
            }
        }
        long state = NODE_BYTES + ports * PORT_BYTES + (long) layout.slotCount() * SLOT_BYTES + gids * GID_BYTES;
        return new NodeCost(state, NodeHistory.BYTES_PER_NODE_POINT + NodeHistory.BYTES_PER_PORT_POINT * ports);
    }

    /** The node's full rate history: {@code historyPoints} points of every port. */
    public long fullHistoryBytes(int historyPoints) {
        return historyBytesPerPoint * historyPoints;
    }
}
