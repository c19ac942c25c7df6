package io.rdmamon.collector.fabric;

import io.rdmamon.protocol.fabric.FabricNode;
import io.rdmamon.protocol.fabric.FabricSweep;
import io.rdmamon.protocol.wire.Frame;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Joins the frames of one sweeper's sweep ({@code FabricWire.parts}): parts 0..parts-1 arrive in order on one
 * connection with the same header. A part out of order, or of another sweep, drops what was gathered (the next sweep
 * replaces it anyway); {@code maxNodes} bounds what one sweep may gather.
 */
final class SweepAssembler {
    private final int maxNodes;
    private FabricSweep header;
    private int parts;
    private int next;
    private final List<FabricNode> nodes = new ArrayList<>();

    SweepAssembler(int maxNodes) {
        this.maxNodes = maxNodes;
    }

    /**
     * The whole sweep when {@code frame} is its last part; empty while parts are missing.
     *
     * @throws IllegalArgumentException a part out of order, of another sweep, or beyond the node bound (what was
     *                                  gathered is dropped)
     */
    Optional<FabricSweep> add(Frame.Fabric frame) {
        FabricSweep sweep = frame.sweep();
        if (frame.part() == 0) {
            reset();
            header = sweep;
            parts = frame.parts();
        } else if (header == null || frame.part() != next || frame.parts() != parts
                || header.timeMillis() != sweep.timeMillis() || !header.subnetPrefix().equals(sweep.subnetPrefix())) {
            String expected = header == null ? "part 0" : "part " + next + " of " + parts + " of the sweep at "
                    + header.timeMillis();
            reset();
            throw new IllegalArgumentException("fabric frame part " + frame.part() + " of " + frame.parts()
                    + " of the sweep at " + sweep.timeMillis() + " arrived where " + expected + " was expected");
        }
        if (nodes.size() + sweep.nodes().size() > maxNodes) {
            reset();
            throw new IllegalArgumentException("fabric sweep of subnet " + sweep.subnetPrefix() + " holds more than "
                    + maxNodes + " nodes (the collector's bound)");
        }
        nodes.addAll(sweep.nodes());
        next = frame.part() + 1;
        if (next < parts) {
            return Optional.empty();
        }
        FabricSweep whole = header.withNodes(nodes);
        reset();
        return Optional.of(whole);
    }

    private void reset() {
        header = null;
        parts = 0;
        next = 0;
        nodes.clear();
    }
}
