package io.rdmamon.agent.stream;

import io.rdmamon.agent.fabric.FabricSink;
import io.rdmamon.protocol.fabric.FabricSweep;
import io.rdmamon.protocol.wire.FabricWire;
import io.rdmamon.protocol.wire.Frame;
import io.rdmamon.protocol.wire.FrameCodec;
import io.rdmamon.protocol.wire.WireFormat;

/**
 * Sends each sweep of the agent's fabric sweeper to the collector as optional {@code fabric} frames, split by nodes to
 * the frame limit ({@link FabricWire#partsWithin}). A collector that does not list the type gets none
 * ({@link AgentStreamer#sendOptional}); a sweep lost to a reconnect is replaced by the next one, so nothing is kept.
 */
public final class FabricUpdates implements FabricSink {
    private final AgentStreamer streamer;
    private final FrameCodec codec = new FrameCodec(WireFormat.DEFAULT_MAX_FRAME_BYTES, "agent");

    public FabricUpdates(AgentStreamer streamer) {
        this.streamer = streamer;
    }

    @Override
    public void accept(FabricSweep sweep) {
        if (!streamer.collectorAccepts(Frame.Fabric.TYPE)) {
            return; // no split (a whole fabric's encoding) for a collector that would get nothing
        }
        for (Frame.Fabric part : FabricWire.partsWithin(codec, sweep)) {
            streamer.sendOptional(Frame.Fabric.TYPE, part);
        }
    }
}
