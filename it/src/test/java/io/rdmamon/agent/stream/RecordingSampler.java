package io.rdmamon.agent.stream;

import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.SourceStatus;
import io.rdmamon.protocol.testing.Samples;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * A host whose mlx5_0/1 receives 1 MB per sample, recording every timestamp it hands out: what a collector received
 * is compared with {@link #timestamps()} to prove a gapless run.
 */
public final class RecordingSampler implements Supplier<HostSample> {
    private final List<Long> timestamps = new CopyOnWriteArrayList<>();
    private final AtomicLong bytes = new AtomicLong();

    @Override
    public HostSample get() {
        long ts = System.currentTimeMillis();
        timestamps.add(ts);
        IbPort port = Samples.ibPort()
                .counters(Samples.ordered("port_rcv_data", bytes.addAndGet(1_000_000), "port_xmit_data", 0L)).build();
        return Samples.host("ignored", ts).devices(Samples.mlx5Device().ports(port).build())
                .sources(SourceStatus.ok("sysfs", "mlx5_0")).build();
    }

    /** The timestamps of the samples taken so far, oldest first. */
    public List<Long> timestamps() {
        return timestamps;
    }
}
